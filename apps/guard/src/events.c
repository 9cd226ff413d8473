// SPDX-License-Identifier: GPL-2.0
/* Folding and capping of denial events (see events.h). */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "events.h"

#define FOLD_ENTRIES 256

struct fold {
  bool used;
  uint64_t window_start;
  uint32_t pending;           /* denials since the last event for this key */
  struct guard_denial last;   /* the latest of them: its path and time are reported */
};

static struct fold folds[FOLD_ENTRIES];
static uint64_t budget_second, dropped;
static uint32_t budget_used;

const char *events_op_name(uint32_t op)
{
  static const char *const names[] = {"r", "x", "d", "c", "n", "w", "t"};
  for (int i = 0; i < 7; i++)
    if (op == 1u << i)
      return names[i];
  return "w";
}

uint64_t events_dropped(void) { return dropped; }

char *events_line(const struct guard_denial *d, uint32_t repeats, uint64_t time_ms)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "event", "denied");
  cJSON_AddStringToObject(o, "op", events_op_name(d->op));
  cJSON_AddStringToObject(o, "rule", d->rule);
  cJSON_AddBoolToObject(o, "notify", d->notify);
  cJSON_AddNumberToObject(o, "pid", d->pid);
  cJSON_AddNumberToObject(o, "uid", d->uid);
  cJSON_AddStringToObject(o, "comm", d->comm);
  cJSON_AddStringToObject(o, "exe", d->exe);
  cJSON_AddStringToObject(o, "path", d->path);
  cJSON_AddNumberToObject(o, "repeats", repeats);
  cJSON_AddNumberToObject(o, "time", (double)time_ms);
  char *line = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return line;
}

static bool same_key(const struct guard_denial *a, const struct guard_denial *b)
{
  return a->pid == b->pid && a->op == b->op && strncmp(a->rule, b->rule, sizeof(a->rule)) == 0;
}

/* Takes one event from this second's budget. */
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

static void emit_line(const struct guard_denial *d, uint32_t repeats, uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  char *line = events_line(d, repeats, now_ms);
  if (line)
    emit(line, ctx);
  free(line);
}

void events_denial(const struct guard_denial *d, uint64_t now_ms, event_emit_fn emit, void *ctx)
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
    /* Table full: the oldest key makes room, its repeats are reported now or counted as lost. */
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
    free_slot->pending = 1; /* over the cap: goes out with the window's repeats */
}

int events_tick(uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  int64_t next = -1;
  for (int i = 0; i < FOLD_ENTRIES; i++) {
    struct fold *f = &folds[i];
    if (!f->used)
      continue;
    uint64_t end = f->window_start + EVENTS_WINDOW_MS;
    if (now_ms >= end) {
      if (!f->pending) {
        f->used = false; /* quiet for a whole window: forget the key */
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
