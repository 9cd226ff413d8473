// SPDX-License-Identifier: GPL-2.0
/*
 * Rampart guard, BPF LSM backend. Every decision is a table lookup over maps the helper fills from
 * the agent's plan (packages/contracts/src/guard-helper.ts); no policy lives here.
 *
 * A decision: (0) allow at once an operation no slot of the plan can deny (the config's deny
 * masks); (1) skip kernel threads, operations no slot can deny this process's classes (its
 * executable's deny mask) and trusted tgids; (2) walk from the entry up its d_parent chain (at most
 * GUARD_MAX_DEPTH levels) to the nearest protected object (dev, ino), a walk cached per directory
 * (dir_cache); (3) try the object's set's slots in order, the first slot that matches decides (deny
 * or allow); no slot matching, or no object: allowed. A denial returns -EPERM and pushes a record
 * to the ring buffer.
 *
 * Written for the 6.1 verifier: the walk, the slots and the byte scans are bpf_loop callbacks (each
 * verified once), everything else is straight-line code; kernel memory is read with CO-RE reads.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "guard.bpf.h"
#include "malformed-name.h"

char LICENSE[] SEC("license") = "GPL";

/* Operation bits: as plan.h and guard-helper.ts define them. */
#define OP_R 1u
#define OP_X 2u
#define OP_D 4u
#define OP_C 8u
#define OP_N 16u
#define OP_W 32u
#define OP_T 64u

#define NAME_ANY 0
#define NAME_EXACT 1
#define NAME_PREFIX 2
#define NAME_SUFFIX 3
#define NAME_CONTAINS 4
#define NAME_PREFIX_SUFFIX 5
#define TARGET_FILE 1
#define TARGET_DIR 2

#define EPERM 1
#define FMODE_READ 0x1
#define FMODE_WRITE 0x2
#define FMODE_CREATED 0x100000
#define O_TRUNC 01000
#define S_IFMT 00170000
#define S_IFDIR 0040000
#define ATTR_MODE (1 << 0)
#define ATTR_UID (1 << 1)
#define ATTR_GID (1 << 2)
#define ATTR_SIZE (1 << 3)
#define ATTR_ATIME (1 << 4)
#define ATTR_MTIME (1 << 5)

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, GUARD_MAP_OBJECTS);
  __type(key, struct guard_inode_key);
  __type(value, struct guard_object_val);
} objects SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, GUARD_MAP_SLOTS);
  __type(key, struct guard_slot_key);
  __type(value, struct guard_slot_val);
} slots SEC(".maps");

/* Executable (dev, ino) → class bitmask and the operations the plan can deny it. */
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, GUARD_MAP_EXES);
  __type(key, struct guard_inode_key);
  __type(value, struct guard_exe_val);
} exes SEC(".maps");

/* Thread-group ids never denied (lock-out proof: the agent and the helper). */
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, GUARD_MAP_TRUSTED);
  __type(key, __u32);
  __type(value, __u8);
} trusted SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct guard_config);
} guard_cfg SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 256 * 1024);
} denials SEC(".maps");

/*
 * The entry's name and the pattern being searched, per task: a per-CPU buffer could be overwritten
 * if the task were preempted inside the program; task storage cannot.
 */
struct scratch {
  char name[256];
  char pat[GUARD_NAME_MAX];
  __u32 len;
  __u32 patlen;
  struct guard_name_scan scan; /* see name_malformed */
};

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct scratch);
} scratch SEC(".maps");

static __always_inline struct scratch *my_scratch(void)
{
  return bpf_task_storage_get(&scratch, bpf_get_current_task_btf(), 0, 0);
}

static __always_inline struct guard_inode_key inode_key(struct inode *inode)
{
  struct guard_inode_key k = {};
  k.dev = BPF_CORE_READ(inode, i_sb, s_dev);
  k.ino = BPF_CORE_READ(inode, i_ino);
  return k;
}

/*
 * d: a typed (BTF) pointer. Hot paths read typed pointers directly (one load each, faults read as
 * 0) rather than with BPF_CORE_READ (a helper call each); the walk's untyped numbers cannot.
 */
static __always_inline __u32 dentry_is_dir(struct dentry *d)
{
  struct inode *inode = d->d_inode;
  if (!inode)
    return 0;
  return (inode->i_mode & S_IFMT) == S_IFDIR;
}

/* ---- the walk up to the nearest protected object ------------------------------------------ */

struct walk_ctx {
  __u64 d;       /* the dentry at this level, as a plain number (read with CO-RE reads) */
  __u64 dev, ino;
  __u32 set, depth, found, at_root; /* at_root: stopped at a dentry that is its own parent */
};

static long walk_cb(__u32 i, struct walk_ctx *w)
{
  struct dentry *d = (struct dentry *)w->d;
  struct inode *inode = BPF_CORE_READ(d, d_inode);
  if (inode) {
    struct guard_inode_key k = inode_key(inode);
    struct guard_object_val *o = bpf_map_lookup_elem(&objects, &k);
    if (o) {
      w->found = 1;
      w->set = o->set;
      w->dev = k.dev;
      w->ino = k.ino;
      w->depth = i + 1; /* levels start at the entry's parent (see find_object) */
      return 1;
    }
  }
  struct dentry *p = BPF_CORE_READ(d, d_parent);
  if (!p || (__u64)p == w->d) {
    w->at_root = p != 0;
    return 1; /* the root of this filesystem (or of a disconnected tree) */
  }
  w->d = (__u64)p;
  return 0;
}

/*
 * The walk's result per directory, in the directory inode's BPF storage: what the walk from that
 * directory up found (the object and how many levels above the directory it is, or none), so the
 * next entry created, opened or changed in the same directory costs one lookup instead of a walk.
 *
 * When it is stale, and why it is never used then:
 * - A new plan changes the objects: an entry is valid only for the config's apply_seq it was made
 *   at (read before the walk, so a walk that raced an apply is stored under the older number).
 * - A directory moving changes the ancestors of everything below it, and any cached directory may
 *   be below it: every rename of a directory bumps a global count (dir_renames) AFTER the move
 *   (fexit of vfs_rename, guard_rename_done), and an entry is valid only for the count read before
 *   its walk. A walk that ran while a rename was under way read the count before the bump, so its
 *   entry dies with the bump; one that reads the bumped count walks the moved tree. Bumping on the
 *   LSM hook instead would be too early: a walk between the hook and the move would be cached as
 *   valid. Directory renames are rare next to opens and creates, so a global count costs little,
 *   and file renames (editors, atomic rewrites, git's lock files) do not bump it.
 * - Directories can change parents without vfs_rename on network and pseudo filesystems (a remote
 *   rename seen at lookup, kernfs) and when a disconnected dentry (from a file handle, nfsd) is
 *   attached to its parent. So only local disk filesystems and tmpfs are cached (cacheable_fs),
 *   and a walk that ended at a root other than the filesystem's own root is not stored.
 * - When the rename hook cannot be attached (config dircache 0) or the kernel refuses this code
 *   (lsm.c then loads with use_dircache 0, which the verifier prunes), every decision walks.
 * An inode's storage is freed with the inode, so a reused inode number starts without one.
 */
struct dir_cache {
  struct bpf_spin_lock lock; /* two CPUs may fill the same directory's entry at once */
  __u32 found, set, dist;    /* dist: levels from this directory up to the object (0: itself) */
  __u64 seq, renames, dev, ino;
};

struct {
  __uint(type, BPF_MAP_TYPE_INODE_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct dir_cache);
} dircache SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u64);
} dir_renames SEC(".maps");

const volatile __u32 use_dircache = 1; /* lsm.c loads with 0 if the kernel refuses the cache */

#define MAGIC_EXT4 0xEF53        /* ext2, ext3, ext4 */
#define MAGIC_XFS 0x58465342
#define MAGIC_BTRFS 0x9123683E
#define MAGIC_TMPFS 0x01021994
#define MAGIC_F2FS 0xF2F52010

static __always_inline int cacheable_fs(struct inode *dir)
{
  unsigned long magic = dir->i_sb->s_magic;
  return magic == MAGIC_EXT4 || magic == MAGIC_XFS || magic == MAGIC_BTRFS || magic == MAGIC_TMPFS ||
         magic == MAGIC_F2FS;
}

static __always_inline __u64 dir_renames_now(void)
{
  __u32 zero = 0;
  __u64 *n = bpf_map_lookup_elem(&dir_renames, &zero);
  return n ? *n : 0;
}

/*
 * skip_self: a create checks the directory it creates in, never the (negative) new entry.
 * seq: the config's apply_seq when the cache may be used, else 0.
 */
static __always_inline int find_object(struct dentry *entry, __u32 skip_self, __u64 seq, struct walk_ctx *w)
{
  if (!skip_self) {
    struct inode *inode = entry->d_inode;
    if (inode) {
      struct guard_inode_key k = { .dev = inode->i_sb->s_dev, .ino = inode->i_ino };
      struct guard_object_val *o = bpf_map_lookup_elem(&objects, &k);
      if (o) {
        w->found = 1;
        w->set = o->set;
        w->dev = k.dev;
        w->ino = k.ino;
        w->depth = 0;
        return 1;
      }
    }
  }
  struct dentry *p = entry->d_parent; /* typed (BTF) pointers: the inode's storage needs one */
  if (!p || p == entry)
    return 0;

  struct dir_cache *dc = 0;
  __u64 renames = 0;
  struct inode *dir = p->d_inode;
  if (use_dircache && seq && dir && cacheable_fs(dir)) {
    renames = dir_renames_now();
    dc = bpf_inode_storage_get(&dircache, dir, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (dc) {
      __u32 hit = 0;
      bpf_spin_lock(&dc->lock);
      if (dc->seq == seq && dc->renames == renames) {
        hit = 1;
        w->found = dc->found;
        w->set = dc->set;
        w->depth = dc->dist + 1;
        w->dev = dc->dev;
        w->ino = dc->ino;
      }
      bpf_spin_unlock(&dc->lock);
      if (hit)
        return w->found;
    }
  }

  /* A number, not a typed pointer: the callback's state stays the same each turn. */
  w->d = (__u64)BPF_CORE_READ(entry, d_parent);
  bpf_loop(GUARD_MAX_DEPTH, walk_cb, w, 0);

  /* Not stored: a walk that stopped at the root of a disconnected tree (see dir_cache). */
  struct dentry *last = (struct dentry *)w->d;
  if (dc && (w->found || !w->at_root || (__u64)BPF_CORE_READ(last, d_sb, s_root) == w->d)) {
    bpf_spin_lock(&dc->lock);
    dc->seq = seq;
    dc->renames = renames;
    dc->found = w->found;
    dc->set = w->set;
    dc->dist = w->depth ? w->depth - 1 : 0;
    dc->dev = w->dev;
    dc->ino = w->ino;
    bpf_spin_unlock(&dc->lock);
  }
  return w->found;
}

/* ---- names ---------------------------------------------------------------------------------- */

/* name[off .. off+n) == str[0 .. n); n < GUARD_NAME_MAX. Indexes are masked for the verifier. */
static __always_inline int eq_at(const char *name, __u32 off, const char *str, __u32 n)
{
  for (int i = 0; i < GUARD_NAME_MAX - 1; i++) {
    if (i >= n)
      return 1;
    if (name[(off + i) & 255] != str[i])
      return 0;
  }
  return 1;
}

struct contains_ctx {
  __u32 found;
};

static long contains_cb(__u32 i, struct contains_ctx *c)
{
  struct scratch *sc = my_scratch();
  if (!sc)
    return 1;
  if (eq_at(sc->name, i, sc->pat, sc->patlen)) {
    c->found = 1;
    return 1;
  }
  return 0;
}

/* One byte of the malformed scan (malformed-name.h, shared with the fanotify backend). */
static long malformed_cb(__u32 i, void *unused)
{
  struct scratch *sc = my_scratch();
  if (!sc)
    return 1;
  return guard_name_scan_byte(&sc->scan, (const unsigned char *)sc->name, sc->len, i);
}

/*
 * The scan's state lives in task storage, not in a context on the stack: the 6.1 verifier checks a
 * bpf_loop callback for its first call only, so it would take a stack context's zeroed fields
 * (no continuation byte due) as constants and drop the branches that read a later byte as a
 * continuation, refusing every non-ASCII name (café). A map value's contents are never constants.
 */
static __always_inline int name_malformed(struct scratch *sc)
{
  __u32 len = sc->len;
  if (len == 0 || len > 255)
    return 0;
  if (guard_name_ends_badly((const unsigned char *)sc->name, len))
    return 1;
  __builtin_memset(&sc->scan, 0, sizeof(sc->scan));
  bpf_loop(len, malformed_cb, NULL, 0);
  return guard_name_scan_result(&sc->scan);
}

static __always_inline int name_fits(struct scratch *sc, struct guard_slot_val *s)
{
  __u32 len = sc->len, alen = s->alen, blen = s->blen;
  if (alen >= GUARD_NAME_MAX || blen >= GUARD_NAME_MAX || len > 255)
    return 0;
  switch (s->name_kind) {
  case NAME_EXACT:
    return len == alen && eq_at(sc->name, 0, s->a, alen);
  case NAME_PREFIX:
    return len >= alen && eq_at(sc->name, 0, s->a, alen);
  case NAME_SUFFIX:
    return len >= alen && eq_at(sc->name, len - alen, s->a, alen);
  case NAME_PREFIX_SUFFIX:
    return len >= alen + blen && eq_at(sc->name, 0, s->a, alen) && eq_at(sc->name, len - blen, s->b, blen);
  case NAME_CONTAINS: {
    if (len < alen)
      return 0;
    bpf_probe_read_kernel(sc->pat, sizeof(sc->pat), s->a);
    sc->patlen = alen;
    struct contains_ctx c = {};
    bpf_loop(len - alen + 1, contains_cb, &c, 0);
    return c.found;
  }
  default:
    return 1;
  }
}

/* ---- slots ---------------------------------------------------------------------------------- */

struct eval_ctx {
  __u64 classes;
  __u64 entry;   /* the entry's dentry, as a number (see walk_ctx) */
  __u32 set, op, is_dir, hit, deny, named;
};

/*
 * The entry's name in task storage, copied on the first slot that needs it (most sets have no
 * naming slot, and most decisions end before one): a copy of up to 255 bytes per hook saved.
 */
static __always_inline struct scratch *entry_name(struct eval_ctx *c)
{
  struct scratch *sc =
    bpf_task_storage_get(&scratch, bpf_get_current_task_btf(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (!sc || c->named)
    return sc;
  struct dentry *entry = (struct dentry *)c->entry;
  __u32 len = BPF_CORE_READ(entry, d_name.len);
  if (len > 255)
    len = 255;
  sc->len = len;
  bpf_probe_read_kernel(sc->name, len & 255, BPF_CORE_READ(entry, d_name.name));
  c->named = 1;
  return sc;
}

static long slot_cb(__u32 i, struct eval_ctx *c)
{
  struct guard_slot_key k = { .set = c->set, .index = i };
  struct guard_slot_val *s = bpf_map_lookup_elem(&slots, &k);
  if (!s)
    return 1; /* past the set's last slot */
  if (!(s->covers & c->op))
    return 0;
  if (s->proc >= 0 && !((c->classes >> (s->proc & 63)) & 1))
    return 0;
  if (s->exempt >= 0 && ((c->classes >> (s->exempt & 63)) & 1))
    return 0;
  if ((s->target == TARGET_FILE && c->is_dir) || (s->target == TARGET_DIR && !c->is_dir))
    return 0;
  if (s->malformed || s->name_kind != NAME_ANY) {
    struct scratch *sc = entry_name(c);
    if (!sc)
      return 0;
    if (s->malformed ? !name_malformed(sc) : !name_fits(sc, s))
      return 0;
  }
  c->hit = i + 1;
  c->deny = s->deny & c->op;
  return 1;
}

/* ---- the decision --------------------------------------------------------------------------- */

static __always_inline void report(struct eval_ctx *c, struct walk_ctx *w, struct dentry *entry,
                                   struct guard_inode_key *exe)
{
  struct guard_record *r = bpf_ringbuf_reserve(&denials, sizeof(*r), 0);
  if (!r)
    return; /* full: the denial stands, only its report is lost */
  __u64 pid_tgid = bpf_get_current_pid_tgid();
  r->op = c->op;
  r->pid = (__u32)pid_tgid;
  r->tgid = pid_tgid >> 32;
  r->uid = (__u32)bpf_get_current_uid_gid();
  r->exe_dev = exe->dev;
  r->exe_ino = exe->ino;
  r->obj_dev = w->dev;
  r->obj_ino = w->ino;
  r->depth = w->depth;
  r->notify = 0;
  r->rule[0] = 0;
  bpf_get_current_comm(r->comm, sizeof(r->comm));
  struct guard_slot_key k = { .set = c->set, .index = c->hit - 1 };
  struct guard_slot_val *s = bpf_map_lookup_elem(&slots, &k);
  if (s) {
    r->notify = s->notify;
    __builtin_memcpy(r->rule, s->rule, sizeof(r->rule));
  }
  /* The names from the entry up to (not including) the object, for the helper to build a path. */
  struct dentry *d = entry;
#pragma unroll
  for (int i = 0; i < GUARD_WALK_NAMES; i++) {
    r->names[i][0] = 0;
    if (i < w->depth && d) {
      bpf_probe_read_kernel_str(r->names[i], GUARD_NAME_MAX, BPF_CORE_READ(d, d_name.name));
      d = BPF_CORE_READ(d, d_parent);
    }
  }
  bpf_ringbuf_submit(r, 0);
}

/*
 * Judges op on entry. is_dir: the entry's kind (the new entry's for a create). skip_self: look for
 * objects from the parent up (the entry is new or is replaced). Returns 0 or -EPERM.
 */
static __always_inline int check(struct dentry *entry, __u32 op, __u32 is_dir, __u32 skip_self)
{
  __u32 zero = 0;
  struct guard_config *cfg = bpf_map_lookup_elem(&guard_cfg, &zero);
  /* No slot of the plan denies op to anyone: allowed, whatever the walk would find. */
  if (!cfg || !cfg->enforce || !cfg->nobjects || !(cfg->deny_ops & op))
    return 0;
  __u32 classless_ops = cfg->deny_ops_classless;
  __u64 seq = cfg->dircache ? cfg->apply_seq : 0;

  struct task_struct *task = bpf_get_current_task_btf();
  struct mm_struct *mm = task->mm;
  if (!mm)
    return 0; /* kernel threads are never denied */

  struct guard_inode_key exe = {};
  struct file *exe_file = mm->exe_file;
  if (exe_file) {
    struct inode *exe_inode = exe_file->f_inode;
    exe.dev = exe_inode->i_sb->s_dev;
    exe.ino = exe_inode->i_ino;
  }
  struct eval_ctx c = { .op = op, .is_dir = is_dir, .entry = (__u64)entry };
  /*
   * The operations any slot of the plan can deny this process: for a process without classes,
   * those of the slots with proc == -1. Outside them no object's set can deny it, so the walk is
   * not needed (most processes and hooks; an executable exempt from every rule that covers op).
   */
  __u32 deniable = classless_ops;
  struct guard_exe_val *ev = bpf_map_lookup_elem(&exes, &exe);
  if (ev) {
    c.classes = ev->classes;
    deniable = ev->deny_ops;
  }
  if (!(deniable & op))
    return 0;
  __u32 tgid = bpf_get_current_pid_tgid() >> 32;
  if (bpf_map_lookup_elem(&trusted, &tgid))
    return 0;

  struct walk_ctx w = {};
  if (!find_object(entry, skip_self, seq, &w))
    return 0;
  c.set = w.set;

  bpf_loop(GUARD_MAX_SLOTS, slot_cb, &c, 0);
  if (!c.hit || !c.deny)
    return 0;
  report(&c, &w, entry, &exe);
  return -EPERM;
}

/* ---- hooks ---------------------------------------------------------------------------------- */

SEC("lsm/file_open")
int BPF_PROG(guard_file_open, struct file *file, int ret)
{
  if (ret)
    return ret;
  struct dentry *d = file->f_path.dentry;
  __u32 mode = file->f_mode, flags = file->f_flags;
  __u32 is_dir = dentry_is_dir(d);
  /*
   * An open that created the file (creat, O_CREAT of a new name) was judged as a create (c) by
   * inode_create; its write-open of the empty new file is part of that, not a modification (w), so
   * a "no modify" rule does not also forbid creating files.
   */
  if (mode & FMODE_CREATED)
    return 0;
  /* O_TRUNC is still in f_flags here (do_dentry_open clears it after this hook). */
  if ((mode & FMODE_WRITE) || (flags & O_TRUNC)) {
    if (check(d, OP_W, is_dir, 0))
      return -EPERM;
  }
  if (mode & FMODE_READ)
    return check(d, OP_R, is_dir, 0);
  return 0;
}

SEC("lsm/inode_create")
int BPF_PROG(guard_inode_create, struct inode *dir, struct dentry *dentry, umode_t mode, int ret)
{
  if (ret)
    return ret;
  return check(dentry, OP_C, 0, 1);
}

SEC("lsm/inode_mkdir")
int BPF_PROG(guard_inode_mkdir, struct inode *dir, struct dentry *dentry, umode_t mode, int ret)
{
  if (ret)
    return ret;
  return check(dentry, OP_C, 1, 1);
}

/* A hard link or a symlink is a new entry too. */
SEC("lsm/inode_link")
int BPF_PROG(guard_inode_link, struct dentry *old_dentry, struct inode *dir, struct dentry *new_dentry, int ret)
{
  if (ret)
    return ret;
  return check(new_dentry, OP_C, 0, 1);
}

SEC("lsm/inode_symlink")
int BPF_PROG(guard_inode_symlink, struct inode *dir, struct dentry *dentry, const char *old_name, int ret)
{
  if (ret)
    return ret;
  return check(dentry, OP_C, 0, 1);
}

SEC("lsm/inode_unlink")
int BPF_PROG(guard_inode_unlink, struct inode *dir, struct dentry *dentry, int ret)
{
  if (ret)
    return ret;
  return check(dentry, OP_D, 0, 0);
}

SEC("lsm/inode_rmdir")
int BPF_PROG(guard_inode_rmdir, struct inode *dir, struct dentry *dentry, int ret)
{
  if (ret)
    return ret;
  return check(dentry, OP_D, 1, 0);
}

/*
 * Rename: n on the old entry; c for the new name in the new directory; and when an existing entry
 * is replaced, w and d on it (rename-over is how /etc/passwd is usually rewritten).
 */
SEC("lsm/inode_rename")
int BPF_PROG(guard_inode_rename, struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
             struct dentry *new_dentry, int ret)
{
  if (ret)
    return ret;
  __u32 is_dir = dentry_is_dir(old_dentry);
  if (check(old_dentry, OP_N, is_dir, 0))
    return -EPERM;
  if (check(new_dentry, OP_C, is_dir, 1))
    return -EPERM;
  if (new_dentry->d_inode) {
    __u32 target_dir = dentry_is_dir(new_dentry);
    if (check(new_dentry, OP_D, target_dir, 0))
      return -EPERM;
    return check(new_dentry, OP_W, target_dir, 0);
  }
  return 0;
}

/* setattr: t for times; w for mode, owner and size. */
static __always_inline int setattr(struct dentry *dentry, struct iattr *attr)
{
  __u32 valid = attr->ia_valid;
  __u32 is_dir = dentry_is_dir(dentry);
  if ((valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_SIZE)) && check(dentry, OP_W, is_dir, 0))
    return -EPERM;
  if (valid & (ATTR_ATIME | ATTR_MTIME))
    return check(dentry, OP_T, is_dir, 0);
  return 0;
}

/* The hook's arguments: (dentry, iattr) up to 6.7, (idmap, dentry, iattr) after; lsm.c loads one. */
SEC("lsm/inode_setattr")
int BPF_PROG(guard_setattr_v1, struct dentry *dentry, struct iattr *attr, int ret)
{
  if (ret)
    return ret;
  return setattr(dentry, attr);
}

SEC("lsm/inode_setattr")
int BPF_PROG(guard_setattr_v2, void *idmap, struct dentry *dentry, struct iattr *attr, int ret)
{
  if (ret)
    return ret;
  return setattr(dentry, attr);
}

SEC("lsm/bprm_check_security")
int BPF_PROG(guard_bprm_check, struct linux_binprm *bprm, int ret)
{
  if (ret)
    return ret;
  /* current->mm is still the caller's here: the caller is judged, the file is the entry. */
  struct dentry *d = bprm->file->f_path.dentry;
  return check(d, OP_X, 0, 0);
}

/*
 * After every rename (even a failed one: cheap, and nothing to reason about) that involved a
 * directory on either side: directory caches made before it may name the wrong object (dir_cache).
 */
SEC("fexit/vfs_rename")
int BPF_PROG(guard_rename_done, struct renamedata *rd, int ret)
{
  struct dentry *old = rd->old_dentry, *new = rd->new_dentry;
  if (!dentry_is_dir(old) && !dentry_is_dir(new))
    return 0;
  __u32 zero = 0;
  __u64 *n = bpf_map_lookup_elem(&dir_renames, &zero);
  if (n)
    __sync_fetch_and_add(n, 1);
  return 0;
}
