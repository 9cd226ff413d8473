/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hash map from an inode (dev, ino) to two numbers, for the fanotify backend's in-memory
 * decisions: every marked directory → its nearest object, every listed executable → its entry.
 * Open addressing with linear probing; entries are never removed (a new plan builds a new map).
 */
#ifndef RAMPART_GUARD_FANOTIFY_INOMAP_H
#define RAMPART_GUARD_FANOTIFY_INOMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct inomap_value {
  uint32_t a, b;
};

struct inomap_slot {
  uint64_t dev, ino;
  struct inomap_value value;
  bool used;
};

struct inomap {
  struct inomap_slot *slots;
  size_t cap, count; /* cap is a power of two */
};

/* 0, or -1 when out of memory. Inserting an existing key replaces its value. */
int inomap_put(struct inomap *map, uint64_t dev, uint64_t ino, struct inomap_value value);
const struct inomap_value *inomap_get(const struct inomap *map, uint64_t dev, uint64_t ino);
void inomap_free(struct inomap *map);

#endif
