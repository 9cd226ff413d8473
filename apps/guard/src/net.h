/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network denial per executable (net.bpf.c): cgroup connect4/6 and sendmsg4/6 programs attached to
 * one cgroup v2 (the root in production, a test cgroup in tests). Runs beside whichever file backend
 * runs (lsm or fanotify): it has its own object, maps, pins (net_*) and ring buffer.
 */
#ifndef RAMPART_GUARD_NET_H
#define RAMPART_GUARD_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "net-events.h"
#include "plan.h"

/* The first cgroup v2 mount in /proc/self/mounts into buf; -1 when there is none. */
int guard_net_cgroup_root(char *buf, size_t len);
/* Loads the programs for cgroup_path, pinning under pin_dir (when it is on bpffs); attaches at once only
 * when a previous helper's pins or tables show rules were enforced. 0, or -errno with a cause key. */
int guard_net_start(const char *cgroup_path, const char *pin_dir, char *cause, size_t causelen);
bool guard_net_running(void);
/* Whether the programs are attached (they attach once a plan restricts an executable). */
bool guard_net_attached(void);
bool guard_net_pinned(void);
/* Replaces the rules with plan's net part (none when absent), flipping banks so no decision sees a mix. */
int guard_net_apply(const struct guard_plan *plan, char *err, size_t errlen);
/* The ring buffer's fd for poll, or -1. */
int guard_net_fd(void);
/* Reports each denial record waiting in the ring buffer (folded, see net-events.h). */
void guard_net_drain(uint64_t now_ms, event_emit_fn emit, void *ctx);
void guard_net_stop(void);

#endif
