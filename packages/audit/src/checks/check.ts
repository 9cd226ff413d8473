import type { AuditCategory, AuditEvidence, AuditLevel, AuditOutcome, LocalizedText } from '@rampart/contracts';
import type { FactName, Facts } from '../facts/facts.ts';

/**
 * A check is data (id, CIS section, category, level, texts) plus a small function over the facts.
 * `fix`, where a safe one exists, names the change as data; the reinforcement planner turns it
 * into file writes and the executor applies it. No check reads a file or runs a command itself.
 */
export interface Verdict {
  outcome: AuditOutcome;
  evidence: AuditEvidence[];
}

export type FixSpec =
  /** Keywords for /etc/ssh/sshd_config.d/60-rampart-<id>.conf. */
  | { kind: 'sshd_dropin'; settings: Record<string, string> }
  /** Keys for /etc/sysctl.d/60-rampart-<id>.conf. */
  | { kind: 'sysctl_dropin'; settings: Record<string, string> }
  /** `[Journal]` keys for /etc/systemd/journald.conf.d/60-rampart-<id>.conf. */
  | { kind: 'journald_dropin'; settings: Record<string, string> }
  /** Modules for /etc/modprobe.d/60-rampart-<id>.conf: `install <m> /bin/false` and `blacklist <m>`. */
  | { kind: 'modprobe_dropin'; modules: string[] }
  /** Keys set in place in /etc/login.defs (no drop-in directory exists for it). */
  | { kind: 'login_defs'; settings: Record<string, string> }
  /** Mode and owner changes in place. */
  | { kind: 'attributes'; targets: { path: string; mode?: number; uid?: number; gid?: number }[] };

export interface AuditCheck {
  id: string;
  /** The CIS Debian Linux 12 benchmark section the check belongs to; empty where none applies. */
  cisSection: string;
  category: AuditCategory;
  level: AuditLevel;
  title: LocalizedText;
  advice: LocalizedText;
  /** The facts `run` reads: when one of them could not be gathered the check is an error. */
  uses: readonly FactName[];
  run: (facts: Facts) => Verdict;
  fix?: (facts: Facts) => FixSpec;
}

export const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

export const pass = (...evidence: AuditEvidence[]): Verdict => ({ outcome: 'pass', evidence });
export const fail = (...evidence: AuditEvidence[]): Verdict => ({ outcome: 'fail', evidence });
export const notApplicable = (note: string): Verdict => ({ outcome: 'not_applicable', evidence: [{ note }] });

/** Long lists (SUID files, changed package files) are cut to this many evidence rows plus a count. */
export const evidenceLimit = 50;

export function listEvidence(items: AuditEvidence[]): AuditEvidence[] {
  if (items.length <= evidenceLimit) return items;
  return [...items.slice(0, evidenceLimit), { note: `${items.length - evidenceLimit} more` }];
}

/** pass when the list is empty, fail listing it otherwise. */
export function noneOf(items: AuditEvidence[], passNote: string): Verdict {
  return items.length === 0 ? pass({ note: passNote }) : fail(...listEvidence(items));
}
