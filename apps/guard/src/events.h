/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Denials to ndjson events, folded: the first denial of a (pid, op, rule) goes out at once, the
 * repeats within the next second go out as one event with `repeats`; all events together are capped
 * per second, so a looping process cannot flood the agent.
 */
#ifndef RAMPART_GUARD_EVENTS_H
#define RAMPART_GUARD_EVENTS_H

#include <stdint.h>
#include "backend.h"

#define EVENTS_WINDOW_MS 1000
#define EVENTS_MAX_PER_SECOND 200

typedef void (*event_emit_fn)(const char *line, void *ctx);

/* One denial at now_ms (epoch milliseconds). */
void events_denial(const struct guard_denial *d, uint64_t now_ms, event_emit_fn emit, void *ctx);
/* Sends the folded repeats whose window closed; returns ms until the next window closes, or -1. */
int events_tick(uint64_t now_ms, event_emit_fn emit, void *ctx);
/* The ndjson line (no newline) for one event; free() it. */
char *events_line(const struct guard_denial *d, uint32_t repeats, uint64_t time_ms);
/* The op letter of one GUARD_OP_* bit. */
const char *events_op_name(uint32_t op);
/* Denials lost because the table was full (counted, never silently). */
uint64_t events_dropped(void);

#endif
