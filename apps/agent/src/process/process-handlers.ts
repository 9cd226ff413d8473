import { withTransaction } from '@rampart/sqlite';
import type { ProcessChange, ProcessRuleFields } from '@rampart/contracts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { ProcessService } from './process-service.ts';

type ProcessMethods = Extract<keyof AgentHandlers, `process.${string}`>;
type Action = 'add' | 'edit' | 'enable' | 'disable' | 'delete';

const refused = (key: string): ProcessChange => ({ changed: 0, ids: [], refused: key });

const describeRule = (rule: ProcessRuleFields) =>
  [rule.process, rule.deny_start ? 'deny start' : '', rule.deny_tcp ? 'deny tcp' : '', rule.deny_udp ? 'deny udp' : '', rule.files.length ? `${rule.files.length} file rules` : ''].filter(Boolean).join(' ');

/** Every `process.*` call: a data change in one transaction, an operation event, then the guard's new source. */
export function processHandlers(service: ProcessService): Pick<AgentHandlers, ProcessMethods> {
  const { rules, guard } = service;

  const change = async (account: string, action: Action, work: () => ProcessChange & { what: string }): Promise<ProcessChange> => {
    const { what, ...result } = withTransaction(service.db, work);
    if (result.changed > 0) {
      guard.sinkEvent({ kind: 'process.rules_changed', module: 'process', level: 'info', source: account ? 'console' : 'agent', account, params: { account, action, what: what.slice(0, 1000) } });
      await service.apply();
    }
    return result;
  };

  return {
    'process.status': async () => service.status(),
    'process.rules.list': async ({ keyword, offset, limit }) => {
      const page = rules.page(keyword, offset, limit);
      return { total: page.total, list: page.list.map((rule) => ({ ...rule, state: service.state(rule), net_state: service.netState(rule) })) };
    },
    'process.rules.get': async ({ id }) => {
      const rule = rules.get(id);
      return rule ? { ...rule, state: service.state(rule), net_state: service.netState(rule) } : null;
    },
    'process.rules.add': async ({ rule, account }) => {
      if (rules.findByProcess(rule.process) !== null) return refused('process_rule_duplicate');
      return change(account, 'add', () => {
        const id = rules.insert(rule, guard.now());
        return { changed: 1, ids: [id], refused: null, what: describeRule(rule) };
      });
    },
    'process.rules.edit': async ({ rule: { id, ...fields }, account }) => {
      if (!rules.get(id)) return refused('process_rule_not_found');
      if (rules.findByProcess(fields.process, id) !== null) return refused('process_rule_duplicate');
      return change(account, 'edit', () => {
        rules.update(id, fields, guard.now());
        return { changed: 1, ids: [id], refused: null, what: `#${id} ${describeRule(fields)}` };
      });
    },
    'process.rules.set_enabled': async ({ ids, enabled, account }) =>
      change(account, enabled ? 'enable' : 'disable', () => {
        const changed = rules.setEnabled(ids, enabled, guard.now());
        return { changed: changed.length, ids: changed, refused: null, what: changed.map((id) => `#${id}`).join(', ') };
      }),
    'process.rules.delete': async ({ ids, account }) =>
      change(account, 'delete', () => {
        const gone = rules.delete(ids);
        return { changed: gone.length, ids: gone, refused: null, what: gone.map((id) => `#${id}`).join(', ') };
      }),
  };
}
