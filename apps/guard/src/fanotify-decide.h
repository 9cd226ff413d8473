/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fanotify backend's decisions, kept pure so they are easy to read next to the contract:
 * which slot of a set decides an access (guardSlotSchema in packages/contracts/src/guard-helper.ts),
 * how an entry's name is matched, and whether a blocked open asked for write access.
 */
#ifndef RAMPART_GUARD_FANOTIFY_DECIDE_H
#define RAMPART_GUARD_FANOTIFY_DECIDE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "plan.h"

/* The first slot of set that matches the access, or NULL (no slot matches: allowed). */
const struct guard_slot *guard_first_slot(const struct guard_set *set, uint32_t op, uint64_t classes, bool is_dir,
                                          const char *name);
/* Whether any slot of set looks at names (then the caller needs the entry's name). */
bool guard_set_uses_names(const struct guard_set *set);
/* The union of the deny masks of set's slots: what marking the set's objects can catch. */
uint32_t guard_set_denies(const struct guard_set *set);
bool guard_name_matches(const struct guard_slot *slot, const char *name);
/* Control bytes, invalid UTF-8, a trailing dot or space, a script extension before another:
 * malformed-name.h, the rule the BPF program applies too. */
bool guard_name_malformed(const char *name);

enum open_intent { OPEN_READ, OPEN_WRITE, OPEN_UNKNOWN };
/*
 * What the open that thread tid is blocked in asked for, from /proc/<tid>/syscall (the thread waits
 * in its open syscall while a permission event is pending, so its number and arguments are there).
 * OPEN_UNKNOWN for io_uring workers, kernel threads and syscalls we do not know.
 */
enum open_intent guard_open_intent(pid_t tid);
/* The same from a /proc/<tid>/syscall line; flags_at_how reads an openat2 open_how's flags. */
enum open_intent guard_open_intent_of(const char *syscall_line, int (*flags_at_how)(pid_t, uint64_t, uint64_t *),
                                      pid_t tid);

#endif
