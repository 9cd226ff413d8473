// SPDX-License-Identifier: GPL-2.0
/*
 * Backend A: BPF LSM. Loads guard.bpf.c (CO-RE), pins its maps and links under the pin dir so
 * enforcement outlives the helper, fills the maps from each plan and turns ring buffer records
 * into denials.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "backend.h"
#include "guard.bpf.h"
#include "guard.skel.h"
#include "lsm.h"

static struct guard_bpf *skel;
static struct ring_buffer *rb;
static char pin_dir[PATH_MAX / 2] = "/sys/fs/bpf/rampart";
static bool pinning, links_pinned;
static struct guard_config live; /* what the config map says now */
static bool renames_tracked;      /* guard_rename_done attached (and pinned when pinning) */

/* Paths of the last plan's objects and executables, for events; sorted by (dev, ino). */
struct named_inode {
  struct guard_inode_key key;
  char *path;
};
static struct named_inode *object_paths, *exe_paths;
static size_t nobject_paths, nexe_paths;

static guard_report_fn drain_report;
static void *drain_ctx;

void guard_lsm_set_pin_dir(const char *dir) { snprintf(pin_dir, sizeof(pin_dir), "%s", dir); }
uint64_t guard_lsm_generation(void) { return live.generation; }
uint64_t guard_kernel_dev(uint64_t st_dev) { return ((uint64_t)major(st_dev) << 20) | minor(st_dev); }

static int cmp_inode(const void *a, const void *b)
{
  const struct guard_inode_key *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* "bpf" among the active LSMs; unknown (securityfs not mounted) counts as yes: loading will tell. */
static bool bpf_lsm_listed(void)
{
  char buf[512] = "";
  FILE *f = fopen("/sys/kernel/security/lsm", "r");
  if (!f)
    return true;
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = 0;
  for (char *tok = strtok(buf, ",\n"); tok; tok = strtok(NULL, ",\n"))
    if (strcmp(tok, "bpf") == 0)
      return true;
  return false;
}

/*
 * The number of arguments of a kernel function, from the kernel's BTF; -1 when it has none. The
 * inode_setattr hook gained an idmap argument in 6.8: lsm.c loads the variant the kernel has.
 */
static int kernel_func_args(const char *name)
{
  struct btf *btf = btf__load_vmlinux_btf();
  if (!btf)
    return -1;
  int n = -1;
  __s32 id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
  if (id > 0) {
    const struct btf_type *fn = btf__type_by_id(btf, id);
    const struct btf_type *proto = btf__type_by_id(btf, fn->type);
    if (proto)
      n = btf_vlen(proto);
  }
  btf__free(btf);
  return n;
}

/* The pin dir exists on a bpffs; otherwise the backend runs unpinned. */
static bool prepare_pin_dir(void)
{
  struct statfs st;
  char parent[sizeof(pin_dir)];
  snprintf(parent, sizeof(parent), "%s", pin_dir);
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent)
    *slash = 0;
  if (statfs(parent, &st) || st.f_type != BPF_FS_MAGIC)
    return false;
  if (mkdir(pin_dir, 0700) && errno != EEXIST)
    return false;
  return true;
}

static void pin_path(char *out, size_t len, const char *prefix, const char *name)
{
  snprintf(out, len, "%s/%s%s", pin_dir, prefix, name);
}

static void set_map_pins(void)
{
  struct bpf_map *map;
  char path[PATH_MAX];
  bpf_object__for_each_map(map, skel->obj)
  {
    /* scratch and dircache: nothing worth keeping; .rodata: a reused pin would keep old values */
    if (bpf_map__type(map) == BPF_MAP_TYPE_TASK_STORAGE || bpf_map__type(map) == BPF_MAP_TYPE_INODE_STORAGE ||
        bpf_map__is_internal(map))
      continue;
    pin_path(path, sizeof(path), "map_", bpf_map__name(map));
    bpf_map__set_pin_path(map, path);
  }
}

/* Removes pins whose name starts with prefix (all when prefix is ""), keeping keep[] names. */
static void unpin_matching(const char *dir, const char *prefix, const char *const *keep, size_t nkeep)
{
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  char path[PATH_MAX];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0)
      continue;
    bool kept = false;
    for (size_t i = 0; i < nkeep; i++)
      kept |= strcmp(e->d_name, keep[i]) == 0;
    if (!kept) {
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      unlink(path);
    }
  }
  closedir(d);
}

int guard_lsm_unpin_all(const char *dir)
{
  unpin_matching(dir, "", NULL, 0);
  return rmdir(dir) && errno != ENOENT ? -errno : 0;
}

static bool any_link_pinned(void)
{
  DIR *d = opendir(pin_dir);
  bool found = false;
  struct dirent *e;
  while (d && (e = readdir(d)))
    found |= strncmp(e->d_name, "link_", 5) == 0;
  if (d)
    closedir(d);
  return found;
}

/* dircache: load the directory cache and its rename counter (guard.bpf.c, dir_cache). */
static int open_and_load(int setattr_variant, bool dircache)
{
  skel = guard_bpf__open();
  if (!skel)
    return -errno ? -errno : -EINVAL;
  bpf_program__set_autoload(skel->progs.guard_setattr_v1, setattr_variant == 1);
  bpf_program__set_autoload(skel->progs.guard_setattr_v2, setattr_variant == 2);
  bpf_program__set_autoload(skel->progs.guard_rename_done, dircache);
  skel->rodata->use_dircache = dircache;
  if (pinning)
    set_map_pins();
  int err = guard_bpf__load(skel);
  if (err) {
    guard_bpf__destroy(skel);
    skel = NULL;
  }
  return err;
}

/*
 * Attaches every loaded program, then swaps the pins: the old links (a previous helper's) stay
 * until the new ones are attached, so a restart leaves no moment without enforcement.
 */
static int attach_and_pin(void)
{
  struct bpf_program *prog;
  const char *keep[32];
  char names[32][64];
  size_t nkeep = 0;
  renames_tracked = false;
  bpf_object__for_each_program(prog, skel->obj)
  {
    if (!bpf_program__autoload(prog))
      continue;
    /* The rename counter is optional: without it the directory cache is off (config dircache). */
    bool counter = prog == skel->progs.guard_rename_done;
    struct bpf_link *link = counter ? bpf_program__attach_trace(prog) : bpf_program__attach_lsm(prog);
    if (!link && counter)
      continue;
    if (!link)
      return -errno;
    renames_tracked |= counter && !pinning;
    if (!pinning || nkeep >= 32)
      continue;
    char path[PATH_MAX];
    snprintf(names[nkeep], sizeof(names[nkeep]), "link_%s", bpf_program__name(prog));
    pin_path(path, sizeof(path), "", names[nkeep]);
    unlink(path);
    if (bpf_link__pin(link, path) == 0) {
      keep[nkeep] = names[nkeep], nkeep++;
      /* pinned like the hooks: the count must go on as long as cached decisions do */
      renames_tracked |= counter;
    }
  }
  if (pinning) {
    unpin_matching(pin_dir, "link_", keep, nkeep);
    links_pinned = nkeep > 0;
  }
  return 0;
}

static int record_cb(void *ctx, void *data, size_t size);

static int lsm_start(char *cause, size_t causelen)
{
  if (!bpf_lsm_listed()) {
    snprintf(cause, causelen, "lsm_unavailable");
    return -ENOTSUP;
  }
  int args = kernel_func_args("bpf_lsm_inode_setattr");
  if (args < 0) {
    snprintf(cause, causelen, "lsm_unavailable"); /* no kernel BTF, or no BPF LSM hooks in it */
    return -ENOTSUP;
  }
  int variant = args >= 3 ? 2 : 1;
  pinning = prepare_pin_dir();
  bool had_links = pinning && any_link_pinned();

  /* The directory cache needs vfs_rename(struct renamedata *) to count directory renames. */
  bool dircache = kernel_func_args("vfs_rename") == 1;
  int err = open_and_load(variant, dircache);
  if (err && pinning && err != -EPERM && err != -EACCES) {
    /* Pinned maps of another layout (an older helper): start over with fresh maps. */
    fprintf(stderr, "rampart-guard: pinned maps not reusable (%s), replacing them\n", strerror(-err));
    unpin_matching(pin_dir, "map_", NULL, 0);
    err = open_and_load(variant, dircache);
  }
  if (err && dircache && err != -EPERM && err != -EACCES) {
    /* A kernel whose verifier refuses the cache's code still gets every hook, walking each time. */
    fprintf(stderr, "rampart-guard: directory cache refused (%s), loading without it\n", strerror(-err));
    dircache = false;
    err = open_and_load(variant, dircache);
  }
  if (!err) {
    /*
     * No cached walk until this helper's rename counter runs (guard.bpf.c, dir_cache): the pinned
     * config may say a previous helper's counter did, and that one is about to be replaced.
     */
    __u32 zero = 0;
    struct guard_config cfg = {};
    int fd_cfg = bpf_map__fd(skel->maps.guard_cfg);
    if (bpf_map_lookup_elem(fd_cfg, &zero, &cfg) == 0 && cfg.dircache) {
      cfg.dircache = 0;
      cfg.apply_seq++;
      bpf_map_update_elem(fd_cfg, &zero, &cfg, BPF_ANY);
    }
    err = attach_and_pin();
  }
  if (err) {
    snprintf(cause, causelen, "lsm_refused");
    if (skel)
      guard_bpf__destroy(skel);
    skel = NULL;
    if (pinning && !had_links)
      unpin_matching(pin_dir, "map_", NULL, 0); /* leave no half-made pins behind */
    return err < 0 ? err : -EINVAL;
  }

  __u32 zero = 0;
  bpf_map_lookup_elem(bpf_map__fd(skel->maps.guard_cfg), &zero, &live);
  /* A previous helper's counter may be gone (its links were just replaced): say what is true now. */
  live.dircache = renames_tracked;
  live.apply_seq++;
  bpf_map_update_elem(bpf_map__fd(skel->maps.guard_cfg), &zero, &live, BPF_ANY);
  /* The helper itself is trusted from its first moment (the plan adds it again on every apply). */
  __u32 self = (__u32)getpid();
  __u8 one = 1;
  bpf_map_update_elem(bpf_map__fd(skel->maps.trusted), &self, &one, BPF_ANY);

  rb = ring_buffer__new(bpf_map__fd(skel->maps.denials), record_cb, NULL, NULL);
  if (!rb) {
    snprintf(cause, causelen, "lsm_refused");
    return -errno;
  }
  cause[0] = 0;
  return 0;
}

/* ---- apply ---------------------------------------------------------------------------------- */

/* Deletes every key of a hash map for which stale(key) says so. Keys are collected first. */
static int prune(int fd, size_t keysize, bool (*stale)(const void *key, const void *arg), const void *arg)
{
  size_t cap = 1024, n = 0;
  char *keys = malloc(cap * keysize), cur[64], next[64];
  if (!keys)
    return -ENOMEM;
  void *prev = NULL;
  while (bpf_map_get_next_key(fd, prev, next) == 0) {
    if (stale(next, arg)) {
      if (n == cap) {
        char *grown = realloc(keys, (cap *= 2) * keysize);
        if (!grown) {
          free(keys);
          return -ENOMEM;
        }
        keys = grown;
      }
      memcpy(keys + n++ * keysize, next, keysize);
    }
    memcpy(cur, next, keysize);
    prev = cur;
  }
  for (size_t i = 0; i < n; i++)
    bpf_map_delete_elem(fd, keys + i * keysize);
  free(keys);
  return 0;
}

struct sorted_keys {
  const void *keys;
  size_t n, size;
  int (*cmp)(const void *, const void *);
};

static bool not_in(const void *key, const void *arg)
{
  const struct sorted_keys *s = arg;
  return !bsearch(key, s->keys, s->n, s->size, s->cmp);
}

static bool in_bank(const void *key, const void *arg)
{
  return (((const struct guard_slot_key *)key)->set & GUARD_SET_BANK) == *(const __u32 *)arg;
}

static int cmp_u32(const void *a, const void *b)
{
  __u32 x = *(const __u32 *)a, y = *(const __u32 *)b;
  return x < y ? -1 : x > y;
}

static void free_paths(struct named_inode *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free(p[i].path);
  free(p);
}

/* Kept paths of the plan's objects (exes == false) or executables, sorted for bsearch. */
static struct named_inode *keep_paths(const struct guard_plan *plan, bool exes, size_t *n)
{
  *n = exes ? plan->nexes : plan->nobjects;
  struct named_inode *out = calloc(*n + 1, sizeof(*out));
  if (!out) {
    *n = 0;
    return NULL;
  }
  for (size_t i = 0; i < *n; i++) {
    uint64_t dev = exes ? plan->exes[i].dev : plan->objects[i].dev;
    out[i].key = (struct guard_inode_key){ guard_kernel_dev(dev), exes ? plan->exes[i].ino : plan->objects[i].ino };
    out[i].path = strdup(exes ? plan->exes[i].path : plan->objects[i].path);
  }
  qsort(out, *n, sizeof(*out), cmp_inode);
  return out;
}

/*
 * Who a plan's slots can deny what: one entry per distinct (proc, exempt, covers & deny) of its
 * denying slots. Allow slots (deny 0) are left out: an allow is what no match gives too. Names and
 * targets only narrow a slot further, so the masks below may name too much, never too little.
 */
struct slot_reach {
  int32_t proc, exempt;
  uint32_t ops;
};
static struct slot_reach *live_reach; /* the applied plan's; unknown (NULL) before the first apply */
static size_t nlive_reach;

static struct slot_reach *plan_reach(const struct guard_plan *plan, size_t *n)
{
  size_t total = 0;
  *n = 0;
  for (size_t i = 0; i < plan->nsets; i++)
    total += plan->sets[i].nslots;
  struct slot_reach *out = calloc(total + 1, sizeof(*out));
  if (!out)
    return NULL;
  for (size_t i = 0; i < plan->nsets; i++)
    for (uint32_t j = 0; j < plan->sets[i].nslots; j++) {
      const struct guard_slot *s = &plan->sets[i].slots[j];
      struct slot_reach r = { s->proc, s->exempt, s->covers & s->deny };
      bool seen = !r.ops;
      for (size_t k = 0; k < *n && !seen; k++)
        seen = out[k].proc == r.proc && out[k].exempt == r.exempt && out[k].ops == r.ops;
      if (!seen)
        out[(*n)++] = r;
    }
  return out;
}

/*
 * The operations some slot can deny a process of these classes (slot_cb's process tests); a
 * process without classes: those of the slots with proc == -1. check() allows any other before
 * walking.
 */
static __u32 reach_ops(const struct slot_reach *reach, size_t n, uint64_t classes)
{
  if (!reach)
    return GUARD_OP_ALL; /* not known: anything */
  __u32 ops = 0;
  for (size_t i = 0; i < n; i++) {
    if (reach[i].proc >= 0 && !((classes >> (reach[i].proc & 63)) & 1))
      continue;
    if (reach[i].exempt >= 0 && ((classes >> (reach[i].exempt & 63)) & 1))
      continue;
    ops |= reach[i].ops;
  }
  return ops;
}

static __u32 reach_any(const struct slot_reach *reach, size_t n)
{
  __u32 ops = 0;
  for (size_t i = 0; i < n; i++)
    ops |= reach[i].ops;
  return ops;
}

/*
 * Apply, and why it is safe to do while the programs run. Set ids carry a bank bit; the live
 * objects point at one bank. (1) Clear the other bank's slots (left from two applies ago and no
 * longer referenced) and write the new sets there. (2) Write executables and trusted pids, then drop
 * the stale ones. (3) Point every object at its new set, then drop the stale objects: each object
 * flips in one map update, so a decision always sees one whole set, old or new, never a mix.
 * (4) Write the config (enforce, bank, generation, and a new apply_seq: walks cached under the
 * old plan are stale). The old bank stays until the next apply, so a decision that read an object
 * just before its flip still finds the slots it points at.
 * The deny masks (config and executables) are widened to what the old or the new plan's slots can
 * deny before (2) and (3), so a decision that meets either bank's sets with the old or the new
 * classes never skips one by the masks; after (4) they narrow to the new plan's.
 */
static int lsm_apply(const struct guard_plan *plan, char *err, size_t errlen)
{
  int fd_obj = bpf_map__fd(skel->maps.objects), fd_slots = bpf_map__fd(skel->maps.slots);
  int fd_exes = bpf_map__fd(skel->maps.exes), fd_trusted = bpf_map__fd(skel->maps.trusted);
  int fd_cfg = bpf_map__fd(skel->maps.guard_cfg);
  __u32 zero = 0, bank = live.bank ? 0 : GUARD_SET_BANK;
  size_t nslots = 0;
  int rc = -ENOMEM;

  for (size_t i = 0; i < plan->nsets; i++)
    nslots += plan->sets[i].nslots;
  if (nslots > GUARD_MAP_SLOTS / 2) {
    snprintf(err, errlen, "plan has %zu slots, the kernel tables hold %d", nslots, GUARD_MAP_SLOTS / 2);
    return -E2BIG;
  }

  size_t nreach = 0;
  struct slot_reach *reach = plan_reach(plan, &nreach);
  if (!reach) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }

  /* (1) sets into the free bank */
  prune(fd_slots, sizeof(struct guard_slot_key), in_bank, &bank);
  for (size_t i = 0; i < plan->nsets; i++) {
    const struct guard_set *set = &plan->sets[i];
    for (uint32_t j = 0; j < set->nslots; j++) {
      const struct guard_slot *s = &set->slots[j];
      struct guard_slot_key k = { .set = set->id | bank, .index = j };
      struct guard_slot_val v = {
        .covers = s->covers, .deny = s->deny, .proc = s->proc, .exempt = s->exempt, .target = s->target,
        .name_kind = s->name_kind, .malformed = s->malformed, .notify = s->notify,
        .alen = (__u8)strlen(s->name_a), .blen = (__u8)strlen(s->name_b),
      };
      memcpy(v.a, s->name_a, sizeof(v.a));
      memcpy(v.b, s->name_b, sizeof(v.b));
      memcpy(v.rule, s->rule, sizeof(v.rule));
      if (bpf_map_update_elem(fd_slots, &k, &v, BPF_ANY)) {
        rc = -errno;
        snprintf(err, errlen, "writing slots: %s", strerror(errno));
        free(reach);
        return rc;
      }
    }
  }

  /* The config's masks widened first: an executable dropped below counts as classless at once. */
  __u32 deny_any = reach_any(reach, nreach), deny_classless = reach_ops(reach, nreach, 0);
  struct guard_config widened = live;
  widened.deny_ops |= deny_any;
  widened.deny_ops_classless |= deny_classless;
  if (bpf_map_update_elem(fd_cfg, &zero, &widened, BPF_ANY)) {
    rc = -errno;
    snprintf(err, errlen, "writing config: %s", strerror(errno));
    free(reach);
    return rc;
  }
  live = widened;

  /* (2) executables and trusted pids */
  struct guard_inode_key *exe_keys = calloc(plan->nexes + 1, sizeof(*exe_keys));
  __u32 *pids = calloc(plan->ntrusted + 2, sizeof(*pids));
  struct guard_inode_key *obj_keys = calloc(plan->nobjects + 1, sizeof(*obj_keys));
  if (!exe_keys || !pids || !obj_keys) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < plan->nexes; i++) {
    exe_keys[i] = (struct guard_inode_key){ guard_kernel_dev(plan->exes[i].dev), plan->exes[i].ino };
    __u64 classes = plan->exes[i].classes;
    struct guard_exe_val v = { .classes = classes,
                               .deny_ops = reach_ops(reach, nreach, classes) | reach_ops(live_reach, nlive_reach, classes) };
    if (bpf_map_update_elem(fd_exes, &exe_keys[i], &v, BPF_ANY)) {
      rc = -errno;
      snprintf(err, errlen, "writing executables: %s", strerror(errno));
      goto out;
    }
  }
  qsort(exe_keys, plan->nexes, sizeof(*exe_keys), cmp_inode);
  prune(fd_exes, sizeof(*exe_keys), not_in, &(struct sorted_keys){ exe_keys, plan->nexes, sizeof(*exe_keys), cmp_inode });

  size_t npids = 0;
  pids[npids++] = (__u32)getpid();
  for (size_t i = 0; i < plan->ntrusted; i++)
    pids[npids++] = plan->trusted_pids[i];
  __u8 one = 1;
  for (size_t i = 0; i < npids; i++)
    if (bpf_map_update_elem(fd_trusted, &pids[i], &one, BPF_ANY)) {
      rc = -errno;
      snprintf(err, errlen, "writing trusted pids: %s", strerror(errno));
      goto out;
    }
  qsort(pids, npids, sizeof(*pids), cmp_u32);
  prune(fd_trusted, sizeof(__u32), not_in, &(struct sorted_keys){ pids, npids, sizeof(*pids), cmp_u32 });

  /* (3) objects flip to the new bank one by one */
  for (size_t i = 0; i < plan->nobjects; i++) {
    const struct guard_object *o = &plan->objects[i];
    obj_keys[i] = (struct guard_inode_key){ guard_kernel_dev(o->dev), o->ino };
    struct guard_object_val v = { .set = o->set | bank, .dir = o->dir };
    if (bpf_map_update_elem(fd_obj, &obj_keys[i], &v, BPF_ANY)) {
      rc = -errno;
      snprintf(err, errlen, "writing objects: %s", strerror(errno));
      goto out;
    }
  }
  qsort(obj_keys, plan->nobjects, sizeof(*obj_keys), cmp_inode);
  prune(fd_obj, sizeof(*obj_keys), not_in, &(struct sorted_keys){ obj_keys, plan->nobjects, sizeof(*obj_keys), cmp_inode });

  /* (4) config */
  struct guard_config cfg = { .enforce = plan->enforce, .bank = bank ? 1 : 0, .generation = plan->generation,
                              .nobjects = (__u32)plan->nobjects, .deny_ops = deny_any, .deny_ops_classless = deny_classless,
                              .apply_seq = live.apply_seq + 1, .dircache = live.dircache };
  if (bpf_map_update_elem(fd_cfg, &zero, &cfg, BPF_ANY)) {
    rc = -errno;
    snprintf(err, errlen, "writing config: %s", strerror(errno));
    goto out;
  }
  live = cfg;
  /* The executables' masks narrow to the new plan's (only where the old plan widened them). */
  for (size_t i = 0; i < plan->nexes; i++) {
    __u64 classes = plan->exes[i].classes;
    struct guard_exe_val v = { .classes = classes, .deny_ops = reach_ops(reach, nreach, classes) };
    struct guard_inode_key k = { guard_kernel_dev(plan->exes[i].dev), plan->exes[i].ino };
    if (v.deny_ops != (v.deny_ops | reach_ops(live_reach, nlive_reach, classes)))
      bpf_map_update_elem(fd_exes, &k, &v, BPF_ANY);
  }
  free(live_reach);
  live_reach = reach;
  nlive_reach = nreach;
  reach = NULL;

  free_paths(object_paths, nobject_paths);
  free_paths(exe_paths, nexe_paths);
  object_paths = keep_paths(plan, false, &nobject_paths);
  exe_paths = keep_paths(plan, true, &nexe_paths);
  rc = 0;
out:
  free(reach);
  free(exe_keys);
  free(pids);
  free(obj_keys);
  return rc;
}

/* ---- denials -------------------------------------------------------------------------------- */

static const char *path_of(struct named_inode *table, size_t n, __u64 dev, __u64 ino)
{
  struct named_inode key = { .key = { dev, ino } };
  struct named_inode *hit = table ? bsearch(&key, table, n, sizeof(*table), cmp_inode) : NULL;
  return hit ? hit->path : NULL;
}

static int record_cb(void *ctx, void *data, size_t size)
{
  const struct guard_record *r = data;
  struct guard_denial d = {};
  if (size < sizeof(*r) || !drain_report)
    return 0;
  d.op = r->op;
  memcpy(d.rule, r->rule, sizeof(d.rule) - 1);
  d.notify = r->notify;
  d.pid = r->tgid;
  d.uid = r->uid;
  memcpy(d.comm, r->comm, sizeof(d.comm) - 1);

  const char *exe = path_of(exe_paths, nexe_paths, r->exe_dev, r->exe_ino);
  if (exe) {
    snprintf(d.exe, sizeof(d.exe), "%s", exe);
  } else {
    char proc[32];
    snprintf(proc, sizeof(proc), "/proc/%u/exe", r->tgid);
    ssize_t n = readlink(proc, d.exe, sizeof(d.exe) - 1);
    d.exe[n > 0 ? n : 0] = 0;
  }

  /* object path + the names walked, outermost first */
  const char *base = path_of(object_paths, nobject_paths, r->obj_dev, r->obj_ino);
  size_t len = base ? (size_t)snprintf(d.path, sizeof(d.path), "%s", strcmp(base, "/") ? base : "")
                    : (size_t)snprintf(d.path, sizeof(d.path), "<%llu:%llu>", (unsigned long long)r->obj_dev, (unsigned long long)r->obj_ino);
  if (r->depth > GUARD_WALK_NAMES && len < sizeof(d.path))
    len += snprintf(d.path + len, sizeof(d.path) - len, "/…");
  for (int i = (r->depth < GUARD_WALK_NAMES ? (int)r->depth : GUARD_WALK_NAMES) - 1; i >= 0 && len < sizeof(d.path); i--) {
    char name[GUARD_NAME_MAX + 1] = {};
    memcpy(name, r->names[i], GUARD_NAME_MAX);
    len += snprintf(d.path + len, sizeof(d.path) - len, "/%s", name);
  }
  if (!d.path[0])
    snprintf(d.path, sizeof(d.path), "/");
  drain_report(&d, drain_ctx);
  return 0;
}

static int lsm_fd(void) { return rb ? ring_buffer__epoll_fd(rb) : -1; }

static int lsm_drain(guard_report_fn report, void *ctx)
{
  drain_report = report;
  drain_ctx = ctx;
  int n = rb ? ring_buffer__consume(rb) : 0;
  drain_report = NULL;
  return n < 0 ? n : 0;
}

static bool lsm_pinned(void) { return links_pinned; }

/* Pinned links keep enforcing after this: only guard_lsm_unpin_all ends enforcement. */
static void lsm_stop(void)
{
  ring_buffer__free(rb);
  rb = NULL;
  if (skel)
    guard_bpf__destroy(skel);
  skel = NULL;
  free_paths(object_paths, nobject_paths);
  free_paths(exe_paths, nexe_paths);
  object_paths = exe_paths = NULL;
  nobject_paths = nexe_paths = 0;
  free(live_reach);
  live_reach = NULL; /* a later start does not know what its maps hold */
  nlive_reach = 0;
}

const struct guard_backend guard_lsm_backend = {
  .name = "lsm",
  .ops = GUARD_OP_ALL,
  .start = lsm_start,
  .apply = lsm_apply,
  .fd = lsm_fd,
  .drain = lsm_drain,
  .pinned = lsm_pinned,
  .stop = lsm_stop,
};
