import { withTransaction } from '@rampart/sqlite';
import { isBroadProtectedPath, type TamperChange, type TamperOp } from '@rampart/contracts';
import { cleanPath, isAtOrBelow, pathQuery } from '@rampart/guard';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { GuardService } from './guard-service.ts';
import type { StoredNamingRule } from './names-repo.ts';
import type { StoredTamperRule } from './rules-repo.ts';

type TamperMethods = Extract<keyof AgentHandlers, `tamper.${string}`>;
type Action = 'add' | 'edit' | 'enable' | 'disable' | 'delete';

const refused = (key: string): TamperChange => ({ changed: 0, ids: [], refused: key, warnings: [] });

/** Whether a rule's path reaches one of Rampart's own directories (above it, at it or inside it). */
function coversSelf(rulePath: string, selfPaths: readonly string[]): boolean {
  const query = pathQuery(rulePath);
  return selfPaths.map(cleanPath).some((self) => {
    if (query.kind === 'exact') return isAtOrBelow(self, query.path) || isAtOrBelow(query.path, self);
    // `dir/name*`: the entries of dir whose name starts with `name`, and everything below them.
    const rest = query.dir === '/' ? self.slice(1) : self.slice(query.dir.length + 1);
    return isAtOrBelow(query.dir, self) || (self !== query.dir && isAtOrBelow(self, query.dir) && rest.startsWith(query.prefix));
  });
}

/** What a naming rule denies in the kernel: creating an entry under a denied name. */
const namingRuleOps: readonly TamperOp[] = ['c'];

const describeRule = (rule: Pick<StoredTamperRule, 'path' | 'sub_path' | 'process' | 'ops' | 'level'>) =>
  `${rule.path}${rule.sub_path && rule.sub_path !== '*' ? ` [${rule.sub_path}]` : ''} ${rule.process} level ${rule.level} deny ${rule.ops.join('') || '-'}`;
const describeNaming = (rule: Pick<StoredNamingRule, 'dir' | 'deny_dirs' | 'deny_files' | 'deny_malformed'>) =>
  `naming ${rule.dir} dirs ${rule.deny_dirs.join(',') || '-'} files ${rule.deny_files.join(',') || '-'}${rule.deny_malformed ? ' malformed' : ''}`;

/** Every `tamper.*` call: a data change in one transaction, an operation event, then a new plan. */
export function tamperHandlers(service: GuardService): Pick<AgentHandlers, TamperMethods> {
  const { rules, names } = service;

  const record = (account: string, action: Action, what: string) =>
    service.sinkEvent({ kind: 'tamper.rules_changed', module: 'tamper', level: 'info', source: account ? 'console' : 'agent', account, params: { account, action, what: what.slice(0, 1000) } });

  /** Runs a change in one transaction; when something changed, logs it and applies the new plan. */
  const change = async (account: string, action: Action, work: () => TamperChange & { what: string }): Promise<TamperChange> => {
    const { what, ...result } = await service.serial(async () => withTransaction(service.db, work));
    if (result.changed > 0) {
      record(account, action, what);
      await service.changed();
    }
    return result;
  };
  const selfWarning = (paths: readonly string[]) => (paths.some((p) => coversSelf(p, service.selfPaths)) ? ['tamper_path_self'] : []);
  /**
   * Said when a rule switched on denies an operation the running backend cannot deny (fanotify: no
   * create, delete, rename or time change, so no naming rule either), whatever the module switch: the
   * administrator learns it when saving, not when the rule fails. With no backend at all the status
   * banner says so. Put before the other warnings: the console shows only the first.
   */
  const degradedWarning = (rulesOps: readonly (readonly TamperOp[])[]) => {
    const { backend, running, enforced_ops } = service.status();
    if (!running || backend === 'none') return [];
    return rulesOps.some((ops) => ops.some((op) => !enforced_ops.includes(op))) ? ['tamper_guard_degraded'] : [];
  };
  const enabledOps = (list: readonly { enabled: boolean; ops: readonly TamperOp[] }[]) => list.filter((rule) => rule.enabled).map((rule) => rule.ops);
  const enabledNamingOps = (list: readonly { enabled: boolean }[]) => list.filter((rule) => rule.enabled).map(() => namingRuleOps);

  return {
    'tamper.status': async () => service.status(),

    'tamper.rules.list': async ({ keyword, offset, limit }) => {
      const page = rules.page(keyword, offset, limit);
      return { total: page.total, list: page.list.map((rule) => ({ ...rule, state: service.tamperState(rule.id) })) };
    },
    'tamper.rules.get': async ({ id }) => {
      const rule = rules.get(id);
      return rule ? { ...rule, state: service.tamperState(rule.id) } : null;
    },
    'tamper.rules.add': async ({ rules: inputs, confirmations, account }) => {
      if (inputs.some((rule) => isBroadProtectedPath(rule.path)) && confirmations < 2) return refused('tamper_path_broad_confirm');
      return change(account, 'add', () => {
        const ids = inputs.map((rule) => rules.insert(rule, service.now()));
        const warnings = [...degradedWarning(enabledOps(inputs)), ...selfWarning(inputs.map((rule) => rule.path))];
        return { changed: ids.length, ids, refused: null, warnings, what: inputs.map(describeRule).join('; ') };
      });
    },
    'tamper.rules.edit': async ({ rule, confirmations, account }) => {
      if (isBroadProtectedPath(rule.path) && confirmations < 2) return refused('tamper_path_broad_confirm');
      const { id, ...fields } = rule;
      return change(account, 'edit', () => {
        if (!rules.update(id, fields, service.now())) return { ...refused('tamper_rule_not_found'), what: '' };
        return { changed: 1, ids: [id], refused: null, warnings: [...degradedWarning(enabledOps([fields])), ...selfWarning([fields.path])], what: `#${id} ${describeRule(fields)}` };
      });
    },
    'tamper.rules.set_enabled': async ({ ids, enabled, account }) =>
      change(account, enabled ? 'enable' : 'disable', () => {
        if (!ids.some((id) => rules.get(id))) return { ...refused('tamper_rule_not_found'), what: '' };
        const done = rules.setEnabled(ids, enabled, service.now());
        const warnings = enabled ? degradedWarning(done.map((id) => rules.get(id)?.ops ?? [])) : [];
        return { changed: done.length, ids: done, refused: null, warnings, what: done.map((id) => `#${id}`).join(', ') };
      }),
    'tamper.rules.delete': async ({ ids, account }) =>
      change(account, 'delete', () => {
        const before = ids.map((id) => rules.get(id)).filter((rule) => rule !== null);
        if (!before.length) return { ...refused('tamper_rule_not_found'), what: '' };
        const done = rules.delete(ids);
        return { changed: done.length, ids: done, refused: null, warnings: [], what: before.map((rule) => `#${rule.id} ${describeRule(rule)}`).join('; ') };
      }),

    'tamper.names.list': async ({ keyword, offset, limit }) => {
      const page = names.page(keyword, offset, limit);
      return { total: page.total, list: page.list.map((rule) => ({ ...rule, state: service.nameState(rule.id) })) };
    },
    'tamper.names.get': async ({ id }) => {
      const rule = names.get(id);
      return rule ? { ...rule, state: service.nameState(rule.id) } : null;
    },
    'tamper.names.add': async ({ rule, confirmations, account }) => {
      if (isBroadProtectedPath(rule.dir) && confirmations < 2) return refused('tamper_path_broad_confirm');
      return change(account, 'add', () => {
        const id = names.insert(rule, service.now());
        return { changed: 1, ids: [id], refused: null, warnings: [...degradedWarning(enabledNamingOps([rule])), ...selfWarning([rule.dir])], what: describeNaming(rule) };
      });
    },
    'tamper.names.edit': async ({ rule, confirmations, account }) => {
      if (isBroadProtectedPath(rule.dir) && confirmations < 2) return refused('tamper_path_broad_confirm');
      const { id, ...fields } = rule;
      return change(account, 'edit', () => {
        if (!names.update(id, fields, service.now())) return { ...refused('tamper_rule_not_found'), what: '' };
        return { changed: 1, ids: [id], refused: null, warnings: [...degradedWarning(enabledNamingOps([fields])), ...selfWarning([fields.dir])], what: `#${id} ${describeNaming(fields)}` };
      });
    },
    'tamper.names.set_enabled': async ({ ids, enabled, account }) =>
      change(account, enabled ? 'enable' : 'disable', () => {
        if (!ids.some((id) => names.get(id))) return { ...refused('tamper_rule_not_found'), what: '' };
        const done = names.setEnabled(ids, enabled, service.now());
        const warnings = enabled && done.length ? degradedWarning([namingRuleOps]) : [];
        return { changed: done.length, ids: done, refused: null, warnings, what: done.map((id) => `naming #${id}`).join(', ') };
      }),
    'tamper.names.delete': async ({ ids, account }) =>
      change(account, 'delete', () => {
        const before = ids.map((id) => names.get(id)).filter((rule) => rule !== null);
        if (!before.length) return { ...refused('tamper_rule_not_found'), what: '' };
        const done = names.delete(ids);
        return { changed: done.length, ids: done, refused: null, warnings: [], what: before.map((rule) => `#${rule.id} ${describeNaming(rule)}`).join('; ') };
      }),
  };
}
