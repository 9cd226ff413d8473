import { listChunkSize, type MessageKey, type ShortcutAction } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { pauseProtection, readProtection, resumeProtection } from '../services/protection.ts';

type Params = Record<string, string | number>;

/** What a run or a dry check answers: a message key with its parameters. */
export interface Outcome {
  msg: MessageKey;
  params: Params;
}

/** One spelling per address, so `2001:DB8::1` and `2001:db8:0::1` are the same entry. */
export function canonicalIp(ip: string): string {
  const bare = ip.trim().toLowerCase();
  if (!bare.includes(':')) return bare;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return bare;
  }
}

/** Ids of the interception entries of `ip` (the list holds single addresses). */
async function interceptIdsOf(ctx: ConsoleContext, ip: string): Promise<number[]> {
  const wanted = canonicalIp(ip);
  const page = await ctx.agent.call('firewall.intercept.list', { keyword: wanted, offset: 0, limit: listChunkSize });
  return page.list.filter((e) => canonicalIp(e.ip) === wanted).map((e) => e.id);
}

/**
 * Runs a shortcut's operation. `actor` names who did it in the protection service's own records
 * (`shortcut:<name>`). Agent failures throw; the caller records and reports them.
 */
export async function runOperation(ctx: ConsoleContext, action: ShortcutAction, actor: string): Promise<Outcome> {
  switch (action.operation) {
    case 'pause_protection':
      await pauseProtection(ctx, action.minutes, actor);
      return { msg: 'sc_page_done_pause_protection', params: { minutes: action.minutes } };
    case 'resume_protection':
      await resumeProtection(ctx, actor);
      return { msg: 'sc_page_done_resume_protection', params: {} };
    case 'unblock_ip': {
      const ids = await interceptIdsOf(ctx, action.ip);
      if (ids.length === 0) return { msg: 'sc_page_done_unblock_none', params: { ip: action.ip, count: 0 } };
      const change = await ctx.agent.call('firewall.intercept.delete', { target: ids });
      return { msg: 'sc_page_done_unblock_ip', params: { ip: action.ip, count: change.changed } };
    }
    case 'restart_panel':
      await ctx.agent.call('software.restart', {});
      return { msg: 'sc_page_done_restart_panel', params: {} };
  }
}

/**
 * The dry check behind "Test": reads what the operation would act on and says whether running it
 * now would do something, without changing anything.
 */
export async function dryCheck(ctx: ConsoleContext, action: ShortcutAction): Promise<Outcome & { ready: boolean }> {
  switch (action.operation) {
    case 'pause_protection': {
      const now = await readProtection(ctx);
      if (!now) return { ready: false, msg: 'agent_unreachable', params: {} };
      return now.mode === 'off'
        ? { ready: false, msg: 'sc_test_pause_off', params: { minutes: action.minutes } }
        : { ready: true, msg: 'sc_test_pause', params: { minutes: action.minutes } };
    }
    case 'resume_protection': {
      const now = await readProtection(ctx);
      if (!now) return { ready: false, msg: 'agent_unreachable', params: {} };
      return now.mode === 'on'
        ? { ready: false, msg: 'sc_test_resume_on', params: {} }
        : { ready: true, msg: 'sc_test_resume', params: {} };
    }
    case 'unblock_ip': {
      const ids = await interceptIdsOf(ctx, action.ip);
      return ids.length === 0
        ? { ready: false, msg: 'sc_test_unblock_none', params: { ip: action.ip } }
        : { ready: true, msg: 'sc_test_unblock', params: { ip: action.ip, count: ids.length } };
    }
    case 'restart_panel':
      // The restart is the agent's job: a cheap read shows it answers.
      await ctx.agent.call('module.list', {});
      return { ready: true, msg: 'sc_test_restart', params: {} };
  }
}
