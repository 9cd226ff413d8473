import type { AttackSettings, FirewallRule } from '@rampart/contracts';
import type { PlannedRemote } from './plan-remote.ts';

/** The lists that become kernel sets, in the order the input chain consults them. */
export const addressLists = ['super', 'white', 'black'] as const;
export type AddressList = (typeof addressLists)[number];

/** A list entry as the planner needs it: its text (single, CIDR or range) and when it ends (ms), if ever. */
export interface PlannedListEntry {
  address: string;
  expires_at: number | null;
}

export interface PlannedIntercept {
  ip: string;
  expires_at: number;
}

/** Everything the kernel ruleset is made from. The agent assembles it from its store. */
export interface DesiredFirewall {
  rules: readonly FirewallRule[];
  lists: Readonly<Record<AddressList, readonly PlannedListEntry[]>>;
  intercept: readonly PlannedIntercept[];
  /** Port-scan detection runs in the kernel, so its settings are part of the ruleset. */
  portScan: AttackSettings['port_scan'];
  /** Remote-login protection: absent or null when it is off (or sshd listens nowhere). */
  remote?: PlannedRemote | null;
  /** Now, in ms: timeouts are computed from it. */
  now: number;
}

/** Turns area codes into address ranges (`a-b` or CIDR text), from the geo-IP data. */
export interface AreaResolver {
  ranges(codes: readonly string[]): { v4: readonly string[]; v6: readonly string[] };
}

/** Which areas an address is in (country and province codes), for evaluating rules without the kernel. */
export type AreaLookup = (ip: string) => readonly string[];
