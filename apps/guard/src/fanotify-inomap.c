/* SPDX-License-Identifier: GPL-2.0 */
#include "fanotify-inomap.h"

#include <stdlib.h>

static size_t inomap_hash(uint64_t dev, uint64_t ino)
{
  uint64_t h = ino * 0x9E3779B97F4A7C15ull ^ (dev + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29));
}

static struct inomap_slot *inomap_find(struct inomap_slot *slots, size_t cap, uint64_t dev, uint64_t ino)
{
  size_t i = inomap_hash(dev, ino) & (cap - 1);
  while (slots[i].used && (slots[i].dev != dev || slots[i].ino != ino)) i = (i + 1) & (cap - 1);
  return &slots[i];
}

static int inomap_grow(struct inomap *map)
{
  size_t cap = map->cap ? map->cap * 2 : 1024;
  struct inomap_slot *slots = calloc(cap, sizeof *slots);
  if (!slots) return -1;
  for (size_t i = 0; i < map->cap; i++)
    if (map->slots[i].used) *inomap_find(slots, cap, map->slots[i].dev, map->slots[i].ino) = map->slots[i];
  free(map->slots);
  map->slots = slots;
  map->cap = cap;
  return 0;
}

int inomap_put(struct inomap *map, uint64_t dev, uint64_t ino, struct inomap_value value)
{
  /* Keep the load under one half so probes stay short: every marked access does one lookup. */
  if ((map->count + 1) * 2 > map->cap && inomap_grow(map)) return -1;
  struct inomap_slot *slot = inomap_find(map->slots, map->cap, dev, ino);
  if (!slot->used) map->count++;
  *slot = (struct inomap_slot){ .dev = dev, .ino = ino, .value = value, .used = true };
  return 0;
}

const struct inomap_value *inomap_get(const struct inomap *map, uint64_t dev, uint64_t ino)
{
  if (!map->cap) return NULL;
  const struct inomap_slot *slot = inomap_find(map->slots, map->cap, dev, ino);
  return slot->used ? &slot->value : NULL;
}

void inomap_free(struct inomap *map)
{
  free(map->slots);
  *map = (struct inomap){ 0 };
}
