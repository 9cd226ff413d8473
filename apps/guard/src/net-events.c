// SPDX-License-Identifier: GPL-2.0
/* Folding and capping of network denial events (see net-events.h). */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "net-events.h"
#include "plan.h"

#define FOLD_ENTRIES 256

struct fold {
  bool used;
  uint64_t window_start;
  uint32_t pending;
  struct net_denial last;
};

static struct fold folds[FOLD_ENTRIES];
static uint64_t budget_second, dropped;
static uint32_t budget_used;

uint64_t net_events_dropped(void) { return dropped; }

char *net_events_line(const struct net_denial *d, uint32_t repeats, uint64_t time_ms)
{
  char peer[INET6_ADDRSTRLEN] = "";
  inet_ntop(d->family == 4 ? AF_INET : AF_INET6, d->addr, peer, sizeof(peer));
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "event", "net_denied");
  cJSON_AddStringToObject(o, "proto", d->proto & (GUARD_NET_TCP4 | GUARD_NET_TCP6) ? "tcp" : "udp");
  cJSON_AddNumberToObject(o, "family", d->family);
  cJSON_AddStringToObject(o, "peer", peer);
  cJSON_AddNumberToObject(o, "port", d->port);
  cJSON_AddStringToObject(o, "rule", d->rule);
  cJSON_AddNumberToObject(o, "pid", d->pid);
  cJSON_AddNumberToObject(o, "uid", d->uid);
  cJSON_AddStringToObject(o, "comm", d->comm);
  cJSON_AddStringToObject(o, "exe", d->exe);
  cJSON_AddNumberToObject(o, "repeats", repeats);
  cJSON_AddNumberToObject(o, "time", (double)time_ms);
  char *line = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return line;
}

static bool same_key(const struct net_denial *a, const struct net_denial *b)
{
  return a->pid == b->pid && a->proto == b->proto && a->port == b->port && a->family == b->family &&
         memcmp(a->addr, b->addr, sizeof(a->addr)) == 0 && strncmp(a->rule, b->rule, sizeof(a->rule)) == 0;
}

static bool spend(uint64_t now_ms)
{
  if (now_ms / 1000 != budget_second) {
    budget_second = now_ms / 1000;
    budget_used = 0;
  }
  if (budget_used >= EVENTS_MAX_PER_SECOND)
    return false;
  budget_used++;
  return true;
}

static void emit_line(const struct net_denial *d, uint32_t repeats, uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  char *line = net_events_line(d, repeats, now_ms);
  if (line)
    emit(line, ctx);
  free(line);
}

void net_events_denial(const struct net_denial *d, uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  struct fold *free_slot = NULL, *oldest = NULL;
  for (int i = 0; i < FOLD_ENTRIES; i++) {
    struct fold *f = &folds[i];
    if (!f->used) {
      if (!free_slot)
        free_slot = f;
      continue;
    }
    if (same_key(&f->last, d)) {
      f->pending++;
      f->last = *d;
      return;
    }
    if (!oldest || f->window_start < oldest->window_start)
      oldest = f;
  }
  if (!free_slot) {
    if (oldest->pending && spend(now_ms))
      emit_line(&oldest->last, oldest->pending, now_ms, emit, ctx);
    else
      dropped += oldest->pending;
    free_slot = oldest;
  }
  *free_slot = (struct fold){ .used = true, .window_start = now_ms, .pending = 0, .last = *d };
  if (spend(now_ms))
    emit_line(d, 1, now_ms, emit, ctx);
  else
    free_slot->pending = 1;
}

int net_events_tick(uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  int64_t next = -1;
  for (int i = 0; i < FOLD_ENTRIES; i++) {
    struct fold *f = &folds[i];
    if (!f->used)
      continue;
    uint64_t end = f->window_start + EVENTS_WINDOW_MS;
    if (now_ms >= end) {
      if (!f->pending) {
        f->used = false;
        continue;
      }
      if (!spend(now_ms)) {
        next = next < 0 || 100 < next ? 100 : next;
        continue;
      }
      emit_line(&f->last, f->pending, now_ms, emit, ctx);
      f->pending = 0;
      f->window_start = now_ms;
      end = now_ms + EVENTS_WINDOW_MS;
    }
    int64_t wait = (int64_t)(end - now_ms);
    if (next < 0 || wait < next)
      next = wait;
  }
  return (int)next;
}
