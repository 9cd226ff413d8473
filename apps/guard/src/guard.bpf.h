/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layouts the BPF program and the helper share: map keys and values and the ring buffer record.
 * Included by guard.bpf.c (after vmlinux.h) and by lsm.c (after <linux/types.h>).
 */
#ifndef RAMPART_GUARD_BPF_H
#define RAMPART_GUARD_BPF_H

#define GUARD_MAX_SLOTS 16
#define GUARD_MAX_DEPTH 24
#define GUARD_NAME_MAX 64
#define GUARD_WALK_NAMES 8   /* names of the walked entries the record carries, nearest first */
#define GUARD_SET_BANK (1u << 31) /* set ids live in two banks so an apply can flip (lsm.c) */

/* Map sizes: the plan's limits (guard-helper.ts) where memory allows. */
#define GUARD_MAP_OBJECTS 200000
#define GUARD_MAP_SLOTS 16384   /* both banks together */
#define GUARD_MAP_EXES 100000
#define GUARD_MAP_TRUSTED 128

/* An inode: s_dev in the kernel's encoding ((major << 20) | minor) and i_ino. */
struct guard_inode_key {
  __u64 dev;
  __u64 ino;
};

struct guard_object_val {
  __u32 set;  /* set id | bank bit */
  __u32 dir;
};

/*
 * An executable's classes, and the operations some slot of the plan can deny it (lsm.c,
 * reach_ops): check() allows any other operation before walking.
 */
struct guard_exe_val {
  __u64 classes;
  __u32 deny_ops;
  __u32 pad;
};

struct guard_slot_key {
  __u32 set;  /* set id | bank bit */
  __u32 index;
};

struct guard_slot_val {
  __u32 covers, deny;
  __s32 proc, exempt;
  __u8 target, name_kind, malformed, notify;
  __u8 alen, blen, pad[2];
  char a[GUARD_NAME_MAX], b[GUARD_NAME_MAX];
  char rule[32];       /* copied into denial records: the helper needs no table to name the rule */
};

struct guard_config {
  __u32 enforce;
  __u32 bank;          /* the bank the live objects point at */
  __u64 generation;
  __u32 nobjects;      /* 0: nothing protected, skip the walk */
  /*
   * Fast paths (lsm.c computes them from the plan's slots): an operation outside deny_ops can be
   * denied to no process, one outside deny_ops_classless to no process without a class (only slots
   * with proc == -1 can match those). Either way check() allows it before the walk. Masks only ever
   * name more operations than the plan can deny, never fewer (lsm_apply widens them first).
   */
  __u32 deny_ops;
  __u32 deny_ops_classless;
  __u64 apply_seq;     /* bumped by every apply (never 0 once applied): older directory caches are stale */
  __u32 dircache;      /* 1: directory renames are tracked (guard_rename_done attached), caches usable */
  __u32 pad;
};

struct guard_record {
  __u32 op;
  __u32 pid, tgid, uid;
  __u64 exe_dev, exe_ino;
  __u64 obj_dev, obj_ino;
  __u32 depth;         /* levels from the entry up to the object (0: the entry is the object) */
  __u32 notify;
  char comm[16];
  char rule[32];
  char names[GUARD_WALK_NAMES][GUARD_NAME_MAX];
};

#endif
