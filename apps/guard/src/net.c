// SPDX-License-Identifier: GPL-2.0
/*
 * Network denial per executable: loads net.bpf.c, attaches its cgroup programs through BPF links
 * (pinned as net_link_* beside the LSM pins so enforcement outlives the helper), fills its maps from
 * the plan's net part and turns ring buffer records into net_denied events.
 * The programs are loaded (verified) at start but attached only once a plan restricts an executable
 * (or a previous helper's pins show they were): until then no connect on the machine runs them, and
 * a helper started without process rules (tests of other modules) never touches the cgroup.
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
#include <unistd.h>
#include <linux/magic.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lsm.h"
#include "net.bpf.h"
#include "net.h"
#include "net.skel.h"

static struct net_bpf *skel;
static struct ring_buffer *rb;
static struct bpf_link *links[4];
static int cgroup_fd = -1;
static char pin_dir[PATH_MAX / 2];
static bool pinning, links_pinned;
static struct net_config live;

struct named_exe {
  struct net_inode_key key;
  char *path;
};
static struct named_exe *exe_paths;
static size_t nexe_paths;

static uint64_t drain_now;
static event_emit_fn drain_emit;
static void *drain_ctx;

int guard_net_cgroup_root(char *buf, size_t len)
{
  FILE *f = fopen("/proc/self/mounts", "r");
  char dev[256], dir[PATH_MAX], type[64];
  int found = -1;
  while (f && found && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3)
    if (strcmp(type, "cgroup2") == 0)
      found = snprintf(buf, len, "%s", dir) < (int)len ? 0 : -1;
  if (f)
    fclose(f);
  return found;
}

bool guard_net_running(void) { return skel != NULL; }
bool guard_net_attached(void) { return links[0] != NULL; }
bool guard_net_pinned(void) { return links_pinned; }
int guard_net_fd(void) { return rb ? ring_buffer__epoll_fd(rb) : -1; }

static int cmp_key(const void *a, const void *b)
{
  const struct net_inode_key *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static bool on_bpffs(const char *dir)
{
  struct statfs st;
  char parent[PATH_MAX];
  snprintf(parent, sizeof(parent), "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent)
    *slash = 0;
  if (statfs(parent, &st) || st.f_type != BPF_FS_MAGIC)
    return false;
  return !(mkdir(dir, 0700) && errno != EEXIST);
}

static void unpin_prefix(const char *prefix)
{
  DIR *d = opendir(pin_dir);
  struct dirent *e;
  char path[PATH_MAX];
  while (d && (e = readdir(d)))
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
      snprintf(path, sizeof(path), "%s/%s", pin_dir, e->d_name);
      unlink(path);
    }
  if (d)
    closedir(d);
}

static int open_and_load(void)
{
  skel = net_bpf__open();
  if (!skel)
    return errno ? -errno : -EINVAL;
  if (pinning) {
    struct bpf_map *map;
    char path[PATH_MAX];
    bpf_object__for_each_map(map, skel->obj)
    {
      snprintf(path, sizeof(path), "%s/net_map_%s", pin_dir, bpf_map__name(map));
      bpf_map__set_pin_path(map, path);
    }
  }
  int err = net_bpf__load(skel);
  if (err) {
    net_bpf__destroy(skel);
    skel = NULL;
  }
  return err;
}

static int record_cb(void *ctx, void *data, size_t size);

static bool any_net_link_pinned(void)
{
  DIR *d = opendir(pin_dir);
  bool found = false;
  struct dirent *e;
  while (d && (e = readdir(d)))
    found |= strncmp(e->d_name, "net_link_", 9) == 0;
  if (d)
    closedir(d);
  return found;
}

/* Attaches the four programs to the cgroup and pins the links; a previous helper's pinned links
 * are replaced only once these are attached, so a restart leaves no moment without enforcement. */
static int attach_links(void)
{
  struct bpf_program *progs[4] = { skel->progs.net_connect4, skel->progs.net_connect6, skel->progs.net_sendmsg4, skel->progs.net_sendmsg6 };
  for (int i = 0; i < 4; i++) {
    links[i] = bpf_program__attach_cgroup(progs[i], cgroup_fd);
    if (!links[i]) {
      int err = -errno;
      for (int j = 0; j < i; j++) {
        bpf_link__destroy(links[j]);
        links[j] = NULL;
      }
      return err;
    }
  }
  if (pinning) {
    links_pinned = true;
    for (int i = 0; i < 4; i++) {
      char path[PATH_MAX];
      snprintf(path, sizeof(path), "%s/net_link_%s", pin_dir, bpf_program__name(progs[i]));
      unlink(path);
      links_pinned &= bpf_link__pin(links[i], path) == 0;
    }
  }
  return 0;
}

int guard_net_start(const char *cgroup_path, const char *dir, char *cause, size_t causelen)
{
  snprintf(pin_dir, sizeof(pin_dir), "%s", dir);
  int cg = open(cgroup_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct statfs st;
  if (cg < 0 || fstatfs(cg, &st) || st.f_type != CGROUP2_SUPER_MAGIC) {
    int err = cg < 0 ? -errno : -ENOTDIR;
    if (cg >= 0)
      close(cg);
    snprintf(cause, causelen, "net_no_cgroup2");
    return err;
  }
  pinning = on_bpffs(pin_dir);
  int err = open_and_load();
  if (err && pinning && err != -EPERM && err != -EACCES) {
    fprintf(stderr, "rampart-guard: pinned net maps not reusable (%s), replacing them\n", strerror(-err));
    unpin_prefix("net_map_");
    err = open_and_load();
  }
  cgroup_fd = cg;
  __u32 zero = 0;
  if (!err)
    bpf_map_lookup_elem(bpf_map__fd(skel->maps.net_cfg), &zero, &live);
  /* A previous helper enforced rules: keep enforcing them from this moment. */
  if (!err && ((pinning && any_net_link_pinned()) || live.nexes))
    err = attach_links();
  if (!err) {
    rb = ring_buffer__new(bpf_map__fd(skel->maps.net_denials), record_cb, NULL, NULL);
    if (!rb)
      err = -errno;
  }
  if (err) {
    snprintf(cause, causelen, "net_refused");
    guard_net_stop();
    return err < 0 ? err : -EINVAL;
  }
  cause[0] = 0;
  return 0;
}

/* ---- apply ---------------------------------------------------------------------------------- */

/* Keys of a map for which keep() says no, collected first, then deleted. */
static int delete_where(int fd, size_t keysize, bool (*stale)(const void *key, const void *arg), const void *arg)
{
  size_t cap = 256, n = 0;
  char *keys = malloc(cap * keysize), cur[64], next[64];
  void *prev = NULL;
  if (!keys)
    return -ENOMEM;
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

static bool allow_in_bank(const void *key, const void *arg)
{
  return (((const struct net_allow_key *)key)->rule & NET_BANK) == *(const __u8 *)arg;
}

struct sorted {
  const struct net_inode_key *keys;
  size_t n;
};

static bool exe_not_in(const void *key, const void *arg)
{
  const struct sorted *s = arg;
  return !bsearch(key, s->keys, s->n, sizeof(*s->keys), cmp_key);
}

/*
 * Why this is safe while the programs run: the new rules go to the bank the live config does not
 * point at; each executable's value carries one mask per bank, written in one update; the config
 * flip then switches every decision to the new bank at once. Stale executables go after the flip.
 */
int guard_net_apply(const struct guard_plan *plan, char *err, size_t errlen)
{
  if (!skel)
    return 0; /* hello says net: false with its cause; the file part still applies */
  if (!links[0] && plan->nnet_exes && plan->enforce) {
    int aerr = attach_links();
    if (aerr) {
      snprintf(err, errlen, "attaching the network programs: %s", strerror(-aerr));
      return aerr;
    }
    fprintf(stderr, "rampart-guard: network programs attached\n");
  }
  int fd_exes = bpf_map__fd(skel->maps.net_exes), fd_rules = bpf_map__fd(skel->maps.net_rules);
  int fd_allow = bpf_map__fd(skel->maps.net_allow), fd_cfg = bpf_map__fd(skel->maps.net_cfg);
  __u32 bank = live.bank ? 0 : 1, zero = 0;
  __u8 bank_bit = bank ? NET_BANK : 0, one = 1;
  int rc = 0;

  /* (1) rules and allowed peers into the free bank */
  delete_where(fd_allow, sizeof(struct net_allow_key), allow_in_bank, &bank_bit);
  for (__u32 i = 0; i < NET_MAX_RULES; i++) {
    struct net_rule_val v = {};
    if (i < plan->nnet_rules) {
      const struct guard_net_rule *r = &plan->net_rules[i];
      v.deny = r->deny;
      v.nallow = (__u32)r->nallow;
      memcpy(v.rule, r->rule, sizeof(v.rule));
      for (size_t j = 0; j < r->nallow; j++) {
        struct net_allow_key k = { .prefixlen = 16 + r->allow[j].prefix, .rule = (__u8)(i | bank_bit), .family = r->allow[j].family };
        memcpy(k.addr, r->allow[j].addr, sizeof(k.addr));
        if (bpf_map_update_elem(fd_allow, &k, &one, BPF_ANY)) {
          snprintf(err, errlen, "writing allowed peers: %s", strerror(errno));
          return -errno;
        }
      }
    }
    __u32 slot = bank * NET_MAX_RULES + i;
    if (bpf_map_update_elem(fd_rules, &slot, &v, BPF_ANY)) {
      snprintf(err, errlen, "writing net rules: %s", strerror(errno));
      return -errno;
    }
  }

  /* (2) executables: the new bank's mask beside the live one */
  struct net_inode_key *keys = calloc(plan->nnet_exes + 1, sizeof(*keys));
  if (!keys) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }
  for (size_t i = 0; i < plan->nnet_exes; i++) {
    keys[i] = (struct net_inode_key){ guard_kernel_dev(plan->net_exes[i].dev), plan->net_exes[i].ino };
    struct net_exe_val v = {};
    bpf_map_lookup_elem(fd_exes, &keys[i], &v);
    v.rules[bank] = plan->net_exes[i].rules;
    if (bpf_map_update_elem(fd_exes, &keys[i], &v, BPF_ANY)) {
      rc = -errno;
      snprintf(err, errlen, "writing net executables: %s", strerror(errno));
      goto out;
    }
  }
  qsort(keys, plan->nnet_exes, sizeof(*keys), cmp_key);
  /* executables leaving: no rules in the new bank (deleted after the flip) */
  struct net_inode_key k, *prev = NULL, cur;
  while (bpf_map_get_next_key(fd_exes, prev, &k) == 0) {
    struct net_exe_val v;
    if (!bsearch(&k, keys, plan->nnet_exes, sizeof(*keys), cmp_key) && bpf_map_lookup_elem(fd_exes, &k, &v) == 0) {
      v.rules[bank] = 0;
      bpf_map_update_elem(fd_exes, &k, &v, BPF_EXIST);
    }
    cur = k;
    prev = &cur;
  }

  /* (3) the flip */
  struct net_config cfg = { .enforce = plan->enforce, .bank = bank, .generation = plan->generation, .nexes = (__u32)plan->nnet_exes,
                            .nrules = (__u32)plan->nnet_rules };
  if (bpf_map_update_elem(fd_cfg, &zero, &cfg, BPF_ANY)) {
    rc = -errno;
    snprintf(err, errlen, "writing net config: %s", strerror(errno));
    goto out;
  }
  live = cfg;

  /* (4) stale executables go */
  delete_where(fd_exes, sizeof(struct net_inode_key), exe_not_in, &(struct sorted){ keys, plan->nnet_exes });

  for (size_t i = 0; i < nexe_paths; i++)
    free(exe_paths[i].path);
  free(exe_paths);
  nexe_paths = 0;
  exe_paths = calloc(plan->nnet_exes + 1, sizeof(*exe_paths));
  if (exe_paths) {
    for (size_t i = 0; i < plan->nnet_exes; i++)
      exe_paths[i] = (struct named_exe){ { guard_kernel_dev(plan->net_exes[i].dev), plan->net_exes[i].ino }, strdup(plan->net_exes[i].path) };
    nexe_paths = plan->nnet_exes;
    qsort(exe_paths, nexe_paths, sizeof(*exe_paths), cmp_key);
  }
out:
  free(keys);
  return rc;
}

/* ---- denials -------------------------------------------------------------------------------- */

static int record_cb(void *ctx, void *data, size_t size)
{
  const struct net_record *r = data;
  if (size < sizeof(*r) || !drain_emit)
    return 0;
  struct net_denial d = { .proto = r->proto, .family = r->family, .port = r->port, .pid = r->tgid, .uid = r->uid };
  memcpy(d.addr, r->addr, sizeof(d.addr));
  memcpy(d.rule, r->rule, sizeof(d.rule) - 1);
  memcpy(d.comm, r->comm, sizeof(d.comm) - 1);
  struct named_exe key = { .key = { r->exe_dev, r->exe_ino } };
  struct named_exe *hit = exe_paths ? bsearch(&key, exe_paths, nexe_paths, sizeof(*exe_paths), cmp_key) : NULL;
  if (hit && hit->path) {
    snprintf(d.exe, sizeof(d.exe), "%s", hit->path);
  } else {
    char proc[32];
    snprintf(proc, sizeof(proc), "/proc/%u/exe", r->tgid);
    ssize_t n = readlink(proc, d.exe, sizeof(d.exe) - 1);
    d.exe[n > 0 ? n : 0] = 0;
  }
  net_events_denial(&d, drain_now, drain_emit, drain_ctx);
  return 0;
}

void guard_net_drain(uint64_t now_ms, event_emit_fn emit, void *ctx)
{
  drain_now = now_ms;
  drain_emit = emit;
  drain_ctx = ctx;
  if (rb)
    ring_buffer__consume(rb);
  drain_emit = NULL;
}

/* Pinned links keep enforcing after this; unpinned ones detach with the last reference. */
void guard_net_stop(void)
{
  ring_buffer__free(rb);
  rb = NULL;
  for (int i = 0; i < 4; i++) {
    bpf_link__destroy(links[i]);
    links[i] = NULL;
  }
  if (skel)
    net_bpf__destroy(skel);
  skel = NULL;
  if (cgroup_fd >= 0)
    close(cgroup_fd);
  cgroup_fd = -1;
  for (size_t i = 0; i < nexe_paths; i++)
    free(exe_paths[i].path);
  free(exe_paths);
  exe_paths = NULL;
  nexe_paths = 0;
}
