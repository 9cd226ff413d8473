/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guard backend: BPF LSM (lsm.c) or fanotify (fanotify.c). main.c picks one, hands it each plan,
 * polls its fd and forwards what it reports. A backend makes no policy: it enforces the plan's tables.
 */
#ifndef RAMPART_GUARD_BACKEND_H
#define RAMPART_GUARD_BACKEND_H

#include <stdint.h>
#include "plan.h"

/* One denial as a backend reports it; main.c folds repeats and writes the ndjson event. */
struct guard_denial {
  uint32_t op;          /* one GUARD_OP_* bit */
  char rule[32];
  bool notify;
  uint32_t pid, uid;
  char comm[16];
  char exe[256];        /* best effort */
  char path[4096];      /* best effort: object path + names walked */
};

typedef void (*guard_report_fn)(const struct guard_denial *denial, void *ctx);

struct guard_backend {
  const char *name;     /* "lsm" | "fanotify" */
  uint32_t ops;         /* GUARD_OP_* bits this backend can deny */
  /* Starts the backend; 0 on success, else -errno with a cause key in cause (e.g. "lsm_refused"). */
  int (*start)(char *cause, size_t causelen);
  /* Replaces the enforced tables with plan's, atomically from the point of view of a decision. */
  int (*apply)(const struct guard_plan *plan, char *err, size_t errlen);
  /* The fd main.c polls for reports (ring buffer or fanotify fd), or -1. */
  int (*fd)(void);
  /* Called when fd is readable: reports each denial through report. */
  int (*drain)(guard_report_fn report, void *ctx);
  /* Whether enforcement outlives the helper (pinned links). */
  bool (*pinned)(void);
  void (*stop)(void);
};

extern const struct guard_backend guard_lsm_backend;
extern const struct guard_backend guard_fanotify_backend;

#endif
