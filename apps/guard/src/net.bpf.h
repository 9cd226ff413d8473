/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layouts net.bpf.c and net.c share: per-executable network denial through cgroup sock_addr
 * programs. A separate object from guard.bpf.c: cgroup programs load where BPF LSM is refused (this
 * workplace's kernel) and the LSM object loads where cgroup v2 is missing.
 */
#ifndef RAMPART_NET_BPF_H
#define RAMPART_NET_BPF_H

#define NET_TCP4 1u
#define NET_TCP6 2u
#define NET_UDP4 4u
#define NET_UDP6 8u

#define NET_MAX_RULES 64
#define NET_BANK 0x80          /* rule indexes live in two banks so an apply can flip (net.c) */
#define NET_MAP_EXES 100000
#define NET_MAP_ALLOW 262144   /* both banks together (no prealloc: memory follows the entries) */

/* An inode: s_dev in the kernel's encoding ((major << 20) | minor) and i_ino. */
struct net_inode_key {
  __u64 dev;
  __u64 ino;
};

/* The rules restricting an executable, one mask per bank (bit i: rule i of that bank). */
struct net_exe_val {
  __u64 rules[2];
};

/* One rule: index (bank * NET_MAX_RULES + i) of the rules array. */
struct net_rule_val {
  __u32 deny;           /* NET_* bits */
  __u32 nallow;         /* 0: no peer is allowed, skip the trie */
  char rule[32];
};

/* Allowed peers: (bank | rule index, family, address); prefixlen counts the 16 leading bits too. */
struct net_allow_key {
  __u32 prefixlen;
  __u8 rule;            /* rule index | NET_BANK for bank 1 */
  __u8 family;          /* 4 or 6 */
  __u8 addr[16];        /* network order; IPv4 in the first 4 bytes */
};

struct net_config {
  __u32 enforce;
  __u32 bank;
  __u64 generation;
  __u32 nexes;          /* 0: nothing restricted, every decision is one array lookup */
  __u32 nrules;         /* rules in the live bank: the decision tries no more */
};

struct net_record {
  __u32 proto;          /* one NET_* bit */
  __u32 pid, tgid, uid;
  __u64 exe_dev, exe_ino;
  __u8 addr[16];
  __u16 port;           /* host order */
  __u8 family, rule_index;
  char comm[16];
  char rule[32];
};

#endif
