/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan as the helper holds it: parsed from the agent's JSON (packages/contracts/src/guard-helper.ts
 * is the one definition of the shape; keep these structs in step with it). Shared by both backends.
 */
#ifndef RAMPART_GUARD_PLAN_H
#define RAMPART_GUARD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUARD_OP_R 1u   /* read */
#define GUARD_OP_X 2u   /* execute */
#define GUARD_OP_D 4u   /* delete */
#define GUARD_OP_C 8u   /* create */
#define GUARD_OP_N 16u  /* rename */
#define GUARD_OP_W 32u  /* modify (also mode, owner, truncate) */
#define GUARD_OP_T 64u  /* modify time */
#define GUARD_OP_ALL 127u

#define GUARD_MAX_SLOTS 16
#define GUARD_MAX_DEPTH 24
#define GUARD_NAME_MAX 64 /* 63 bytes + NUL */

enum guard_name_kind { NAME_ANY = 0, NAME_EXACT, NAME_PREFIX, NAME_SUFFIX, NAME_CONTAINS, NAME_PREFIX_SUFFIX };
enum guard_target { TARGET_ANY = 0, TARGET_FILE, TARGET_DIR };

struct guard_slot {
  char rule[32];          /* "tamper:12", "name:3", "self" */
  uint32_t covers, deny;  /* GUARD_OP_* masks */
  int32_t proc, exempt;   /* class index 0..63, -1 = any / none */
  uint8_t target;         /* enum guard_target */
  uint8_t name_kind;      /* enum guard_name_kind */
  bool malformed, notify;
  char name_a[GUARD_NAME_MAX], name_b[GUARD_NAME_MAX];
};

struct guard_set {
  uint32_t id;
  uint32_t nslots;
  struct guard_slot slots[GUARD_MAX_SLOTS];
};

struct guard_object {
  uint64_t dev; /* st_dev as stat(2) reports it (userspace encoding) */
  uint64_t ino;
  uint32_t set;
  bool dir;
  char *path;
};

struct guard_exe {
  uint64_t dev, ino;
  uint64_t classes; /* bit i set: the executable is in class i */
  char *path;
};

/* Network denial (net.c): guardNetBits of guard-helper.ts. */
#define GUARD_NET_TCP4 1u
#define GUARD_NET_TCP6 2u
#define GUARD_NET_UDP4 4u
#define GUARD_NET_UDP6 8u
#define GUARD_NET_ALL 15u
#define GUARD_NET_MAX_RULES 64
#define GUARD_NET_MAX_ALLOW_PER_RULE 65536
#define GUARD_NET_MAX_ALLOW 131072

struct guard_net_cidr {
  uint8_t family;   /* 4 or 6 */
  uint8_t prefix;   /* 0..32 / 0..128 */
  uint8_t addr[16]; /* network order; IPv4 in the first 4 bytes */
};

struct guard_net_rule {
  char rule[32];
  uint32_t deny; /* GUARD_NET_* */
  size_t nallow;
  struct guard_net_cidr *allow;
};

struct guard_net_exe {
  uint64_t dev, ino;
  uint64_t rules; /* bit i: restricted by rules[i] */
  char *path;
};

struct guard_plan {
  uint64_t generation;
  bool enforce;
  size_t nobjects, nsets, nexes, ntrusted;
  struct guard_object *objects;
  struct guard_set *sets;
  struct guard_exe *exes;
  uint32_t *trusted_pids;
  /* The net part (absent in the JSON: no rules, no executables). */
  size_t nnet_rules, nnet_exes;
  struct guard_net_rule *net_rules;
  struct guard_net_exe *net_exes;
};

/* Parses one plan object (cJSON); returns 0 or -1 with a message in err. */
struct cJSON;
int plan_from_json(const struct cJSON *json, struct guard_plan *out, char *err, size_t errlen);
void plan_free(struct guard_plan *plan);

#endif
