/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network denials to ndjson `net_denied` events, folded as file denials are (events.h): the first of a
 * (pid, proto, peer, port, rule) goes out at once, its repeats within the next second as one event
 * with `repeats`; all net events together are capped per second.
 */
#ifndef RAMPART_GUARD_NET_EVENTS_H
#define RAMPART_GUARD_NET_EVENTS_H

#include <stdint.h>
#include "events.h"

struct net_denial {
  uint32_t proto;      /* one GUARD_NET_* bit */
  uint8_t family;      /* 4 or 6 */
  uint8_t addr[16];    /* network order */
  uint16_t port;
  char rule[32];
  uint32_t pid, uid;
  char comm[16];
  char exe[256];
};

void net_events_denial(const struct net_denial *d, uint64_t now_ms, event_emit_fn emit, void *ctx);
/* Sends folded repeats whose window closed; returns ms until the next window closes, or -1. */
int net_events_tick(uint64_t now_ms, event_emit_fn emit, void *ctx);
/* The ndjson line (no newline) for one event; free() it. */
char *net_events_line(const struct net_denial *d, uint32_t repeats, uint64_t time_ms);
uint64_t net_events_dropped(void);

#endif
