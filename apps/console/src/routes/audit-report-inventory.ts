import type { AuditProcess, AuditUser } from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/** The agent's largest page. */
const page = 200;

/**
 * The user and process tabs' findings for the report: every row with a finding, all pages. A tab
 * the agent cannot read (no audit root) gives undefined, so the report leaves its section out.
 */
export async function inventoryFindings(agent: AgentPort): Promise<{ users?: AuditUser[]; processes?: AuditProcess[] }> {
  const all = async <T>(method: 'audit.users.list' | 'audit.processes.list') => {
    const rows: T[] = [];
    for (;;) {
      const answer = await agent.call(method, { offset: rows.length, limit: page, findings_only: true });
      if (!answer.available) return undefined;
      rows.push(...(answer.list as T[]));
      if (answer.list.length === 0 || rows.length >= answer.total) return rows;
    }
  };
  const [users, processes] = await Promise.all([all<AuditUser>('audit.users.list'), all<AuditProcess>('audit.processes.list')]);
  return { ...(users ? { users } : {}), ...(processes ? { processes } : {}) };
}
