import { commonAreaIdOf, entryCovers, parseAddressEntry, type FirewallRule } from '@rampart/contracts';
import { commonAreaHandlers } from './common-areas-handlers.ts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { FirewallService } from './firewall-service.ts';

type FirewallMethods = Extract<keyof AgentHandlers, `firewall.${string}` | `trust.${string}` | `areas.${string}`>;

const dayMs = 86_400_000;

/** The agent calls of the firewall and the super whitelist: each a data change plus its kernel update. */
export function firewallHandlers(service: FirewallService): Pick<AgentHandlers, FirewallMethods> {
  const { rules, lists, intercepts, settings } = service;
  const refresh = async () => service.refreshRules();
  /** A rule may only reference common areas that exist (checked inside the change, so a deletion cannot slip between). */
  const missingArea = (areas: readonly string[]) =>
    areas.some((code) => {
      const id = commonAreaIdOf(code);
      return id !== null && service.commonAreas.get(id) === null;
    });

  return {
    'firewall.status': async () => service.status(),

    'firewall.rules.list': async ({ direction, keyword, offset, limit }) => rules.page(direction, keyword, offset, limit),
    'firewall.rules.get': async ({ id }) => rules.get(id),
    'firewall.rules.add': ({ rule, guard }) =>
      service.guarded(guard, () => {
        if (missingArea(rule.areas)) return 'area_common_missing';
        const id = rules.insert(rule, service.now());
        return { changed: 1, undo: () => void rules.delete([id]), kernel: refresh };
      }),
    'firewall.rules.edit': ({ rule, guard }) =>
      service.guarded(guard, () => {
        const before = rules.all();
        const { id, ...fields } = rule;
        if (missingArea(fields.areas)) return 'area_common_missing';
        if (!rules.update(id, fields, service.now())) return 'fw_rule_not_found';
        return { changed: 1, undo: () => rules.restore(before), kernel: refresh };
      }),
    'firewall.rules.set_enabled': ({ ids, enabled, guard }) =>
      service.guarded(guard, () => {
        const before: FirewallRule[] = rules.all();
        const changed = rules.setEnabled(ids, enabled, service.now());
        return { changed, undo: () => rules.restore(before), kernel: refresh };
      }),
    'firewall.rules.delete': ({ ids, guard }) =>
      service.guarded(guard, () => {
        const before = rules.all();
        const changed = rules.delete(ids);
        return { changed, undo: () => rules.restore(before), kernel: refresh };
      }),

    'firewall.lists.list': async ({ list, keyword, offset, limit }) => {
      const page = lists.page(list, keyword, offset, limit);
      return { total: page.total, list: page.list.map(({ added_by: _addedBy, source: _source, ...entry }) => entry) };
    },
    'firewall.lists.add': ({ list, addresses, remark, expires_at, guard }) =>
      service.guarded(guard, () => {
        const now = service.now();
        const netsBefore = lists.nets(list, now);
        const added = lists.add(list, addresses, { remark, addedBy: '', expiresAt: expires_at, now });
        return {
          changed: added.length,
          undo: () => lists.deleteAddresses(list, added.map((a) => a.address)),
          kernel: () => service.listDelta(list, added, [], netsBefore),
        };
      }),
    'firewall.lists.delete': ({ list, target, guard }) =>
      service.guarded(guard, () => {
        const now = service.now();
        const netsBefore = lists.nets(list, now);
        if (target === 'all') {
          const snapshot = lists.entries(list);
          const changed = lists.deleteAll(list);
          return { changed, undo: () => lists.restore(list, snapshot), kernel: () => service.flushList(list) };
        }
        const removed = lists.delete(list, target);
        return { changed: removed.length, undo: () => lists.restore(list, removed), kernel: () => service.listDelta(list, [], removed, netsBefore) };
      }),

    'firewall.intercept.list': async ({ keyword, offset, limit }) => intercepts.page(keyword, offset, limit, service.now()),
    'firewall.intercept.add': ({ ips, minutes, remark, guard }) =>
      service.guarded(guard, () => {
        const now = service.now();
        const expiresAt = now + minutes * 60_000;
        const added: string[] = [];
        for (const ip of ips) {
          if (intercepts.upsert({ ip, reason: 'manual', detail: remark, blocked_at: now, expires_at: expiresAt })) added.push(ip);
        }
        return {
          changed: ips.length,
          undo: () => intercepts.deleteIps(added),
          kernel: () => service.interceptDelta(ips.map((ip) => ({ ip, expires_at: expiresAt })), []),
        };
      }),
    'firewall.intercept.delete': async ({ target }) =>
      service.serial(async () => {
        const removed = intercepts.delete(target);
        await service.interceptDelta([], removed);
        return { refused: null, probation: null, warnings: [], changed: removed.length };
      }),

    'firewall.attack.get': async () => settings.attack(),
    'firewall.attack.set': async ({ settings: next }) => {
      await service.serial(async () => {
        settings.setAttack(next);
        await refresh();
      });
      await service.reconfigured();
      return { saved: true };
    },
    'firewall.confirm': async ({ token }) => ({ confirmed: service.probation.confirm(token) }),

    'trust.list': async ({ keyword, offset, limit }) => lists.page('super', keyword, offset, limit),
    'trust.add': ({ addresses, added_by, remark, expires_at, source }) =>
      service.serial(async () => {
        const now = service.now();
        const netsBefore = lists.nets('super', now);
        const added = lists.add('super', addresses, { remark, addedBy: added_by, expiresAt: expires_at, now, source });
        await service.listDelta('super', added, [], netsBefore);
        return { changed: added.length };
      }),
    'trust.delete': ({ target }) =>
      service.serial(async () => {
        const now = service.now();
        const netsBefore = lists.nets('super', now);
        if (target === 'all') {
          const changed = lists.deleteAll('super');
          await service.flushList('super');
          return { changed };
        }
        const removed = lists.delete('super', target);
        await service.listDelta('super', [], removed, netsBefore);
        return { changed: removed.length };
      }),
    'trust.renew': ({ ids, days }) =>
      service.serial(async () => {
        const now = service.now();
        const netsBefore = lists.nets('super', now);
        const found = lists.byIds('super', ids);
        const renewed = found.flatMap((entry) => {
          // Extended from the later of now and its end; a permanent entry is never shortened.
          if (entry.expires_at === null) return [];
          const expiresAt = days === 0 ? null : Math.max(now, entry.expires_at) + days * dayMs;
          lists.setExpiry('super', entry.id, expiresAt);
          return [{ address: entry.address, isHost: entry.isHost, expires_at: expiresAt }];
        });
        // A host's kernel element carries its own timeout: it is replaced (removed, then added with the new one).
        if (renewed.length > 0) await service.listDelta('super', renewed, renewed, netsBefore);
        return { changed: found.length };
      }),
    'trust.hold': ({ ip, added_by, expires_at }) =>
      service.serial(async () => {
        const now = service.now();
        const netsBefore = lists.nets('super', now);
        const entry = lists.byAddress('super', ip);
        if (entry && entry.source !== 'terminal') return { held: false, expires_at: entry.expires_at };
        if (!entry) {
          const added = lists.add('super', [ip], { remark: '', addedBy: added_by, expiresAt: expires_at, now, source: 'terminal' });
          await service.listDelta('super', added, [], netsBefore);
          return { held: true, expires_at };
        }
        // Two terminals behind one address: the entry lasts as long as the later of them needs.
        const expiresAt = entry.expires_at === null ? null : Math.max(entry.expires_at, expires_at);
        if (expiresAt !== entry.expires_at) {
          lists.setExpiry('super', entry.id, expiresAt);
          const renewed = [{ address: entry.address, isHost: entry.isHost, expires_at: expiresAt }];
          await service.listDelta('super', renewed, renewed, netsBefore);
        }
        return { held: true, expires_at: expiresAt };
      }),
    'trust.release': ({ ip }) =>
      service.serial(async () => {
        const now = service.now();
        const netsBefore = lists.nets('super', now);
        const entry = lists.byAddress('super', ip);
        if (!entry || entry.source !== 'terminal') return { changed: 0 };
        const removed = lists.delete('super', [entry.id]);
        await service.listDelta('super', [], removed, netsBefore);
        return { changed: removed.length };
      }),
    'trust.check': async ({ ip }) => ({
      trusted: lists.covering('super', [ip], service.now()).some((entry) => {
        const parsed = parseAddressEntry(entry.address);
        return parsed !== null && parsed.kind !== 'any' && entryCovers(parsed, ip);
      }),
    }),
    ...commonAreaHandlers(service),
  };
}
