import { z } from 'zod';
import { guardBackendSchema, tamperOpSchema } from './tamper.ts';

/*
 * The guard helper's protocol (apps/guard, C, root): ndjson over a unix socket, one JSON object per
 * line each way. The agent sends a plan made by the pure planner (packages/guard); the helper only
 * loads programs, fills maps and reports denials. Nothing here is policy: every decision the kernel
 * makes is a table lookup over these entries.
 *
 *   → {"id":1,"op":"hello"}                      ← {"id":1,"ok":true,"hello":{...}}
 *   → {"id":2,"op":"apply","plan":{...}}         ← {"id":2,"ok":true,"applied":{"generation":N,...}}
 *   → {"id":3,"op":"status"}                     ← {"id":3,"ok":true,"hello":{...}}
 *   ← {"event":"denied", ...}                    (unsolicited, any time)
 *   ← {"event":"net_denied", ...}                (unsolicited: a network denial, see guardNetDenialSchema)
 *   ← {"id":N,"ok":false,"error":"message"}
 */

/** Operation bits as the kernel tables carry them. */
export const guardOpBits = { r: 1, x: 2, d: 4, c: 8, n: 16, w: 32, t: 64 } as const;
export const guardAllOps = 127;

/**
 * How a rule matches the name of the entry acted on (its last path component): `any`; `exact` a;
 * `prefix` a*; `suffix` *a; `contains` *a*; `prefix_suffix` a*b. Each part at most 63 bytes.
 */
export const guardNameKinds = ['any', 'exact', 'prefix', 'suffix', 'contains', 'prefix_suffix'] as const;
export const guardNameMatchSchema = z
  .object({ kind: z.enum(guardNameKinds), a: z.string().max(63), b: z.string().max(63) })
  .strict();
export type GuardNameMatch = z.infer<typeof guardNameMatchSchema>;

/** Process classes are bit positions 0..63 of an executable's class mask; -1: any process. */
const classIndex = z.number().int().min(-1).max(63);

/**
 * One slot of a rule set, tried in order; the first slot that matches decides.
 * A slot matches an access when: the operation's bit is in `covers`; the process is not trusted;
 * `proc` is -1 or the executable carries class `proc`; `exempt` is -1 or the executable does NOT
 * carry class `exempt`; the entry kind fits `target`; and the entry's name fits `name` (or, with
 * `malformed`, the name is malformed). Then the access is denied when the bit is in `deny`, else
 * allowed. No slot matching: allowed.
 */
export const guardSlotSchema = z
  .object({
    /** The rule behind the slot, for events: `tamper:<id>`, `name:<id>`, `self` (Rampart's own files). */
    rule: z.string().max(31), // the C side keeps it in char[32] with its NUL
    covers: z.number().int().min(0).max(guardAllOps),
    deny: z.number().int().min(0).max(guardAllOps),
    proc: classIndex,
    exempt: classIndex,
    target: z.enum(['any', 'file', 'dir']),
    name: guardNameMatchSchema,
    /** Matches only names that are malformed (control bytes, invalid UTF-8, trailing dot/space, `a.php.jpg`). */
    malformed: z.boolean(),
    notify: z.boolean(),
  })
  .strict();
export type GuardSlot = z.infer<typeof guardSlotSchema>;

/** The most slots one set holds in the kernel; the planner warns and drops past it. */
export const guardMaxSlots = 16;
/** How many parent directories the kernel walks up from an entry to find a protected object. */
export const guardMaxDepth = 24;

export const guardSetSchema = z.object({ id: z.number().int().min(1), slots: z.array(guardSlotSchema).max(guardMaxSlots) }).strict();
export type GuardSet = z.infer<typeof guardSetSchema>;

/**
 * A protected object: an inode (as `stat` reports st_dev and st_ino; the helper converts the device
 * number to the kernel's encoding). An access to the object or anything below it (the kernel walks
 * up to `guardMaxDepth` parents, the nearest object wins) is judged by the object's set. `path` is
 * what events and the fanotify backend use.
 */
export const guardObjectSchema = z
  .object({ dev: z.number().int().nonnegative(), ino: z.number().int().nonnegative(), path: z.string(), set: z.number().int().min(1), dir: z.boolean() })
  .strict();
export type GuardObject = z.infer<typeof guardObjectSchema>;

/** An executable (by inode) and the process classes it belongs to. */
export const guardExeSchema = z
  .object({ dev: z.number().int().nonnegative(), ino: z.number().int().nonnegative(), path: z.string(), classes: z.array(z.number().int().min(0).max(63)).max(64) })
  .strict();
export type GuardExe = z.infer<typeof guardExeSchema>;

/**
 * Per-executable network denial (cgroup connect4/6 and sendmsg4/6 programs). Protocol bits of a net
 * rule's `deny`; TCP is judged at connect, UDP at connect and at an addressed send.
 */
export const guardNetBits = { tcp4: 1, tcp6: 2, udp4: 4, udp6: 8 } as const;
export const guardNetAllProtos = 15;
/** The most net rules (a net executable's `rules` are bit positions 0..63). */
export const guardMaxNetRules = 64;
/** The most allowed peer networks one rule carries, and all rules together (the kernel's LPM trie). A country is up to a few tens of thousands of CIDRs (CN 14,705, JP 42,247 in the shipped data; US 293,238 is capped: partial). */
export const guardMaxNetAllowPerRule = 65_536;
export const guardMaxNetAllow = 131_072;

/** `a.b.c.d/n` or an IPv6 `x::y/n`, canonical as the planner writes it: host bits zero (the helper refuses others). */
const netCidr = z.string().max(50).regex(/^[0-9a-fA-F:.]+\/\d{1,3}$/);

export const guardNetRuleSchema = z
  .object({
    /** The rule behind the denial, for events: `process:<id>`. */
    rule: z.string().max(31),
    /** guardNetBits of the protocols denied. */
    deny: z.number().int().min(0).max(guardNetAllProtos),
    /** Peers still allowed for the denied protocols (empty: none). */
    allow: z.array(netCidr).max(guardMaxNetAllowPerRule),
  })
  .strict();
export type GuardNetRule = z.infer<typeof guardNetRuleSchema>;

/** An executable (by inode) and the net rules (indexes into `rules`) that restrict it. */
export const guardNetExeSchema = z
  .object({ dev: z.number().int().nonnegative(), ino: z.number().int().nonnegative(), path: z.string(), rules: z.array(z.number().int().min(0).max(guardMaxNetRules - 1)).max(guardMaxNetRules) })
  .strict();
export type GuardNetExe = z.infer<typeof guardNetExeSchema>;

/** The net part of a plan: its own executables, so the file planner's classes stay its own. */
export const guardNetPlanSchema = z
  .object({
    rules: z.array(guardNetRuleSchema).max(guardMaxNetRules),
    exes: z.array(guardNetExeSchema).max(100_000),
  })
  .strict()
  .refine((net) => net.rules.reduce((n, r) => n + r.allow.length, 0) <= guardMaxNetAllow, { message: `at most ${guardMaxNetAllow} allowed networks in all` })
  .refine((net) => net.exes.every((e) => e.rules.every((i) => i < net.rules.length)), { message: 'an executable names a rule the plan does not have' });
export type GuardNetPlan = z.infer<typeof guardNetPlanSchema>;

export const guardPlanSchema = z
  .object({
    generation: z.number().int().nonnegative(),
    /** False while the module is off or protection is paused: the tables stay, nothing is denied. */
    enforce: z.boolean(),
    objects: z.array(guardObjectSchema).max(200_000),
    sets: z.array(guardSetSchema).max(65_535),
    exes: z.array(guardExeSchema).max(100_000),
    /** Processes (thread-group ids) never denied: the agent and the helper themselves. */
    trusted_pids: z.array(z.number().int().positive()).max(64),
    /** Network denial per executable; absent: none (the helper clears what a previous plan set). */
    net: guardNetPlanSchema.optional(),
  })
  .strict();
export type GuardPlan = z.infer<typeof guardPlanSchema>;

/** What the helper says about itself. `ops` are the operations its backend can deny. */
export const guardHelloSchema = z.object({
  backend: guardBackendSchema,
  kernel: z.string(),
  ops: z.array(tamperOpSchema),
  /** Why a better backend is not running (`lsm_refused`, `lsm_unavailable`, ...); empty for lsm. */
  cause: z.string(),
  generation: z.number().int(),
  pinned: z.boolean(),
  /** Whether the cgroup network programs run (whatever the file backend); absent from older helpers. */
  net: z.boolean().optional(),
  /** Why they do not (`net_refused`, `net_no_cgroup2`, ...); empty when they run. */
  net_cause: z.string().optional(),
});
export type GuardHello = z.infer<typeof guardHelloSchema>;

export const guardAppliedSchema = z.object({
  generation: z.number().int(),
  objects: z.number().int(),
  sets: z.number().int(),
  exes: z.number().int(),
  /** Net rules and net executables written (absent from older helpers). */
  net_rules: z.number().int().optional(),
  net_exes: z.number().int().optional(),
});

/** One denial, as the helper reports it. `path` is best effort (the object's path plus the names walked). */
export const guardDenialSchema = z.object({
  event: z.literal('denied'),
  op: tamperOpSchema,
  rule: z.string(),
  notify: z.boolean(),
  pid: z.number().int(),
  uid: z.number().int(),
  comm: z.string(),
  exe: z.string(),
  path: z.string(),
  /** Denials of the same (pid, op, rule) folded into this one since the last report. */
  repeats: z.number().int().min(1),
  time: z.number().int(),
});
export type GuardDenial = z.infer<typeof guardDenialSchema>;

/** One network denial: a restricted executable's connect or addressed send. Folded like file denials. */
export const guardNetDenialSchema = z.object({
  event: z.literal('net_denied'),
  proto: z.enum(['tcp', 'udp']),
  family: z.union([z.literal(4), z.literal(6)]),
  peer: z.string(),
  port: z.number().int().min(0).max(65_535),
  rule: z.string(),
  pid: z.number().int(),
  uid: z.number().int(),
  comm: z.string(),
  exe: z.string(),
  /** Denials of the same (pid, proto, peer, port, rule) folded into this one since the last report. */
  repeats: z.number().int().min(1),
  time: z.number().int(),
});
export type GuardNetDenial = z.infer<typeof guardNetDenialSchema>;
