// SPDX-License-Identifier: GPL-2.0
/*
 * The plan from the agent's JSON, checked as the zod schema in guard-helper.ts checks it (sizes,
 * ranges, unknown keys refused) plus what only C cares about: byte lengths (zod counts UTF-16 units)
 * and numbers that must be exact integers. A plan that fails here is refused whole.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "plan.h"

#define MAX_OBJECTS 200000
#define MAX_SETS 65535
#define MAX_EXES 100000
#define MAX_TRUSTED 64
#define MAX_SAFE_INT 9007199254740991.0 /* JSON numbers past 2^53 are not exact */

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Refuses keys other than the allowed ones (the schema objects are strict). */
static int only_keys(const cJSON *obj, const char *const *keys, const char *where, char *err, size_t errlen)
{
  const cJSON *item;
  cJSON_ArrayForEach(item, obj)
  {
    int known = 0;
    for (const char *const *k = keys; *k; k++)
      if (item->string && strcmp(item->string, *k) == 0)
        known = 1;
    if (!known)
      return fail(err, errlen, "%s: unknown key \"%s\"", where, item->string ? item->string : "");
  }
  return 0;
}

static int get_int(const cJSON *obj, const char *key, double min, double max, double *out, const char *where,
                   char *err, size_t errlen)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsNumber(v))
    return fail(err, errlen, "%s.%s: expected a number", where, key);
  double d = v->valuedouble;
  if (!isfinite(d) || floor(d) != d || d < min || d > max)
    return fail(err, errlen, "%s.%s: expected an integer in [%.0f, %.0f]", where, key, min, max);
  *out = d;
  return 0;
}

static int get_bool(const cJSON *obj, const char *key, bool *out, const char *where, char *err, size_t errlen)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsBool(v))
    return fail(err, errlen, "%s.%s: expected a boolean", where, key);
  *out = cJSON_IsTrue(v);
  return 0;
}

/* A string of at most maxbytes bytes (not counting the NUL), without NUL bytes. */
static int get_str(const cJSON *obj, const char *key, size_t maxbytes, const char **out, const char *where,
                   char *err, size_t errlen)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsString(v) || !v->valuestring)
    return fail(err, errlen, "%s.%s: expected a string", where, key);
  if (strlen(v->valuestring) > maxbytes)
    return fail(err, errlen, "%s.%s: longer than %zu bytes", where, key, maxbytes);
  *out = v->valuestring;
  return 0;
}

static const cJSON *get_array(const cJSON *obj, const char *key, int max, const char *where, char *err, size_t errlen)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsArray(v)) {
    fail(err, errlen, "%s.%s: expected an array", where, key);
    return NULL;
  }
  if (cJSON_GetArraySize(v) > max) {
    fail(err, errlen, "%s.%s: more than %d items", where, key, max);
    return NULL;
  }
  return v;
}

static int enum_index(const char *value, const char *const *names)
{
  for (int i = 0; names[i]; i++)
    if (strcmp(value, names[i]) == 0)
      return i;
  return -1;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static const char *const name_kinds[] = {"any", "exact", "prefix", "suffix", "contains", "prefix_suffix", NULL};
static const char *const targets[] = {"any", "file", "dir", NULL};

static int parse_slot(const cJSON *j, struct guard_slot *s, const char *where, char *err, size_t errlen)
{
  static const char *const keys[] = {"rule", "covers", "deny", "proc", "exempt", "target", "name", "malformed", "notify", NULL};
  const char *str;
  double d;
  if (!cJSON_IsObject(j))
    return fail(err, errlen, "%s: expected an object", where);
  if (only_keys(j, keys, where, err, errlen))
    return -1;
  if (get_str(j, "rule", sizeof(s->rule) - 1, &str, where, err, errlen))
    return -1;
  strcpy(s->rule, str);
  if (get_int(j, "covers", 0, GUARD_OP_ALL, &d, where, err, errlen))
    return -1;
  s->covers = (uint32_t)d;
  if (get_int(j, "deny", 0, GUARD_OP_ALL, &d, where, err, errlen))
    return -1;
  s->deny = (uint32_t)d;
  if (get_int(j, "proc", -1, 63, &d, where, err, errlen))
    return -1;
  s->proc = (int32_t)d;
  if (get_int(j, "exempt", -1, 63, &d, where, err, errlen))
    return -1;
  s->exempt = (int32_t)d;
  if (get_str(j, "target", 8, &str, where, err, errlen))
    return -1;
  int t = enum_index(str, targets);
  if (t < 0)
    return fail(err, errlen, "%s.target: unknown \"%s\"", where, str);
  s->target = (uint8_t)t;
  if (get_bool(j, "malformed", &s->malformed, where, err, errlen) || get_bool(j, "notify", &s->notify, where, err, errlen))
    return -1;

  const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
  static const char *const name_keys[] = {"kind", "a", "b", NULL};
  char nwhere[96];
  snprintf(nwhere, sizeof(nwhere), "%s.name", where);
  if (!cJSON_IsObject(name))
    return fail(err, errlen, "%s: expected an object", nwhere);
  if (only_keys(name, name_keys, nwhere, err, errlen))
    return -1;
  if (get_str(name, "kind", 16, &str, nwhere, err, errlen))
    return -1;
  int k = enum_index(str, name_kinds);
  if (k < 0)
    return fail(err, errlen, "%s.kind: unknown \"%s\"", nwhere, str);
  s->name_kind = (uint8_t)k;
  if (get_str(name, "a", GUARD_NAME_MAX - 1, &str, nwhere, err, errlen))
    return -1;
  strcpy(s->name_a, str);
  if (get_str(name, "b", GUARD_NAME_MAX - 1, &str, nwhere, err, errlen))
    return -1;
  strcpy(s->name_b, str);
  return 0;
}

static int parse_set(const cJSON *j, struct guard_set *set, const char *where, char *err, size_t errlen)
{
  static const char *const keys[] = {"id", "slots", NULL};
  double d;
  if (!cJSON_IsObject(j))
    return fail(err, errlen, "%s: expected an object", where);
  if (only_keys(j, keys, where, err, errlen))
    return -1;
  /* Below the bank bit the BPF maps put on set ids. */
  if (get_int(j, "id", 1, 0x7fffffff, &d, where, err, errlen))
    return -1;
  set->id = (uint32_t)d;
  const cJSON *slots = get_array(j, "slots", GUARD_MAX_SLOTS, where, err, errlen);
  if (!slots)
    return -1;
  const cJSON *slot;
  set->nslots = 0;
  cJSON_ArrayForEach(slot, slots)
  {
    char swhere[80];
    snprintf(swhere, sizeof(swhere), "%s.slots[%u]", where, set->nslots);
    if (parse_slot(slot, &set->slots[set->nslots], swhere, err, errlen))
      return -1;
    set->nslots++;
  }
  return 0;
}

static int parse_inode(const cJSON *j, uint64_t *dev, uint64_t *ino, char **path, const char *where, char *err, size_t errlen)
{
  double d;
  const char *str;
  if (get_int(j, "dev", 0, MAX_SAFE_INT, &d, where, err, errlen))
    return -1;
  *dev = (uint64_t)d;
  if (get_int(j, "ino", 0, MAX_SAFE_INT, &d, where, err, errlen))
    return -1;
  *ino = (uint64_t)d;
  if (get_str(j, "path", 4095, &str, where, err, errlen))
    return -1;
  *path = strdup(str);
  return *path ? 0 : fail(err, errlen, "out of memory");
}

/* "a.b.c.d/n" or "x::y/n" with host bits zero (the planner writes them canonical; others hide typos). */
static int parse_cidr(const char *text, struct guard_net_cidr *c, const char *where, char *err, size_t errlen)
{
  char addr[64];
  const char *slash = strchr(text, '/');
  size_t alen = slash ? (size_t)(slash - text) : 0;
  if (!slash || alen == 0 || alen >= sizeof(addr) || !slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1) || strlen(slash + 1) > 3)
    return fail(err, errlen, "%s: \"%s\" is not a CIDR", where, text);
  memcpy(addr, text, alen);
  addr[alen] = 0;
  int prefix = atoi(slash + 1);
  memset(c, 0, sizeof(*c));
  if (inet_pton(AF_INET, addr, c->addr) == 1)
    c->family = 4;
  else if (inet_pton(AF_INET6, addr, c->addr) == 1)
    c->family = 6;
  else
    return fail(err, errlen, "%s: \"%s\" is not a CIDR", where, text);
  int width = c->family == 4 ? 32 : 128;
  if (prefix > width)
    return fail(err, errlen, "%s: \"%s\" has a prefix longer than %d", where, text, width);
  c->prefix = (uint8_t)prefix;
  for (int bit = prefix; bit < width; bit++)
    if (c->addr[bit / 8] & (0x80 >> (bit % 8)))
      return fail(err, errlen, "%s: \"%s\" has host bits set", where, text);
  return 0;
}

/* The optional net part; out->net_* stay empty when it is absent. */
static int parse_net(const cJSON *net, struct guard_plan *out, char *err, size_t errlen)
{
  static const char *const keys[] = {"rules", "exes", NULL};
  static const char *const rule_keys[] = {"rule", "deny", "allow", NULL};
  static const char *const exe_keys[] = {"dev", "ino", "path", "rules", NULL};
  char where[80];
  double d;
  const char *str;
  const cJSON *item, *v;
  if (!cJSON_IsObject(net))
    return fail(err, errlen, "plan.net: expected an object");
  if (only_keys(net, keys, "plan.net", err, errlen))
    return -1;
  const cJSON *rules = get_array(net, "rules", GUARD_NET_MAX_RULES, "plan.net", err, errlen);
  const cJSON *exes = rules ? get_array(net, "exes", MAX_EXES, "plan.net", err, errlen) : NULL;
  if (!exes)
    return -1;
  out->net_rules = calloc(cJSON_GetArraySize(rules) + 1, sizeof(*out->net_rules));
  out->net_exes = calloc(cJSON_GetArraySize(exes) + 1, sizeof(*out->net_exes));
  if (!out->net_rules || !out->net_exes)
    return fail(err, errlen, "out of memory");
  size_t total = 0;
  cJSON_ArrayForEach(item, rules)
  {
    struct guard_net_rule *r = &out->net_rules[out->nnet_rules];
    snprintf(where, sizeof(where), "plan.net.rules[%zu]", out->nnet_rules);
    if (!cJSON_IsObject(item))
      return fail(err, errlen, "%s: expected an object", where);
    if (only_keys(item, rule_keys, where, err, errlen) || get_str(item, "rule", sizeof(r->rule) - 1, &str, where, err, errlen))
      return -1;
    strcpy(r->rule, str);
    out->nnet_rules++;
    if (get_int(item, "deny", 0, GUARD_NET_ALL, &d, where, err, errlen))
      return -1;
    r->deny = (uint32_t)d;
    const cJSON *allow = get_array(item, "allow", GUARD_NET_MAX_ALLOW_PER_RULE, where, err, errlen);
    if (!allow)
      return -1;
    total += (size_t)cJSON_GetArraySize(allow);
    if (total > GUARD_NET_MAX_ALLOW)
      return fail(err, errlen, "plan.net: more than %d allowed networks in all", GUARD_NET_MAX_ALLOW);
    r->allow = calloc(cJSON_GetArraySize(allow) + 1, sizeof(*r->allow));
    if (!r->allow)
      return fail(err, errlen, "out of memory");
    cJSON_ArrayForEach(v, allow)
    {
      char awhere[96];
      snprintf(awhere, sizeof(awhere), "%s.allow[%zu]", where, r->nallow);
      if (!cJSON_IsString(v) || !v->valuestring)
        return fail(err, errlen, "%s: expected a string", awhere);
      if (parse_cidr(v->valuestring, &r->allow[r->nallow], awhere, err, errlen))
        return -1;
      r->nallow++;
    }
  }
  cJSON_ArrayForEach(item, exes)
  {
    struct guard_net_exe *e = &out->net_exes[out->nnet_exes];
    snprintf(where, sizeof(where), "plan.net.exes[%zu]", out->nnet_exes);
    if (!cJSON_IsObject(item))
      return fail(err, errlen, "%s: expected an object", where);
    if (only_keys(item, exe_keys, where, err, errlen) || parse_inode(item, &e->dev, &e->ino, &e->path, where, err, errlen))
      return -1;
    out->nnet_exes++;
    const cJSON *idx = get_array(item, "rules", GUARD_NET_MAX_RULES, where, err, errlen);
    if (!idx)
      return -1;
    cJSON_ArrayForEach(v, idx)
    {
      double x = v->valuedouble;
      if (!cJSON_IsNumber(v) || floor(x) != x || x < 0 || x >= (double)out->nnet_rules)
        return fail(err, errlen, "%s.rules: expected indexes of plan.net.rules", where);
      e->rules |= 1ull << (int)x;
    }
  }
  return 0;
}

int plan_from_json(const cJSON *json, struct guard_plan *out, char *err, size_t errlen)
{
  static const char *const keys[] = {"generation", "enforce", "objects", "sets", "exes", "trusted_pids", "net", NULL};
  static const char *const object_keys[] = {"dev", "ino", "path", "set", "dir", NULL};
  static const char *const exe_keys[] = {"dev", "ino", "path", "classes", NULL};
  char where[64];
  double d;
  const cJSON *item;
  uint32_t *set_ids = NULL;

  memset(out, 0, sizeof(*out));
  if (!cJSON_IsObject(json))
    return fail(err, errlen, "plan: expected an object");
  if (only_keys(json, keys, "plan", err, errlen))
    return -1;
  if (get_int(json, "generation", 0, MAX_SAFE_INT, &d, "plan", err, errlen))
    return -1;
  out->generation = (uint64_t)d;
  if (get_bool(json, "enforce", &out->enforce, "plan", err, errlen))
    return -1;
  const cJSON *objects = get_array(json, "objects", MAX_OBJECTS, "plan", err, errlen);
  const cJSON *sets = objects ? get_array(json, "sets", MAX_SETS, "plan", err, errlen) : NULL;
  const cJSON *exes = sets ? get_array(json, "exes", MAX_EXES, "plan", err, errlen) : NULL;
  const cJSON *trusted = exes ? get_array(json, "trusted_pids", MAX_TRUSTED, "plan", err, errlen) : NULL;
  if (!trusted)
    return -1;

  out->sets = calloc(cJSON_GetArraySize(sets) + 1, sizeof(*out->sets));
  out->objects = calloc(cJSON_GetArraySize(objects) + 1, sizeof(*out->objects));
  out->exes = calloc(cJSON_GetArraySize(exes) + 1, sizeof(*out->exes));
  out->trusted_pids = calloc(cJSON_GetArraySize(trusted) + 1, sizeof(*out->trusted_pids));
  if (!out->sets || !out->objects || !out->exes || !out->trusted_pids)
    goto oom;

  cJSON_ArrayForEach(item, sets)
  {
    snprintf(where, sizeof(where), "plan.sets[%zu]", out->nsets);
    if (parse_set(item, &out->sets[out->nsets], where, err, errlen))
      goto bad;
    out->nsets++;
  }
  /* Sorted set ids: duplicates are refused, objects must name a set that exists. */
  set_ids = calloc(out->nsets + 1, sizeof(*set_ids));
  if (!set_ids)
    goto oom;
  for (size_t i = 0; i < out->nsets; i++)
    set_ids[i] = out->sets[i].id;
  qsort(set_ids, out->nsets, sizeof(*set_ids), cmp_u32);
  for (size_t i = 1; i < out->nsets; i++)
    if (set_ids[i] == set_ids[i - 1]) {
      fail(err, errlen, "plan.sets: id %u is used twice", set_ids[i]);
      goto bad;
    }

  cJSON_ArrayForEach(item, objects)
  {
    struct guard_object *o = &out->objects[out->nobjects];
    snprintf(where, sizeof(where), "plan.objects[%zu]", out->nobjects);
    if (!cJSON_IsObject(item)) {
      fail(err, errlen, "%s: expected an object", where);
      goto bad;
    }
    if (only_keys(item, object_keys, where, err, errlen) || parse_inode(item, &o->dev, &o->ino, &o->path, where, err, errlen))
      goto bad;
    out->nobjects++;
    if (get_int(item, "set", 1, 0x7fffffff, &d, where, err, errlen) || get_bool(item, "dir", &o->dir, where, err, errlen))
      goto bad;
    o->set = (uint32_t)d;
    /* Not in the zod schema, but an object whose set is missing would silently allow everything. */
    if (!bsearch(&o->set, set_ids, out->nsets, sizeof(*set_ids), cmp_u32)) {
      fail(err, errlen, "%s.set: no set %u in the plan", where, o->set);
      goto bad;
    }
  }

  cJSON_ArrayForEach(item, exes)
  {
    struct guard_exe *e = &out->exes[out->nexes];
    snprintf(where, sizeof(where), "plan.exes[%zu]", out->nexes);
    if (!cJSON_IsObject(item)) {
      fail(err, errlen, "%s: expected an object", where);
      goto bad;
    }
    if (only_keys(item, exe_keys, where, err, errlen) || parse_inode(item, &e->dev, &e->ino, &e->path, where, err, errlen))
      goto bad;
    out->nexes++;
    const cJSON *classes = get_array(item, "classes", 64, where, err, errlen);
    if (!classes)
      goto bad;
    const cJSON *c;
    cJSON_ArrayForEach(c, classes)
    {
      double v = c->valuedouble;
      if (!cJSON_IsNumber(c) || floor(v) != v || v < 0 || v > 63) {
        fail(err, errlen, "%s.classes: expected integers in [0, 63]", where);
        goto bad;
      }
      e->classes |= 1ull << (int)v;
    }
  }

  cJSON_ArrayForEach(item, trusted)
  {
    double v = item->valuedouble;
    if (!cJSON_IsNumber(item) || floor(v) != v || v < 1 || v > 4194304) {
      fail(err, errlen, "plan.trusted_pids[%zu]: expected a pid", out->ntrusted);
      goto bad;
    }
    out->trusted_pids[out->ntrusted++] = (uint32_t)v;
  }
  const cJSON *net = cJSON_GetObjectItemCaseSensitive(json, "net");
  if (net && parse_net(net, out, err, errlen))
    goto bad;
  free(set_ids);
  return 0;

oom:
  fail(err, errlen, "out of memory");
bad:
  free(set_ids);
  plan_free(out);
  return -1;
}

void plan_free(struct guard_plan *plan)
{
  for (size_t i = 0; i < plan->nobjects; i++)
    free(plan->objects[i].path);
  for (size_t i = 0; i < plan->nexes; i++)
    free(plan->exes[i].path);
  free(plan->objects);
  free(plan->sets);
  free(plan->exes);
  free(plan->trusted_pids);
  for (size_t i = 0; i < plan->nnet_rules; i++)
    free(plan->net_rules[i].allow);
  for (size_t i = 0; i < plan->nnet_exes; i++)
    free(plan->net_exes[i].path);
  free(plan->net_rules);
  free(plan->net_exes);
  memset(plan, 0, sizeof(*plan));
}
