/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test driver for the fanotify backend alone: fanotify-driver <plan.json>. Starts the backend,
 * applies the plan (plan_from_json, as the helper does) and prints ndjson lines on stdout:
 *   {"event":"applied","generation":N,"result":0,"error":""}   after each apply
 *   {"event":"denied","op":"w","rule":...,"pid":...,"exe":...,"path":...}   per denial
 * A line "reload" on stdin re-reads the plan file; end of stdin stops the backend and exits.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "backend.h"

static const char op_letters[] = "rxdcnwt";

static char op_letter(uint32_t op)
{
  for (int i = 0; i < 7; i++)
    if (op == (1u << i)) return op_letters[i];
  return '?';
}

static void print_json(cJSON *json)
{
  char *text = cJSON_PrintUnformatted(json);
  printf("%s\n", text);
  fflush(stdout);
  free(text);
  cJSON_Delete(json);
}

static void on_denial(const struct guard_denial *d, void *ctx)
{
  (void)ctx;
  char op[2] = { op_letter(d->op), 0 };
  cJSON *json = cJSON_CreateObject();
  cJSON_AddStringToObject(json, "event", "denied");
  cJSON_AddStringToObject(json, "op", op);
  cJSON_AddStringToObject(json, "rule", d->rule);
  cJSON_AddBoolToObject(json, "notify", d->notify);
  cJSON_AddNumberToObject(json, "pid", d->pid);
  cJSON_AddNumberToObject(json, "uid", d->uid);
  cJSON_AddStringToObject(json, "comm", d->comm);
  cJSON_AddStringToObject(json, "exe", d->exe);
  cJSON_AddStringToObject(json, "path", d->path);
  print_json(json);
}

static int load_plan(const char *file, struct guard_plan *plan, char *err, size_t errlen)
{
  FILE *f = fopen(file, "r");
  if (!f) {
    snprintf(err, errlen, "%s: %s", file, strerror(errno));
    return -1;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)len + 1);
  size_t got = text ? fread(text, 1, (size_t)len, f) : 0;
  fclose(f);
  cJSON *json = got == (size_t)len ? cJSON_Parse(text) : NULL;
  free(text);
  if (!json) {
    snprintf(err, errlen, "%s: not JSON", file);
    return -1;
  }
  int rc = plan_from_json(json, plan, err, errlen);
  cJSON_Delete(json);
  return rc;
}

static void apply_file(const char *file)
{
  struct guard_plan plan;
  char err[512] = "";
  int rc = load_plan(file, &plan, err, sizeof err);
  if (rc == 0) {
    rc = guard_fanotify_backend.apply(&plan, err, sizeof err);
    plan_free(&plan); /* the backend keeps its own copy */
  }
  cJSON *json = cJSON_CreateObject();
  cJSON_AddStringToObject(json, "event", "applied");
  cJSON_AddNumberToObject(json, "result", rc);
  cJSON_AddStringToObject(json, "error", err);
  print_json(json);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s <plan.json>\n", argv[0]);
    return 2;
  }
  char cause[64] = "";
  int rc = guard_fanotify_backend.start(cause, sizeof cause);
  if (rc) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "event", "error");
    cJSON_AddStringToObject(json, "cause", cause);
    cJSON_AddNumberToObject(json, "result", rc);
    print_json(json);
    return 1;
  }
  apply_file(argv[1]);
  char line[256];
  size_t used = 0;
  for (;;) {
    struct pollfd fds[2] = { { guard_fanotify_backend.fd(), POLLIN, 0 }, { 0, POLLIN, 0 } };
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents) guard_fanotify_backend.drain(on_denial, NULL);
    if (fds[1].revents) {
      ssize_t n = read(0, line + used, sizeof line - 1 - used);
      if (n <= 0) break;
      used += (size_t)n;
      line[used] = '\0';
      char *nl;
      while ((nl = strchr(line, '\n'))) {
        *nl = '\0';
        if (!strcmp(line, "reload")) apply_file(argv[1]);
        memmove(line, nl + 1, strlen(nl + 1) + 1);
        used = strlen(line);
      }
      if (used == sizeof line - 1) used = 0;
    }
  }
  guard_fanotify_backend.stop();
  return 0;
}
