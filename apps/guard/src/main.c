// SPDX-License-Identifier: GPL-2.0
/*
 * rampart-guard: the guard helper. Picks a backend, applies the agent's plans and reports denials,
 * speaking ndjson over a unix socket (packages/contracts/src/guard-helper.ts is the protocol).
 *
 *   rampart-guard --socket PATH [--backend auto|lsm|fanotify] [--plan-file FILE] [--events-stdout]
 *                 [--pin-dir DIR] [--cgroup PATH]
 *   --cgroup: the cgroup v2 the network programs attach to (default: the cgroup v2 root; tests give
 *   a test cgroup; `none`: no network programs, hello says net_off). They run beside either file backend.
 *   rampart-guard --unload [--pin-dir DIR]     removes the pinned programs and maps (uninstall)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "backend.h"
#include "events.h"
#include "lsm.h"
#include "net.h"
#include "plan.h"

#define MAX_LINE (256u << 20) /* a plan of 200 000 objects is tens of MB */

static const struct guard_backend *backend;
static char cause[64] = "", detail[256] = "", net_cause[64] = "";
static cJSON *causes; /* every backend that was tried and why it is not running */
static uint64_t generation;
static bool events_stdout;
static int client = -1;
static volatile sig_atomic_t stopping;

static uint64_t now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_signal(int sig) { stopping = sig; }

/* One line to the client; a client that cannot take it within the send timeout is dropped. */
static void send_client(const char *line)
{
  if (client < 0)
    return;
  size_t len = strlen(line);
  struct iovec iov[2] = { { (void *)line, len }, { "\n", 1 } };
  struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
  size_t total = len + 1, sent = 0;
  while (sent < total) {
    ssize_t n = sendmsg(client, &msg, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      close(client);
      client = -1;
      return;
    }
    sent += (size_t)n;
    /* advance the iovecs past what went out */
    while (n > 0 && msg.msg_iovlen) {
      size_t take = (size_t)n < msg.msg_iov->iov_len ? (size_t)n : msg.msg_iov->iov_len;
      msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + take;
      msg.msg_iov->iov_len -= take;
      n -= (ssize_t)take;
      if (!msg.msg_iov->iov_len)
        msg.msg_iov++, msg.msg_iovlen--;
    }
  }
}

static void emit_event(const char *line, void *ctx)
{
  if (events_stdout) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
  }
  send_client(line);
}

static void on_denial(const struct guard_denial *d, void *ctx) { events_denial(d, now_ms(), emit_event, NULL); }

static cJSON *hello_json(void)
{
  struct utsname u;
  uname(&u);
  cJSON *h = cJSON_CreateObject();
  cJSON_AddStringToObject(h, "backend", backend ? backend->name : "none");
  cJSON_AddStringToObject(h, "kernel", u.release);
  cJSON *ops = cJSON_AddArrayToObject(h, "ops");
  for (uint32_t bit = 1; bit <= GUARD_OP_ALL; bit <<= 1)
    if (backend && (backend->ops & bit))
      cJSON_AddItemToArray(ops, cJSON_CreateString(events_op_name(bit)));
  cJSON_AddStringToObject(h, "cause", cause);
  cJSON_AddNumberToObject(h, "generation", (double)generation);
  cJSON_AddBoolToObject(h, "pinned", backend && backend->pinned());
  cJSON_AddBoolToObject(h, "net", guard_net_running());
  cJSON_AddStringToObject(h, "net_cause", net_cause);
  cJSON_AddBoolToObject(h, "net_attached", guard_net_attached());
  cJSON_AddBoolToObject(h, "net_pinned", guard_net_pinned());
  /* Beyond the schema (the agent may show them): every cause, the errno text, lost events. */
  cJSON_AddItemToObject(h, "causes", cJSON_Duplicate(causes, 1));
  cJSON_AddStringToObject(h, "detail", detail);
  cJSON_AddNumberToObject(h, "dropped", (double)(events_dropped() + net_events_dropped()));
  return h;
}

static int apply_plan(const cJSON *json, cJSON **applied, char *err, size_t errlen)
{
  struct guard_plan plan;
  if (plan_from_json(json, &plan, err, errlen))
    return -1; /* a bad plan is reported as such, whatever runs */
  int rc = -1;
  if (!backend)
    snprintf(err, errlen, "no backend is running (%s)", cause);
  else
    rc = backend->apply(&plan, err, errlen);
  if (rc == 0)
    rc = guard_net_apply(&plan, err, errlen);
  if (rc == 0) {
    generation = plan.generation;
    *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(*applied, "generation", (double)plan.generation);
    cJSON_AddNumberToObject(*applied, "objects", (double)plan.nobjects);
    cJSON_AddNumberToObject(*applied, "sets", (double)plan.nsets);
    cJSON_AddNumberToObject(*applied, "exes", (double)plan.nexes);
    if (cJSON_GetObjectItemCaseSensitive(json, "net") || guard_net_running()) {
      /* what the cgroup programs enforce now (0 when they do not run) */
      cJSON_AddNumberToObject(*applied, "net_rules", (double)(guard_net_running() ? plan.nnet_rules : 0));
      cJSON_AddNumberToObject(*applied, "net_exes", (double)(guard_net_running() ? plan.nnet_exes : 0));
    }
  }
  plan_free(&plan);
  return rc ? -1 : 0;
}

/* Answers one request line. */
static void handle_line(const char *line)
{
  cJSON *req = cJSON_Parse(line);
  cJSON *res = cJSON_CreateObject();
  const cJSON *id = req ? cJSON_GetObjectItemCaseSensitive(req, "id") : NULL;
  const cJSON *op = req ? cJSON_GetObjectItemCaseSensitive(req, "op") : NULL;
  cJSON_AddItemToObject(res, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  char err[512] = "";
  if (!req || !cJSON_IsObject(req)) {
    snprintf(err, sizeof(err), "request is not a JSON object");
  } else if (!cJSON_IsString(op)) {
    snprintf(err, sizeof(err), "request has no op");
  } else if (!strcmp(op->valuestring, "hello") || !strcmp(op->valuestring, "status")) {
    cJSON_AddBoolToObject(res, "ok", 1);
    cJSON_AddItemToObject(res, "hello", hello_json());
  } else if (!strcmp(op->valuestring, "apply")) {
    cJSON *applied = NULL;
    if (apply_plan(cJSON_GetObjectItemCaseSensitive(req, "plan"), &applied, err, sizeof(err)) == 0) {
      cJSON_AddBoolToObject(res, "ok", 1);
      cJSON_AddItemToObject(res, "applied", applied);
    }
  } else {
    snprintf(err, sizeof(err), "unknown op \"%s\"", op->valuestring);
  }
  if (err[0]) {
    cJSON_AddBoolToObject(res, "ok", 0);
    cJSON_AddStringToObject(res, "error", err);
  }
  char *out = cJSON_PrintUnformatted(res);
  send_client(out);
  free(out);
  cJSON_Delete(res);
  cJSON_Delete(req);
}

static int open_socket(const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen(path) >= sizeof(addr.sun_path)) {
    fprintf(stderr, "rampart-guard: socket path too long\n");
    return -1;
  }
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  unlink(path);
  mode_t old = umask(0077); /* root only, from the first moment */
  int rc = bind(fd, (struct sockaddr *)&addr, sizeof(addr));
  umask(old);
  if (rc || chmod(path, 0600) || listen(fd, 4)) {
    fprintf(stderr, "rampart-guard: %s: %s\n", path, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

static char *read_file(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf)
    buf[len] = 0;
  return buf;
}

static void add_cause(const char *name, const char *why, int err)
{
  cJSON_AddItemToArray(causes, cJSON_CreateString(why));
  size_t len = strlen(detail);
  snprintf(detail + len, sizeof(detail) - len, "%s%s: %s (%s, errno %d)", len ? "; " : "", name, why, strerror(-err), -err);
}

/* Starts the named backend, or for auto lsm then fanotify; none when all refuse. */
static void choose_backend(const char *which)
{
  const struct guard_backend *order[2];
  int n = 0;
  if (!strcmp(which, "auto") || !strcmp(which, "lsm"))
    order[n++] = &guard_lsm_backend;
  if (!strcmp(which, "auto") || !strcmp(which, "fanotify"))
    order[n++] = &guard_fanotify_backend;
  for (int i = 0; i < n; i++) {
    char why[64] = "";
    int err = order[i]->start(why, sizeof(why));
    if (err == 0) {
      backend = order[i];
      if (!cause[0] && why[0])
        snprintf(cause, sizeof(cause), "%s", why);
      return;
    }
    if (!why[0])
      snprintf(why, sizeof(why), "%s_failed", order[i]->name);
    add_cause(order[i]->name, why, err);
    if (!cause[0])
      snprintf(cause, sizeof(cause), "%s", why); /* the best backend's reason leads */
  }
}

static void usage(void)
{
  fprintf(stderr, "usage: rampart-guard --socket PATH [--backend auto|lsm|fanotify] [--plan-file FILE] [--events-stdout] [--pin-dir DIR] [--cgroup PATH|none]\n"
                  "       rampart-guard --unload [--pin-dir DIR]\n");
}

int main(int argc, char **argv)
{
  const char *socket_path = NULL, *which = "auto", *plan_file = NULL, *pin_dir = "/sys/fs/bpf/rampart", *cgroup = NULL;
  bool unload = false;
  static const struct option opts[] = {
    { "socket", required_argument, 0, 's' }, { "backend", required_argument, 0, 'b' },
    { "plan-file", required_argument, 0, 'p' }, { "events-stdout", no_argument, 0, 'e' },
    { "pin-dir", required_argument, 0, 'd' }, { "unload", no_argument, 0, 'u' },
    { "cgroup", required_argument, 0, 'g' }, { 0, 0, 0, 0 },
  };
  int c;
  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 's': socket_path = optarg; break;
    case 'b': which = optarg; break;
    case 'p': plan_file = optarg; break;
    case 'e': events_stdout = true; break;
    case 'd': pin_dir = optarg; break;
    case 'u': unload = true; break;
    case 'g': cgroup = optarg; break;
    default: usage(); return 2;
    }
  }
  if (unload)
    return guard_lsm_unpin_all(pin_dir) ? 1 : 0;
  if (!socket_path || (strcmp(which, "auto") && strcmp(which, "lsm") && strcmp(which, "fanotify"))) {
    usage();
    return 2;
  }

  signal(SIGPIPE, SIG_IGN);
  struct sigaction sa = { .sa_handler = on_signal };
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  causes = cJSON_CreateArray();
  guard_lsm_set_pin_dir(pin_dir);
  choose_backend(which);
  if (backend == &guard_lsm_backend)
    generation = guard_lsm_generation(); /* a restart over pinned tables: the agent sees what runs */
  char cgroup_root[4096];
  if (!cgroup && guard_net_cgroup_root(cgroup_root, sizeof(cgroup_root)) == 0)
    cgroup = cgroup_root;
  if (cgroup && !strcmp(cgroup, "none")) {
    snprintf(net_cause, sizeof(net_cause), "net_off");
  } else if (!cgroup) {
    snprintf(net_cause, sizeof(net_cause), "net_no_cgroup2");
  } else {
    int err = guard_net_start(cgroup, pin_dir, net_cause, sizeof(net_cause));
    if (err)
      fprintf(stderr, "rampart-guard: network programs on %s: %s (%s)\n", cgroup, net_cause, strerror(-err));
    else
      fprintf(stderr, "rampart-guard: network programs loaded for %s%s\n", cgroup, guard_net_attached() ? ", attached" : "");
  }
  fprintf(stderr, "rampart-guard: backend %s%s%s%s%s\n", backend ? backend->name : "none", cause[0] ? ", cause " : "", cause,
          detail[0] ? ": " : "", detail);

  if (plan_file) {
    char *text = read_file(plan_file), err[512] = "";
    cJSON *json = text ? cJSON_Parse(text) : NULL, *applied = NULL;
    if (!json || apply_plan(json, &applied, err, sizeof(err))) {
      fprintf(stderr, "rampart-guard: plan %s: %s\n", plan_file, json ? err : "unreadable or not JSON");
    } else {
      fprintf(stderr, "rampart-guard: applied generation %llu from %s\n", (unsigned long long)generation, plan_file);
    }
    cJSON_Delete(applied);
    cJSON_Delete(json);
    free(text);
  }

  int listener = open_socket(socket_path);
  if (listener < 0)
    return 1;

  char *buf = NULL;
  size_t buflen = 0, bufcap = 0;
  while (!stopping) {
    struct pollfd fds[4] = { { listener, POLLIN, 0 }, { client, POLLIN, 0 }, { backend ? backend->fd() : -1, POLLIN, 0 },
                             { guard_net_fd(), POLLIN, 0 } };
    int timeout = events_tick(now_ms(), emit_event, NULL);
    int net_timeout = net_events_tick(now_ms(), emit_event, NULL);
    if (net_timeout >= 0 && (timeout < 0 || net_timeout < timeout))
      timeout = net_timeout;
    if (poll(fds, 4, timeout) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (fds[2].revents & POLLIN)
      backend->drain(on_denial, NULL);
    if (fds[3].revents & POLLIN)
      guard_net_drain(now_ms(), emit_event, NULL);
    if (fds[0].revents & POLLIN) {
      int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
      if (fd >= 0) {
        /* One client: a new connection (the agent restarted) replaces the old one. */
        if (client >= 0)
          close(client);
        client = fd;
        buflen = 0;
        struct timeval tv = { .tv_sec = 5 };
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
      }
    }
    if (client >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) && fds[1].fd == client) {
      if (bufcap - buflen < 65536) {
        char *grown = realloc(buf, bufcap = bufcap ? bufcap * 2 : 1 << 20);
        if (!grown)
          return 1;
        buf = grown;
      }
      ssize_t n = read(client, buf + buflen, bufcap - buflen - 1);
      if (n <= 0) {
        close(client);
        client = -1;
        continue;
      }
      buflen += (size_t)n;
      char *start = buf, *nl;
      while (client >= 0 && (nl = memchr(start, '\n', buflen - (size_t)(start - buf)))) {
        *nl = 0;
        if (nl > start)
          handle_line(start);
        start = nl + 1;
      }
      if (client < 0)
        continue;
      buflen -= (size_t)(start - buf);
      memmove(buf, start, buflen);
      if (buflen > MAX_LINE) {
        send_client("{\"id\":null,\"ok\":false,\"error\":\"request line too long\"}");
        close(client);
        client = -1;
        buflen = 0;
      }
    }
  }
  fprintf(stderr, "rampart-guard: stopping (enforcement %s)\n", backend && backend->pinned() ? "stays pinned" : "ends");
  if (backend)
    backend->stop();
  guard_net_stop();
  unlink(socket_path);
  return 0;
}
