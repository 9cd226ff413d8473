import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ReinforceItemResult } from '@rampart/contracts';
import type { AuditCheck, FixSpec } from '../checks/check.ts';
import { checksById } from '../checks/catalogue.ts';
import type { Facts } from '../facts/facts.ts';
import { effectiveSshd, overlayReader, readWrittenSshdConfig, sshdDropInDir } from '../facts/sshd-config.ts';
import { configuredSysctl } from '../facts/sysctl.ts';
import { judge } from '../run-audit.ts';
import { adminPaths, type SshAccess } from './lockout.ts';
import type { PlannedItem } from './plan-schema.ts';

/**
 * The reinforcement planner: selected check ids + the audit's facts → plan items, or refusals
 * with a reason key. Pure: it reads only the facts. Drop-ins are preferred (revert deletes one
 * file); login.defs and file modes are edited in place and journaled by the executor. A drop-in
 * that an earlier (sshd: first wins) or later (sysctl, journald: last wins) setting would shadow
 * is refused rather than written to no effect.
 */
export interface Plan {
  items: PlannedItem[];
  refused: ReinforceItemResult[];
}

export const dropInName = (checkId: string) => `60-rampart-${checkId.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}.conf`;
const header = (checkId: string) => `# Written by Rampart's reinforcement for check ${checkId}. Delete this file to undo it.\n`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const cmd = (command: string, ...args: string[]) => ({ command, args });

type Refusal = { key: string; values?: Record<string, string> };
type Built = { item: PlannedItem } | { refusal: Refusal };

function sshdItem(checkId: string, settings: Record<string, string>, facts: Facts): Built {
  const file = `${sshdDropInDir}/${dropInName(checkId)}`;
  const content = header(checkId) + Object.entries(settings).map(([k, v]) => `${k} ${v}\n`).join('');
  // Replay sshd's reading with the drop-in added: the first value must now come from it.
  const { written } = readWrittenSshdConfig(overlayReader(facts.sshd.snapshot, { [file]: content }));
  for (const keyword of Object.keys(settings)) {
    const winner = written.get(keyword.toLowerCase());
    if (winner?.file !== file) return { refusal: { key: 'audit_fix_shadowed', values: { file: winner?.file ?? '/etc/ssh/sshd_config', line: String(winner?.line ?? 0), key: keyword } } };
  }
  return {
    item: {
      checkId,
      steps: [{ kind: 'write', path: file, content, mode: 0o644 }],
      validate: [cmd('sshd', '-t')],
      activate: [cmd('systemctl', 'reload', 'ssh')],
      deactivate: [cmd('systemctl', 'reload', 'ssh')],
      effect: 'reload',
      service: 'ssh',
    },
  };
}

function sysctlItem(checkId: string, settings: Record<string, string>, facts: Facts): Built {
  const name = dropInName(checkId);
  const file = `/etc/sysctl.d/${name}`;
  for (const key of Object.keys(settings)) {
    // Last wins, files sorted by name; /etc/sysctl.conf is read after every sysctl.d file.
    const later = facts.sysctl.assignments.filter((a) => (a.file === '/etc/sysctl.conf' || path.posix.basename(a.file) > name) && configuredSysctl({ assignments: [a], excluded: facts.sysctl.excluded }, key));
    const last = later.at(-1);
    if (last) return { refusal: { key: 'audit_fix_shadowed', values: { file: last.file, line: String(last.line), key } } };
  }
  const previous = Object.keys(settings).flatMap((key) => {
    const live = facts.sysctl.live?.get(key);
    return live === undefined ? [] : [cmd('sysctl', '-w', `${key}=${live}`)];
  });
  return {
    item: {
      checkId,
      steps: [{ kind: 'write', path: file, content: header(checkId) + Object.entries(settings).map(([k, v]) => `${k} = ${v}\n`).join(''), mode: 0o644 }],
      validate: [],
      activate: [cmd('sysctl', '-p', file)],
      deactivate: previous,
      effect: 'reload',
      service: 'sysctl',
    },
  };
}

function journaldItem(checkId: string, settings: Record<string, string>, facts: Facts): Built {
  const name = dropInName(checkId);
  for (const key of Object.keys(settings)) {
    const winner = facts.journald.get(`Journal.${key}`);
    if (winner && winner.file.startsWith('/etc/systemd/journald.conf.d/') && path.posix.basename(winner.file) > name)
      return { refusal: { key: 'audit_fix_shadowed', values: { file: winner.file, line: String(winner.line), key } } };
  }
  const restart = cmd('systemctl', 'restart', 'systemd-journald');
  return {
    item: {
      checkId,
      steps: [{ kind: 'write', path: `/etc/systemd/journald.conf.d/${name}`, content: `${header(checkId)}[Journal]\n${Object.entries(settings).map(([k, v]) => `${k}=${v}\n`).join('')}`, mode: 0o644 }],
      validate: [],
      activate: [restart],
      deactivate: [restart],
      effect: 'reload',
      service: 'systemd-journald',
    },
  };
}

/** Sets each key on its last line (the one shadow-utils uses), or appends it; everything else stays byte for byte. */
export function editLoginDefs(text: string, settings: Record<string, string>): string {
  const lines = text.split('\n');
  for (const [key, value] of Object.entries(settings)) {
    const index = lines.findLastIndex((l) => new RegExp(`^\\s*${key}\\s`).test(l) || l.trim() === key);
    if (index >= 0) lines[index] = `${key}\t${value}`;
    else {
      if (lines.at(-1) === '') lines.pop();
      lines.push(`${key}\t${value}`, '');
    }
  }
  return lines.join('\n');
}

/** Texts of files earlier items of the same plan edit in place: a later edit builds on them. */
type Pending = Map<string, string>;

function build(check: AuditCheck, fix: FixSpec, facts: Facts, pending: Pending): Built {
  switch (fix.kind) {
    case 'sshd_dropin':
      return sshdItem(check.id, fix.settings, facts);
    case 'sysctl_dropin':
      return sysctlItem(check.id, fix.settings, facts);
    case 'journald_dropin':
      return journaldItem(check.id, fix.settings, facts);
    case 'modprobe_dropin':
      return {
        item: {
          checkId: check.id,
          steps: [{ kind: 'write', path: `/etc/modprobe.d/${dropInName(check.id)}`, content: header(check.id) + fix.modules.map((m) => `install ${m} /bin/false\nblacklist ${m}\n`).join(''), mode: 0o644 }],
          validate: [],
          activate: [],
          deactivate: [],
          // A module already loaded stays until the next boot.
          effect: 'reboot',
        },
      };
    case 'login_defs': {
      const file = facts.loginDefsFile;
      if (!file) return { refusal: { key: 'audit_apply_failed', values: { error: '/etc/login.defs is missing' } } };
      const base = pending.get(file.path) ?? file.text;
      const content = editLoginDefs(base, fix.settings);
      pending.set(file.path, content);
      return {
        item: { checkId: check.id, steps: [{ kind: 'write', path: file.path, content, mode: file.mode, expectSha256: sha256(base) }], validate: [], activate: [], deactivate: [], effect: 'none' },
      };
    }
    case 'attributes':
      return { item: { checkId: check.id, steps: fix.targets.map((t) => ({ kind: 'attributes' as const, ...t })), validate: [], activate: [], deactivate: [], effect: 'none' } };
  }
}

/** PermitRootLogin and PasswordAuthentication once the sshd items planned so far are in place. */
function accessAfter(items: PlannedItem[], facts: Facts): SshAccess {
  const planned = (keyword: string) => {
    for (const item of items)
      for (const step of item.steps)
        if (step.kind === 'write' && step.path.startsWith(`${sshdDropInDir}/`)) {
          const line = step.content.split('\n').find((l) => l.toLowerCase().startsWith(`${keyword.toLowerCase()} `));
          if (line) return line.slice(keyword.length + 1).trim();
        }
    return effectiveSshd(facts.sshd, keyword).value;
  };
  return { permitRootLogin: planned('PermitRootLogin'), passwordAuthentication: planned('PasswordAuthentication') };
}

const lockoutReason: Record<string, string> = { PasswordAuthentication: 'audit_lockout_password_auth', PermitRootLogin: 'audit_lockout_root_login' };

export function planReinforcement(facts: Facts, checkIds: readonly string[], checks: ReadonlyMap<string, AuditCheck> = checksById): Plan {
  const plan: Plan = { items: [], refused: [] };
  const pending: Pending = new Map();
  const refuse = (checkId: string, reason: Refusal) => plan.refused.push({ checkId, status: 'refused', effect: 'none', reason });
  for (const checkId of new Set(checkIds)) {
    const check = checks.get(checkId);
    if (!check) {
      refuse(checkId, { key: 'audit_unknown_check', values: { id: checkId } });
      continue;
    }
    if (!check.fix) {
      refuse(checkId, { key: 'audit_not_fixable', values: { id: checkId } });
      continue;
    }
    if (judge(check, facts).outcome !== 'fail') {
      refuse(checkId, { key: 'audit_already_passing', values: { id: checkId } });
      continue;
    }
    const fix = check.fix(facts);
    const built = build(check, fix, facts, pending);
    if ('refusal' in built) {
      refuse(checkId, built.refusal);
      continue;
    }
    if (fix.kind === 'sshd_dropin') {
      const touched = Object.keys(fix.settings).find((k) => lockoutReason[k]);
      if (touched && adminPaths(facts.accounts, accessAfter([...plan.items, built.item], facts)).length === 0) {
        refuse(checkId, { key: lockoutReason[touched] as string });
        continue;
      }
    }
    plan.items.push(built.item);
  }
  return plan;
}
