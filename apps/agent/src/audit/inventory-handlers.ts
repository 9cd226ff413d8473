import { collectProcesses, collectUsers } from '@rampart/audit';
import type { AuditLevel } from '@rampart/contracts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { AuditTarget } from './audit-service.ts';

export type InventoryMethods = 'audit.users.list' | 'audit.processes.list' | 'audit.processes.get';

/**
 * The audit's user and process tabs: read and judged on each request (nothing stored), from the
 * audit target's root (passwd, shadow, sudoers, sshd, the dpkg lists; lastlog / last and sshd -T
 * through its executor) and the host's /proc. An agent without an audit target (every test agent
 * that does not pass one) answers `available: false` and reads nothing.
 */
const rank: Record<AuditLevel, number> = { danger: 3, warning: 2, hint: 1 };
const worst = (row: { findings: { level: AuditLevel }[] }) => Math.max(0, ...row.findings.map((f) => rank[f.level]));

interface Row {
  findings: { level: AuditLevel }[];
  name: string;
}
/** The words a keyword is looked for in, and the numbers it must equal. */
const wordsOf = (row: Row & Partial<{ user: string; path: string | null; cmdline: string; description: string; group: string }>) =>
  [row.name, row.user, row.path, row.cmdline, row.description, row.group].filter((w): w is string => typeof w === 'string').map((w) => w.toLowerCase());

function page<T extends Row>(rows: T[], key: (row: T) => number, query: { offset: number; limit: number; findings_only: boolean; keyword?: string }) {
  const keyword = query.keyword?.trim().toLowerCase() ?? '';
  const matches = (row: T) => keyword === '' || String(key(row)) === keyword || wordsOf(row).some((w) => w.includes(keyword));
  const findings = { hint: 0, warning: 0, danger: 0 };
  for (const row of rows) for (const f of row.findings) findings[f.level]++;
  // Worst finding first, then the natural order (uid, pid).
  const shown = rows.filter((row) => (!query.findings_only || row.findings.length > 0) && matches(row)).sort((a, b) => worst(b) - worst(a) || key(a) - key(b));
  return { available: true, total: shown.length, findings, list: shown.slice(query.offset, query.offset + query.limit) };
}

const unavailable = { available: false, total: 0, findings: { hint: 0, warning: 0, danger: 0 }, list: [] };

export function inventoryHandlers(target: AuditTarget | null): Pick<AgentHandlers, InventoryMethods> {
  return {
    'audit.users.list': async (query) => {
      if (!target) return unavailable;
      return page(await collectUsers({ root: target.root, exec: target.executor }), (u) => u.uid, query);
    },
    'audit.processes.list': async (query) => {
      if (!target) return unavailable;
      return page(collectProcesses({ root: target.root }), (p) => p.pid, query);
    },
    'audit.processes.get': async ({ pid }) => {
      if (!target) return null;
      return collectProcesses({ root: target.root, pids: [pid], allModules: true })[0] ?? null;
    },
  };
}
