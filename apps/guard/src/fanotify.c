/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Backend B: fanotify permission events, for kernels that refuse BPF LSM.
 *
 * What it can deny: opens (FAN_OPEN_PERM: read r, write w) and exec (FAN_OPEN_EXEC_PERM: x).
 * fanotify has no permission event for create, delete, rename or setattr, so `ops` says r|x|w only.
 * A FAN_OPEN_PERM event does not say whether the open was for writing: the opener waits in its
 * open syscall, so /proc/<tid>/syscall gives the flags (see fanotify-decide.c).
 *
 * Marks: never a filesystem or mount mark. Each protected object gets an inode mark; for a
 * directory, so does every directory below it (FAN_EVENT_ON_CHILD catches the files), up to a cap.
 * New directories are learnt from a second, notification-only group with FID reporting
 * (FAN_CREATE|FAN_MOVED_TO|FAN_ONDIR): FID reporting cannot share a group with permission events,
 * and a file handle finds the parent even after renames, which inotify's watch paths would not.
 *
 * Threads: a responder answers permission events from memory only (fstat, a stat of
 * /proc/<tid>/exe, a hash lookup); it never waits on main.c. A watcher marks new directories. The
 * helper's own opens (walking trees to mark them) raise events too; the responder allows them
 * (our own pid is trusted), which is why no walk ever runs on the responder thread.
 *
 * A new plan builds new groups and marks, then swaps them in and closes the old ones (closing a
 * group drops its marks and allows its pending events): decisions see the old or the new tables,
 * never half of each. Killing the helper closes the groups, so nothing is left hanging.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "backend.h"
#include "fanotify-decide.h"
#include "fanotify-inomap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <poll.h>
#include <unistd.h>

#ifndef FAN_REPORT_TID
#define FAN_REPORT_TID 0x00000100
#endif

/* How many directories one plan may mark; past it the rest is reported, not marked. */
#define FAN_DIR_CAP 100000
#define FAN_DENIAL_QUEUE 128
#define FAN_NOTIFY_MASK (FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR)

struct fan_mount {
  uint64_t dev;
  fsid_t fsid;
  int fd; /* a directory on the filesystem, for open_by_handle_at */
};

/* An object as the tables keep it: the plan may be freed once applied. */
struct fan_object {
  uint64_t dev, ino;
  uint32_t set; /* index in sets */
  bool dir;
  char *path;
};

struct fan_tables {
  bool enforce;
  size_t nsets, nexes, ntrusted, nmounts, nobjects;
  struct fan_object *objs;
  struct guard_set *sets;
  struct guard_exe *exes;
  uint32_t *trusted;
  struct fan_mount *mounts;
  struct inomap exe_map;  /* (dev, ino) of an executable → a: index in exes */
  struct inomap objects;  /* (dev, ino) of an object → a: set index (walks stop at other objects) */
  struct inomap marked;   /* every marked inode → a: its nearest object's set index, b: depth below it */
  int perm_fd, notify_fd; /* -1 when nothing is marked */
  size_t ndirs, unmarked;
  int mark_errno;
};

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER; /* tables, maps of live tables, live fds */
static pthread_mutex_t walk_lock = PTHREAD_MUTEX_INITIALIZER;   /* one walker at a time: apply or watcher */
static struct fan_tables *tables;
static int live_perm[2] = { -1, -1 }; /* groups the responder may answer: current and the one being built */
static int epoll_fd = -1, stop_fd = -1, wake_fd = -1, report_fd = -1;
static pthread_t responder_thread, watcher_thread;
static bool running;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static struct guard_denial queue[FAN_DENIAL_QUEUE];
static size_t queue_head, queue_len;

/* ---- denial queue: the responder pushes, main.c drains ---- */

static void queue_push(const struct guard_denial *denial)
{
  pthread_mutex_lock(&queue_lock);
  if (queue_len < FAN_DENIAL_QUEUE) { /* full: drop; main.c folds repeats anyway */
    queue[(queue_head + queue_len) % FAN_DENIAL_QUEUE] = *denial;
    queue_len++;
  }
  pthread_mutex_unlock(&queue_lock);
  uint64_t one = 1;
  (void)!write(report_fd, &one, sizeof one);
}

static bool queue_pop(struct guard_denial *out)
{
  pthread_mutex_lock(&queue_lock);
  bool any = queue_len > 0;
  if (any) {
    *out = queue[queue_head];
    queue_head = (queue_head + 1) % FAN_DENIAL_QUEUE;
    queue_len--;
  }
  pthread_mutex_unlock(&queue_lock);
  return any;
}

/* ---- small /proc readers ---- */

static ssize_t read_small(const char *path, char *buf, size_t len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, len - 1);
  close(fd);
  if (n < 0) return -1;
  buf[n] = '\0';
  return n;
}

static void fd_path(int fd, char *out, size_t len)
{
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, out, len - 1);
  out[n > 0 ? n : 0] = '\0';
}

/* The thread's thread-group id and real uid, from /proc/<tid>/status; -1 when it is gone. */
static int thread_owner(pid_t tid, pid_t *tgid, uid_t *uid)
{
  char path[64], buf[2048];
  snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
  if (read_small(path, buf, sizeof buf) < 0) return -1;
  const char *t = strstr(buf, "\nTgid:"), *u = strstr(buf, "\nUid:");
  if (!t || !u) return -1;
  *tgid = (pid_t)strtol(t + 6, NULL, 10);
  *uid = (uid_t)strtoul(u + 5, NULL, 10);
  return 0;
}

/* ---- decisions (responder thread, tables_lock held) ---- */

static bool is_trusted(const struct fan_tables *t, pid_t tgid)
{
  if (tgid == getpid()) return true;
  for (size_t i = 0; i < t->ntrusted; i++)
    if (t->trusted[i] == (uint32_t)tgid) return true;
  return false;
}

/*
 * The exe is looked up on every event rather than cached per pid: a stat of /proc/<tid>/exe is one
 * syscall, cheaper than checking a cache entry's start time in /proc/<pid>/stat, and an execve
 * changes the exe without changing the pid or its start time, which a pid cache would miss.
 */
static const struct guard_exe *thread_exe(const struct fan_tables *t, pid_t tid)
{
  char path[64];
  struct stat st;
  snprintf(path, sizeof path, "/proc/%d/exe", (int)tid);
  if (stat(path, &st) < 0) return NULL;
  const struct inomap_value *v = inomap_get(&t->exe_map, st.st_dev, st.st_ino);
  return v ? &t->exes[v->a] : NULL;
}

/* The nearest marked inode at or above the event's file: the file itself, else its parents by path. */
static const struct inomap_value *nearest_marked(const struct fan_tables *t, const struct stat *st, int fd,
                                                 char *path, size_t pathlen)
{
  const struct inomap_value *v = inomap_get(&t->marked, st->st_dev, st->st_ino);
  if (v) return v;
  if (!*path) fd_path(fd, path, pathlen);
  char walk[PATH_MAX];
  snprintf(walk, sizeof walk, "%s", path);
  for (int depth = 0; depth < GUARD_MAX_DEPTH && walk[0] == '/'; depth++) {
    char *slash = strrchr(walk, '/');
    if (slash == walk) slash[1] = '\0';
    else *slash = '\0';
    struct stat parent;
    if (stat(walk, &parent) < 0) return NULL;
    if ((v = inomap_get(&t->marked, parent.st_dev, parent.st_ino))) return v;
    if (slash == walk) return NULL;
  }
  return NULL;
}

static void report_denial(const struct fan_tables *t, const struct fanotify_event_metadata *md, uint32_t op,
                          const struct guard_slot *slot, const struct guard_exe *exe, pid_t tgid, uid_t uid,
                          const char *path)
{
  struct guard_denial d = { .op = op, .notify = slot->notify, .pid = (uint32_t)tgid, .uid = (uint32_t)uid };
  (void)t;
  snprintf(d.rule, sizeof d.rule, "%s", slot->rule);
  if (*path) snprintf(d.path, sizeof d.path, "%s", path);
  else fd_path(md->fd, d.path, sizeof d.path);
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/%d/comm", (int)md->pid);
  if (read_small(proc, d.comm, sizeof d.comm) > 0) d.comm[strcspn(d.comm, "\n")] = '\0';
  if (exe && exe->path) snprintf(d.exe, sizeof d.exe, "%s", exe->path);
  else {
    snprintf(proc, sizeof proc, "/proc/%d/exe", (int)md->pid);
    ssize_t n = readlink(proc, d.exe, sizeof d.exe - 1);
    d.exe[n > 0 ? n : 0] = '\0';
  }
  queue_push(&d);
}

/* FAN_ALLOW or FAN_DENY for one permission event. */
static uint32_t decide(const struct fan_tables *t, const struct fanotify_event_metadata *md)
{
  if (!t || !t->enforce) return FAN_ALLOW;
  struct stat st;
  if (fstat(md->fd, &st) < 0) return FAN_ALLOW;
  char path[PATH_MAX] = "";
  const struct inomap_value *v = nearest_marked(t, &st, md->fd, path, sizeof path);
  if (!v || v->a >= t->nsets) return FAN_ALLOW;
  const struct guard_set *set = &t->sets[v->a];
  pid_t tid = md->pid; /* FAN_REPORT_TID: the thread blocked in open */
  const struct guard_exe *exe = thread_exe(t, tid);
  uint64_t classes = exe ? exe->classes : 0;
  bool is_dir = S_ISDIR(st.st_mode);
  const char *name = "";
  if (guard_set_uses_names(set)) {
    if (!*path) fd_path(md->fd, path, sizeof path);
    const char *slash = strrchr(path, '/');
    name = slash ? slash + 1 : path;
  }

  uint32_t op;
  const struct guard_slot *slot;
  if (md->mask & FAN_OPEN_EXEC_PERM) {
    op = GUARD_OP_X;
    slot = guard_first_slot(set, op, classes, is_dir, name);
    if (!slot || !(slot->deny & op)) return FAN_ALLOW;
  } else {
    const struct guard_slot *rs = guard_first_slot(set, GUARD_OP_R, classes, is_dir, name);
    const struct guard_slot *ws = guard_first_slot(set, GUARD_OP_W, classes, is_dir, name);
    bool rdeny = rs && (rs->deny & GUARD_OP_R), wdeny = ws && (ws->deny & GUARD_OP_W);
    if (!rdeny && !wdeny) return FAN_ALLOW;
    /* Unknown intent (io_uring, an unknown syscall) counts as a write: deny it if writing is denied. */
    bool write = is_dir ? false : guard_open_intent(tid) != OPEN_READ;
    op = write ? GUARD_OP_W : GUARD_OP_R;
    slot = write ? ws : rs;
    if (!(write ? wdeny : rdeny)) return FAN_ALLOW;
  }

  pid_t tgid;
  uid_t uid;
  if (thread_owner(tid, &tgid, &uid) < 0) return FAN_ALLOW; /* gone: nothing left to protect from */
  if (is_trusted(t, tgid)) return FAN_ALLOW;
  report_denial(t, md, op, slot, exe, tgid, uid, path);
  return FAN_DENY;
}

static void answer_group(int group)
{
  char buf[16384] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
  for (;;) {
    ssize_t len = read(group, buf, sizeof buf);
    if (len <= 0) return; /* EAGAIN: all answered */
    struct fanotify_event_metadata *md = (struct fanotify_event_metadata *)buf;
    for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
      if (md->vers != FANOTIFY_METADATA_VERSION || md->fd < 0) continue;
      struct fanotify_response response = { .fd = md->fd, .response = decide(tables, md) };
      (void)!write(group, &response, sizeof response);
      close(md->fd);
    }
  }
}

static void *responder_main(void *arg)
{
  (void)arg;
  for (;;) {
    struct epoll_event events[4];
    int n = epoll_wait(epoll_fd, events, 4, -1);
    if (n < 0 && errno != EINTR) return NULL;
    for (int i = 0; i < n; i++) {
      int fd = events[i].data.fd;
      if (fd == stop_fd) return NULL;
      pthread_mutex_lock(&tables_lock);
      if (fd == live_perm[0] || fd == live_perm[1]) answer_group(fd);
      pthread_mutex_unlock(&tables_lock);
    }
  }
}

/* ---- marking (apply and watcher; never the responder) ---- */

static uint32_t perm_mask(uint32_t denies, bool dir)
{
  uint32_t mask = 0;
  if (denies & (GUARD_OP_R | GUARD_OP_W)) mask |= FAN_OPEN_PERM;
  if (denies & GUARD_OP_X) mask |= FAN_OPEN_EXEC_PERM;
  if (mask && dir) mask |= FAN_EVENT_ON_CHILD | FAN_ONDIR;
  return mask;
}

static void put_marked(struct fan_tables *t, bool live, const struct stat *st, uint32_t set, uint32_t depth)
{
  if (live) pthread_mutex_lock(&tables_lock);
  inomap_put(&t->marked, st->st_dev, st->st_ino, (struct inomap_value){ set, depth });
  if (live) pthread_mutex_unlock(&tables_lock);
}

static int mark_fd(struct fan_tables *t, int fd, uint32_t mask, bool dir)
{
  if (fanotify_mark(t->perm_fd, FAN_MARK_ADD, mask, fd, NULL) < 0) return -errno;
  if (dir && fanotify_mark(t->notify_fd, FAN_MARK_ADD | FAN_MARK_ONLYDIR, FAN_NOTIFY_MASK, fd, NULL) < 0)
    return -errno;
  return 0;
}

/*
 * Marks directory dfd and the directories below it (up to GUARD_MAX_DEPTH below the object, as the
 * LSM's parent walk reaches), each before listing it so a directory made meanwhile is not missed.
 * live: t is the published table (the watcher), so map writes take tables_lock.
 */
static void walk_dir(struct fan_tables *t, bool live, int dfd, const struct stat *st, uint32_t set, uint32_t depth)
{
  bool known = inomap_get(&t->marked, st->st_dev, st->st_ino) != NULL; /* a rescan: do not count it twice */
  if (!known && t->ndirs >= FAN_DIR_CAP) {
    t->unmarked++;
    return;
  }
  int err = mark_fd(t, dfd, perm_mask(guard_set_denies(&t->sets[set]), true), true);
  if (err) {
    t->unmarked++;
    t->mark_errno = -err;
    return;
  }
  if (!known) {
    t->ndirs++;
    put_marked(t, live, st, set, depth);
  }
  if (depth + 1 >= GUARD_MAX_DEPTH) return;
  int listfd = dup(dfd);
  DIR *dir = listfd >= 0 ? fdopendir(listfd) : NULL;
  if (!dir) {
    if (listfd >= 0) close(listfd);
    return;
  }
  rewinddir(dir);
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN) continue;
    if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
    int child = openat(dfd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child < 0) continue;
    struct stat cst;
    /* Another filesystem (a mount point) ends the walk, as the dentry parent walk does; another object walks itself. */
    if (!fstat(child, &cst) && cst.st_dev == st->st_dev && !inomap_get(&t->objects, cst.st_dev, cst.st_ino))
      walk_dir(t, live, child, &cst, set, depth + 1);
    close(child);
  }
  closedir(dir);
}

static void add_mount(struct fan_tables *t, int fd, uint64_t dev)
{
  for (size_t i = 0; i < t->nmounts; i++)
    if (t->mounts[i].dev == dev) return;
  struct statfs sfs;
  struct fan_mount *grown = realloc(t->mounts, (t->nmounts + 1) * sizeof *grown);
  if (!grown) return;
  t->mounts = grown;
  if (fstatfs(fd, &sfs) < 0) return;
  int keep = fcntl(fd, F_DUPFD_CLOEXEC, 0); /* a real open: open_by_handle_at refuses O_PATH anchors */
  if (keep < 0) return;
  t->mounts[t->nmounts++] = (struct fan_mount){ .dev = dev, .fsid = sfs.f_fsid, .fd = keep };
}

/* Marks one object (and its tree); a missing or replaced object is skipped. live: as for walk_dir. */
static void mark_object(struct fan_tables *t, bool live, const struct fan_object *object)
{
  uint32_t set = object->set;
  uint32_t mask = perm_mask(guard_set_denies(&t->sets[set]), object->dir);
  if (!mask || !object->path) return;
  int fd = open(object->path, (object->dir ? O_RDONLY | O_DIRECTORY : O_PATH) | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) < 0 || st.st_dev != object->dev || st.st_ino != object->ino) {
    close(fd); /* the path now names another inode: the plan's (dev, ino) is what is protected */
    return;
  }
  if (!live && object->dir) add_mount(t, fd, st.st_dev); /* only directories are watched for new ones */
  if (live && !object->dir) {
    /* a rescan: files keep their marks */
  } else if (object->dir) {
    walk_dir(t, live, fd, &st, set, 0);
  } else {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd); /* an O_PATH fd is marked through its path */
    if (fanotify_mark(t->perm_fd, FAN_MARK_ADD, mask, AT_FDCWD, link) < 0) {
      t->unmarked++;
      t->mark_errno = errno;
    } else {
      put_marked(t, false, &st, set, 0);
    }
  }
  close(fd);
}

/* ---- the watcher: marks directories made (or moved) into marked trees ---- */

static int mount_for(const struct fan_tables *t, const fsid_t *fsid)
{
  for (size_t i = 0; i < t->nmounts; i++)
    if (!memcmp(&t->mounts[i].fsid, fsid, sizeof *fsid)) return t->mounts[i].fd;
  return -1;
}

static void rescan(struct fan_tables *t);

static void mark_new_dir(struct fan_tables *t, const struct fanotify_event_metadata *md)
{
  if (md->mask & FAN_Q_OVERFLOW) {
    rescan(t); /* events were lost: walk every tree again (marking is idempotent) */
    return;
  }
  if (!(md->mask & FAN_ONDIR)) return; /* a file: its directory's mark already covers it */
  const char *end = (const char *)md + md->event_len;
  for (const char *p = (const char *)md + md->metadata_len; p + sizeof(struct fanotify_event_info_header) <= end;) {
    const struct fanotify_event_info_fid *info = (const void *)p;
    if (info->hdr.len == 0) return;
    p += info->hdr.len;
    if (info->hdr.info_type != FAN_EVENT_INFO_TYPE_DFID_NAME) continue;
    struct file_handle *handle = (struct file_handle *)info->handle;
    const char *name = (const char *)handle->f_handle + handle->handle_bytes;
    int mount = mount_for(t, (const fsid_t *)&info->fsid);
    if (mount < 0) return;
    int parent = open_by_handle_at(mount, handle, O_PATH | O_CLOEXEC);
    if (parent < 0) return;
    struct stat pst, cst;
    struct inomap_value where = { 0, 0 };
    bool found = false;
    if (!fstat(parent, &pst)) {
      pthread_mutex_lock(&tables_lock);
      const struct inomap_value *v = inomap_get(&t->marked, pst.st_dev, pst.st_ino);
      if (v) where = *v, found = true;
      pthread_mutex_unlock(&tables_lock);
    }
    int child = found ? openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    close(parent);
    if (child < 0) return;
    if (!fstat(child, &cst) && cst.st_dev == pst.st_dev && !inomap_get(&t->objects, cst.st_dev, cst.st_ino) &&
        where.b + 1 < GUARD_MAX_DEPTH)
      walk_dir(t, true, child, &cst, where.a, where.b + 1);
    close(child);
    return;
  }
}

static void *watcher_main(void *arg)
{
  (void)arg;
  char buf[16384] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
  for (;;) {
    pthread_mutex_lock(&tables_lock);
    int notify = tables ? tables->notify_fd : -1;
    pthread_mutex_unlock(&tables_lock);
    struct pollfd fds[3] = { { stop_fd, POLLIN, 0 }, { wake_fd, POLLIN, 0 }, { notify, POLLIN, 0 } };
    if (poll(fds, 3, -1) < 0 && errno != EINTR) return NULL;
    if (fds[0].revents) return NULL;
    if (fds[1].revents) {
      uint64_t n;
      (void)!read(wake_fd, &n, sizeof n);
      continue;
    }
    if (!fds[2].revents) continue;
    pthread_mutex_lock(&walk_lock); /* apply cannot swap the tables while a new directory is marked */
    struct fan_tables *t = tables;
    if (t && t->notify_fd == notify) {
      ssize_t len;
      while ((len = read(notify, buf, sizeof buf)) > 0) {
        struct fanotify_event_metadata *md = (struct fanotify_event_metadata *)buf;
        for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) mark_new_dir(t, md);
      }
    }
    pthread_mutex_unlock(&walk_lock);
  }
}

/* ---- tables ---- */

static void tables_free(struct fan_tables *t)
{
  if (!t) return;
  if (t->perm_fd >= 0) close(t->perm_fd);
  if (t->notify_fd >= 0) close(t->notify_fd);
  for (size_t i = 0; i < t->nmounts; i++) close(t->mounts[i].fd);
  for (size_t i = 0; i < t->nexes; i++) free(t->exes[i].path);
  for (size_t i = 0; i < t->nobjects; i++) free(t->objs[i].path);
  free(t->objs);
  free(t->mounts);
  free(t->sets);
  free(t->exes);
  free(t->trusted);
  inomap_free(&t->exe_map);
  inomap_free(&t->objects);
  inomap_free(&t->marked);
  free(t);
}

/* Set id → index in plan->sets, as an inomap keyed (0, id): plans may hold 65,535 sets. */
static int set_ids_build(const struct guard_plan *plan, struct inomap *ids)
{
  for (size_t i = 0; i < plan->nsets; i++)
    if (inomap_put(ids, 0, plan->sets[i].id, (struct inomap_value){ (uint32_t)i, 0 })) return -1;
  return 0;
}

static int set_index(const struct inomap *ids, uint32_t id)
{
  const struct inomap_value *v = inomap_get(ids, 0, id);
  return v ? (int)v->a : -1;
}

static void rescan(struct fan_tables *t)
{
  if (t->perm_fd < 0) return;
  for (size_t i = 0; i < t->nobjects; i++)
    if (t->objs[i].dir) mark_object(t, true, &t->objs[i]);
}

static struct fan_tables *tables_copy(const struct guard_plan *plan)
{
  struct fan_tables *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->perm_fd = t->notify_fd = -1;
  t->enforce = plan->enforce;
  t->nsets = plan->nsets;
  t->nexes = plan->nexes;
  t->ntrusted = plan->ntrusted;
  t->sets = calloc(plan->nsets + 1, sizeof *t->sets);
  t->exes = calloc(plan->nexes + 1, sizeof *t->exes);
  t->trusted = calloc(plan->ntrusted + 1, sizeof *t->trusted);
  if (!t->sets || !t->exes || !t->trusted) goto fail;
  if (plan->nsets) memcpy(t->sets, plan->sets, plan->nsets * sizeof *t->sets);
  if (plan->ntrusted) memcpy(t->trusted, plan->trusted_pids, plan->ntrusted * sizeof *t->trusted);
  for (size_t i = 0; i < plan->nexes; i++) {
    t->exes[i] = plan->exes[i];
    t->exes[i].path = plan->exes[i].path ? strdup(plan->exes[i].path) : NULL;
    if (inomap_put(&t->exe_map, plan->exes[i].dev, plan->exes[i].ino, (struct inomap_value){ (uint32_t)i, 0 }))
      goto fail;
  }
  struct inomap ids = { 0 };
  t->objs = calloc(plan->nobjects + 1, sizeof *t->objs);
  if (!t->objs || set_ids_build(plan, &ids)) {
    inomap_free(&ids);
    goto fail;
  }
  for (size_t i = 0; i < plan->nobjects; i++) {
    const struct guard_object *o = &plan->objects[i];
    int set = set_index(&ids, o->set);
    if (set < 0) continue; /* a plan names only sets it has; a stray object protects nothing */
    t->objs[t->nobjects++] = (struct fan_object){ o->dev, o->ino, (uint32_t)set, o->dir, o->path ? strdup(o->path) : NULL };
    if (inomap_put(&t->objects, o->dev, o->ino, (struct inomap_value){ (uint32_t)set, 0 })) {
      inomap_free(&ids);
      goto fail;
    }
  }
  inomap_free(&ids);
  return t;
fail:
  tables_free(t);
  return NULL;
}

static bool tables_need_marks(const struct fan_tables *t)
{
  if (!t->enforce) return false; /* paused: no marks at all, so no access waits on us */
  for (size_t i = 0; i < t->nobjects; i++)
    if (perm_mask(guard_set_denies(&t->sets[t->objs[i].set]), false)) return true;
  return false;
}

static void set_live(int current, int building)
{
  pthread_mutex_lock(&tables_lock);
  live_perm[0] = current;
  live_perm[1] = building;
  pthread_mutex_unlock(&tables_lock);
}

static int fanotify_apply(const struct guard_plan *plan, char *err, size_t errlen)
{
  if (!running) {
    snprintf(err, errlen, "fanotify backend not started");
    return -EINVAL;
  }
  struct fan_tables *t = tables_copy(plan);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return -ENOMEM;
  }
  pthread_mutex_lock(&walk_lock);
  if (tables_need_marks(t)) {
    /* The queue is bounded by the threads waiting on it anyway: each permission event blocks one. */
    t->perm_fd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_TID | FAN_UNLIMITED_QUEUE,
                               O_RDONLY | O_LARGEFILE | O_CLOEXEC);
    t->notify_fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_DFID_NAME, O_RDONLY);
    if (t->perm_fd < 0 || t->notify_fd < 0) {
      int e = errno;
      snprintf(err, errlen, "fanotify_init: %s", strerror(e));
      pthread_mutex_unlock(&walk_lock);
      tables_free(t);
      return -e;
    }
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = t->perm_fd };
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, t->perm_fd, &ev);
    pthread_mutex_lock(&tables_lock);
    int current = tables ? tables->perm_fd : -1;
    pthread_mutex_unlock(&tables_lock);
    set_live(current, t->perm_fd); /* the new group's events are answered (by the old tables) while we mark */
    for (size_t i = 0; i < t->nobjects; i++) mark_object(t, false, &t->objs[i]);
  }

  pthread_mutex_lock(&tables_lock);
  struct fan_tables *old = tables;
  tables = t;
  live_perm[0] = t->perm_fd;
  live_perm[1] = -1;
  if (old && old->perm_fd >= 0) epoll_ctl(epoll_fd, EPOLL_CTL_DEL, old->perm_fd, NULL);
  tables_free(old); /* closing the old groups drops their marks and allows their pending events */
  pthread_mutex_unlock(&tables_lock);
  uint64_t one = 1;
  (void)!write(wake_fd, &one, sizeof one);
  pthread_mutex_unlock(&walk_lock);

  if (t->unmarked) {
    snprintf(err, errlen, "%zu directories not marked (%s; cap %d): their contents are not protected", t->unmarked,
             t->mark_errno ? strerror(t->mark_errno) : "over the cap", FAN_DIR_CAP);
    return t->mark_errno ? -t->mark_errno : -ENOSPC;
  }
  return 0;
}

/* ---- the backend ---- */

static int fanotify_start(char *cause, size_t causelen)
{
  int probe = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_REPORT_TID, O_RDONLY);
  if (probe < 0) {
    int e = errno;
    snprintf(cause, causelen, "%s", e == EPERM ? "not_root" : "fanotify_unavailable");
    return -e;
  }
  close(probe);
  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  report_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epoll_fd < 0 || stop_fd < 0 || wake_fd < 0 || report_fd < 0) {
    snprintf(cause, causelen, "fanotify_unavailable");
    return -errno;
  }
  struct epoll_event ev = { .events = EPOLLIN, .data.fd = stop_fd };
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, stop_fd, &ev);
  running = true;
  if (pthread_create(&responder_thread, NULL, responder_main, NULL) ||
      pthread_create(&watcher_thread, NULL, watcher_main, NULL)) {
    snprintf(cause, causelen, "fanotify_unavailable");
    return -EAGAIN;
  }
  cause[0] = '\0';
  return 0;
}

static int fanotify_fd(void) { return report_fd; }

static int fanotify_drain(guard_report_fn report, void *ctx)
{
  uint64_t n;
  (void)!read(report_fd, &n, sizeof n);
  struct guard_denial denial;
  int count = 0;
  while (queue_pop(&denial)) {
    report(&denial, ctx);
    count++;
  }
  return count;
}

static bool fanotify_pinned(void) { return false; }

static void fanotify_stop(void)
{
  if (!running) return;
  uint64_t one = 1;
  (void)!write(stop_fd, &one, sizeof one);
  pthread_join(responder_thread, NULL);
  pthread_join(watcher_thread, NULL);
  set_live(-1, -1);
  tables_free(tables);
  tables = NULL;
  close(epoll_fd);
  close(stop_fd);
  close(wake_fd);
  close(report_fd);
  epoll_fd = stop_fd = wake_fd = report_fd = -1;
  running = false;
}

const struct guard_backend guard_fanotify_backend = {
  .name = "fanotify",
  .ops = GUARD_OP_R | GUARD_OP_X | GUARD_OP_W,
  .start = fanotify_start,
  .apply = fanotify_apply,
  .fd = fanotify_fd,
  .drain = fanotify_drain,
  .pinned = fanotify_pinned,
  .stop = fanotify_stop,
};
