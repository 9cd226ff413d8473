import type { AddressList } from '@rampart/firewall';
import type { ConfigCommonArea, ConfigFirewallCore, ConfigListEntry, ConfigLists, FirewallRule, TrustSource } from '@rampart/contracts';
import { canonicalEntry } from '../firewall/canonical-address.ts';
import { CommonAreasRepo } from '../firewall/common-areas-repo.ts';
import type { FirewallService } from '../firewall/firewall-service.ts';
import type { StoredEntry } from '../firewall/lists-repo.ts';

const listNames: readonly AddressList[] = ['white', 'black', 'super'];

/** The firewall's desired state as a configuration file carries it, lists aside (no ids). */
export function exportFirewall(service: FirewallService): ConfigFirewallCore {
  return {
    rules: service.rules.all().map((r) => ({
      direction: r.direction, protocol: r.protocol, ports: r.ports, ips: r.ips, areas: r.areas,
      action: r.action, priority: r.priority, enabled: r.enabled, remark: r.remark,
    })),
    areas: allAreas(service),
    attack: service.settings.attack(),
  };
}

/** One page of a list in id order after `after`, ended entries left out (keyset paging: a million entries stay cheap). */
export function exportListPage(service: FirewallService, list: AddressList, after: number, limit: number): { entries: ConfigListEntry[]; last: number } {
  const rows = service.db
    .prepare('SELECT id, address, remark, added_by, created_at, expires_at, source FROM list_entries WHERE list = ? AND id > ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY id LIMIT ?')
    .all(list, after, service.now(), limit);
  const entries = rows.map((row): ConfigListEntry => [
    String(row['address']),
    String(row['remark']),
    String(row['added_by']),
    Number(row['created_at']),
    row['expires_at'] === null ? null : Number(row['expires_at']),
    String(row['source'] ?? 'manual') as TrustSource,
  ]);
  return { entries, last: rows.length > 0 ? Number(rows[rows.length - 1]!['id']) : after };
}

function allAreas(service: FirewallService): ConfigCommonArea[] {
  return new CommonAreasRepo(service.db)
    .page(undefined, 0, 1_000_000, [])
    .list.sort((a, b) => a.id - b.id)
    // Members were checked as area codes when the area was saved.
    .map(({ rules: _rules, ...area }) => ({ ...area, members: area.members as ConfigCommonArea['members'] }));
}

/** Rows ready to write, checked before the transaction starts: an entry that has no canonical form refuses the whole file. */
export function prepareFirewall(part: ConfigFirewallCore, lists: ConfigLists, now: number): { rules: FirewallRule[]; entries: Record<AddressList, StoredEntry[]> } {
  const rules: FirewallRule[] = part.rules.map((rule, index) => ({ ...rule, id: index + 1, created_at: now, updated_at: now }));
  let id = 0;
  const entries = {} as Record<AddressList, StoredEntry[]>;
  for (const list of listNames) {
    const seen = new Set<string>();
    entries[list] = [];
    for (const [index, [address, remark, addedBy, createdAt, expiresAt, source]] of lists[list].entries()) {
      const canonical = canonicalEntry(address);
      if (!canonical) throw new Error(`lists.${list}.${index}: not an address entry`);
      // An entry whose time is up is not restored (it would be purged at once); a repeated one once.
      if ((expiresAt !== null && expiresAt <= now) || seen.has(canonical.address)) continue;
      seen.add(canonical.address);
      entries[list].push({
        id: ++id, address: canonical.address, isHost: canonical.isHost, remark, added_by: addedBy, created_at: createdAt, expires_at: expiresAt, source,
      });
    }
  }
  return { rules, entries };
}

/** The whole firewall part as it stands, to put back on an undo. */
interface FirewallState {
  rules: FirewallRule[];
  areas: ConfigCommonArea[];
  entries: Record<AddressList, StoredEntry[]>;
  attack: ConfigFirewallCore['attack'];
}

function snapshot(service: FirewallService): FirewallState {
  return {
    rules: service.rules.all(),
    areas: allAreas(service),
    entries: { white: service.lists.entries('white'), black: service.lists.entries('black'), super: service.lists.entries('super') },
    attack: service.settings.attack(),
  };
}

function write(service: FirewallService, state: FirewallState): void {
  service.rules.restore(state.rules);
  const areas = new CommonAreasRepo(service.db);
  areas.delete([...areas.membersById().keys()]);
  for (const area of state.areas) areas.restore(area);
  // Every list emptied before any is filled: ids are shared by the three lists.
  for (const list of listNames) service.lists.deleteAll(list);
  for (const list of listNames) service.lists.restore(list, state.entries[list]);
  service.settings.setAttack(state.attack);
}

/**
 * The data change for `FirewallService.guarded`: runs inside its one transaction, replaces rules,
 * lists and attack settings, and can be undone (a probation that is not confirmed). The kernel is
 * then made to match in one full apply.
 */
export function firewallReplacement(service: FirewallService, part: ConfigFirewallCore, prepared: ReturnType<typeof prepareFirewall>) {
  const before = snapshot(service);
  write(service, { rules: prepared.rules, areas: part.areas, entries: prepared.entries, attack: part.attack });
  const changed = prepared.rules.length + listNames.reduce((n, list) => n + prepared.entries[list].length, 0);
  return {
    changed,
    undo: () => write(service, before),
    kernel: async () => {
      // A kernel failure leaves the desired state saved; the watchdog re-applies a table in error.
      await service.kernel.applyFull(service.desired()).catch(() => undefined);
    },
  };
}
