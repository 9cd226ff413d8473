// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in for src/fanotify.c until it lands (the Makefile builds fanotify.c when present):
 * the fanotify backend reports itself unavailable.
 */
#include <errno.h>
#include <stdio.h>
#include "backend.h"

static int stub_start(char *cause, size_t causelen)
{
  snprintf(cause, causelen, "fanotify_unavailable");
  return -ENOSYS;
}

static int stub_apply(const struct guard_plan *plan, char *err, size_t errlen)
{
  snprintf(err, errlen, "fanotify backend not built");
  return -ENOSYS;
}

static int stub_fd(void) { return -1; }
static int stub_drain(guard_report_fn report, void *ctx) { return 0; }
static bool stub_pinned(void) { return false; }
static void stub_stop(void) {}

const struct guard_backend guard_fanotify_backend = {
  .name = "fanotify",
  .ops = 0,
  .start = stub_start,
  .apply = stub_apply,
  .fd = stub_fd,
  .drain = stub_drain,
  .pinned = stub_pinned,
  .stop = stub_stop,
};
