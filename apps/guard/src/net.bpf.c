// SPDX-License-Identifier: GPL-2.0
/*
 * Rampart guard, network denial per executable: cgroup connect4/6 and sendmsg4/6 programs. Every
 * decision is a table lookup over maps net.c fills from the plan's net part; no policy lives here.
 *
 * A decision: (1) the calling process's executable (mm->exe_file's dev, ino) → the rules restricting
 * it (none: allowed, the common case, one hash lookup); (2) for each such rule that denies this
 * protocol, the peer is allowed only when the rule's LPM trie holds a network containing it. A denial
 * returns 0 (the caller gets EPERM) and pushes a record to the ring buffer.
 * TCP is judged at connect; UDP at connect and at an addressed send (sendmsg4/6 do not run for sends
 * on a connected socket, whose connect was judged). IPv4-mapped IPv6 peers are judged as IPv4.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "net.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define SOCK_STREAM 1
#define SOCK_DGRAM 2

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, NET_MAP_EXES);
  __type(key, struct net_inode_key);
  __type(value, struct net_exe_val);
} net_exes SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 2 * NET_MAX_RULES);
  __type(key, __u32);
  __type(value, struct net_rule_val);
} net_rules SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_LPM_TRIE);
  __uint(max_entries, NET_MAP_ALLOW);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, struct net_allow_key);
  __type(value, __u8);
} net_allow SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct net_config);
} net_cfg SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 256 * 1024);
} net_denials SEC(".maps");

struct decide_ctx {
  __u64 mask;
  __u32 proto, bank, denied, index;
  struct net_allow_key key;
};

/* Rule i (when the executable carries it): denies this protocol, and the peer is not allowed. */
static long rule_cb(__u32 i, struct decide_ctx *c)
{
  if (!(c->mask & (1ull << (i & 63))))
    return 0;
  __u32 slot = c->bank * NET_MAX_RULES + (i & 63);
  struct net_rule_val *r = bpf_map_lookup_elem(&net_rules, &slot);
  if (!r || !(r->deny & c->proto))
    return 0;
  if (r->nallow) {
    c->key.rule = (__u8)((i & 63) | (c->bank ? NET_BANK : 0));
    if (bpf_map_lookup_elem(&net_allow, &c->key))
      return 0;
  }
  c->denied = 1;
  c->index = i & 63;
  return 1;
}

/* 1: allow, 0: deny. family 4 reads addr[0..4), 6 all 16 bytes. */
static __always_inline int decide(__u32 proto, __u8 family, const __u32 *addr, __u16 port_be)
{
  __u32 zero = 0;
  struct net_config *cfg = bpf_map_lookup_elem(&net_cfg, &zero);
  if (!cfg || !cfg->enforce || !cfg->nexes)
    return 1;
  struct task_struct *task = bpf_get_current_task_btf();
  struct file *exe_file = BPF_CORE_READ(task, mm, exe_file);
  if (!exe_file)
    return 1; /* kernel threads */
  struct inode *inode = BPF_CORE_READ(exe_file, f_inode);
  struct net_inode_key ek = {};
  ek.dev = BPF_CORE_READ(inode, i_sb, s_dev);
  ek.ino = BPF_CORE_READ(inode, i_ino);
  struct net_exe_val *ev = bpf_map_lookup_elem(&net_exes, &ek);
  if (!ev)
    return 1;

  struct decide_ctx c = {};
  c.bank = cfg->bank ? 1 : 0;
  c.mask = ev->rules[c.bank];
  if (!c.mask)
    return 1;
  c.proto = proto;
  c.key.prefixlen = 16 + (family == 4 ? 32 : 128);
  c.key.family = family;
  __builtin_memcpy(c.key.addr, addr, 16);
  bpf_loop(cfg->nrules < NET_MAX_RULES ? cfg->nrules : NET_MAX_RULES, rule_cb, &c, 0);
  if (!c.denied)
    return 1;

  struct net_record *rec = bpf_ringbuf_reserve(&net_denials, sizeof(*rec), 0);
  if (rec) {
    __u32 slot = c.bank * NET_MAX_RULES + c.index;
    struct net_rule_val *r = bpf_map_lookup_elem(&net_rules, &slot);
    rec->proto = proto;
    rec->pid = BPF_CORE_READ(task, pid);
    rec->tgid = BPF_CORE_READ(task, tgid);
    rec->uid = BPF_CORE_READ(task, cred, uid.val);
    rec->exe_dev = ek.dev;
    rec->exe_ino = ek.ino;
    __builtin_memcpy(rec->addr, addr, 16);
    rec->port = bpf_ntohs(port_be);
    rec->family = family;
    rec->rule_index = (__u8)c.index;
    BPF_CORE_READ_STR_INTO(&rec->comm, task, comm);
    if (r)
      __builtin_memcpy(rec->rule, r->rule, sizeof(rec->rule));
    else
      rec->rule[0] = 0;
    bpf_ringbuf_submit(rec, 0);
  }
  return 0;
}

static __always_inline int judge4(struct bpf_sock_addr *ctx, int send)
{
  __u32 addr[4] = {};
  __u32 type = ctx->type;
  if (type != SOCK_STREAM && type != SOCK_DGRAM)
    return 1; /* raw sockets and others: not in a rule's scope */
  if (send && type != SOCK_DGRAM)
    return 1;
  addr[0] = ctx->user_ip4;
  return decide(type == SOCK_STREAM ? NET_TCP4 : NET_UDP4, 4, addr, (__u16)ctx->user_port);
}

static __always_inline int judge6(struct bpf_sock_addr *ctx, int send)
{
  __u32 addr[4] = {};
  __u32 type = ctx->type;
  if (type != SOCK_STREAM && type != SOCK_DGRAM)
    return 1;
  if (send && type != SOCK_DGRAM)
    return 1;
  addr[0] = ctx->user_ip6[0];
  addr[1] = ctx->user_ip6[1];
  addr[2] = ctx->user_ip6[2];
  addr[3] = ctx->user_ip6[3];
  if (addr[0] == 0 && addr[1] == 0 && addr[2] == bpf_htonl(0xffff)) {
    /* ::ffff:a.b.c.d on a dual-stack socket reaches an IPv4 peer: judge it as IPv4 */
    __u32 v4[4] = { addr[3], 0, 0, 0 };
    return decide(type == SOCK_STREAM ? NET_TCP4 : NET_UDP4, 4, v4, (__u16)ctx->user_port);
  }
  return decide(type == SOCK_STREAM ? NET_TCP6 : NET_UDP6, 6, addr, (__u16)ctx->user_port);
}

SEC("cgroup/connect4")
int net_connect4(struct bpf_sock_addr *ctx) { return judge4(ctx, 0); }

SEC("cgroup/connect6")
int net_connect6(struct bpf_sock_addr *ctx) { return judge6(ctx, 0); }

SEC("cgroup/sendmsg4")
int net_sendmsg4(struct bpf_sock_addr *ctx) { return judge4(ctx, 1); }

SEC("cgroup/sendmsg6")
int net_sendmsg6(struct bpf_sock_addr *ctx) { return judge6(ctx, 1); }
