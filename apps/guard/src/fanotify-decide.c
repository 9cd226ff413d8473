/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fanotify-decide.h"
#include "malformed-name.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

const struct guard_slot *guard_first_slot(const struct guard_set *set, uint32_t op, uint64_t classes, bool is_dir,
                                          const char *name)
{
  for (uint32_t i = 0; i < set->nslots && i < GUARD_MAX_SLOTS; i++) {
    const struct guard_slot *slot = &set->slots[i];
    if (!(slot->covers & op)) continue;
    if (slot->proc >= 0 && !((classes >> slot->proc) & 1)) continue;
    if (slot->exempt >= 0 && ((classes >> slot->exempt) & 1)) continue;
    if (slot->target == TARGET_FILE && is_dir) continue;
    if (slot->target == TARGET_DIR && !is_dir) continue;
    /* A malformed slot looks at malformation only, as guard.bpf.c does. */
    if (slot->malformed ? !guard_name_malformed(name) : !guard_name_matches(slot, name)) continue;
    return slot;
  }
  return NULL;
}

bool guard_set_uses_names(const struct guard_set *set)
{
  for (uint32_t i = 0; i < set->nslots && i < GUARD_MAX_SLOTS; i++)
    if (set->slots[i].name_kind != NAME_ANY || set->slots[i].malformed) return true;
  return false;
}

uint32_t guard_set_denies(const struct guard_set *set)
{
  uint32_t deny = 0;
  for (uint32_t i = 0; i < set->nslots && i < GUARD_MAX_SLOTS; i++) deny |= set->slots[i].deny & set->slots[i].covers;
  return deny;
}

static bool starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool ends_with(const char *s, const char *p)
{
  size_t ls = strlen(s), lp = strlen(p);
  return ls >= lp && memcmp(s + ls - lp, p, lp) == 0;
}

bool guard_name_matches(const struct guard_slot *slot, const char *name)
{
  if (!name) name = "";
  switch (slot->name_kind) {
  case NAME_ANY: return true;
  case NAME_EXACT: return strcmp(name, slot->name_a) == 0;
  case NAME_PREFIX: return starts_with(name, slot->name_a);
  case NAME_SUFFIX: return ends_with(name, slot->name_a);
  case NAME_CONTAINS: return strstr(name, slot->name_a) != NULL;
  case NAME_PREFIX_SUFFIX:
    return strlen(name) >= strlen(slot->name_a) + strlen(slot->name_b) && starts_with(name, slot->name_a) &&
           ends_with(name, slot->name_b);
  }
  return false;
}

bool guard_name_malformed(const char *name)
{
  size_t len = name ? strlen(name) : 0;
  if (len == 0 || len >= GUARD_NAME_BYTES) return false; /* no name; longer than a name can be */
  /* The shared scan reads a whole GUARD_NAME_BYTES buffer, as the BPF program's is. */
  unsigned char buf[GUARD_NAME_BYTES] = { 0 };
  memcpy(buf, name, len);
  if (guard_name_ends_badly(buf, (unsigned int)len)) return true;
  struct guard_name_scan scan = { 0 };
  for (unsigned int i = 0; i < len; i++)
    if (guard_name_scan_byte(&scan, buf, (unsigned int)len, i)) return true;
  return guard_name_scan_result(&scan);
}

static int flags_from_open_how(pid_t tid, uint64_t addr, uint64_t *flags)
{
  /* struct open_how starts with its u64 flags. */
  struct iovec local = { flags, sizeof *flags }, remote = { (void *)(uintptr_t)addr, sizeof *flags };
  return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof *flags ? 0 : -1;
}

static enum open_intent intent_of_flags(uint64_t flags)
{
  return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) ? OPEN_WRITE : OPEN_READ;
}

enum open_intent guard_open_intent_of(const char *line, int (*flags_at_how)(pid_t, uint64_t, uint64_t *), pid_t tid)
{
  long nr;
  unsigned long long a[6];
  if (sscanf(line, "%ld %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]) < 4)
    return OPEN_UNKNOWN; /* "running" or "-1 sp pc": not in a syscall */
  switch (nr) {
#ifdef SYS_open
  case SYS_open: return intent_of_flags(a[1]);
#endif
#ifdef SYS_creat
  case SYS_creat: return OPEN_WRITE;
#endif
  case SYS_openat: return intent_of_flags(a[2]);
  case SYS_open_by_handle_at: return intent_of_flags(a[2]);
  case SYS_openat2: {
    uint64_t flags;
    return flags_at_how && flags_at_how(tid, a[2], &flags) == 0 ? intent_of_flags(flags) : OPEN_UNKNOWN;
  }
  /* execve opens the program (and its interpreter) for reading; the x decision is its own event. */
  case SYS_execve:
  case SYS_execveat: return OPEN_READ;
  default: return OPEN_UNKNOWN;
  }
}

enum open_intent guard_open_intent(pid_t tid)
{
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%d/syscall", (int)tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OPEN_UNKNOWN;
  ssize_t n = read(fd, line, sizeof line - 1);
  close(fd);
  if (n <= 0) return OPEN_UNKNOWN;
  line[n] = '\0';
  return guard_open_intent_of(line, flags_from_open_how, tid);
}
