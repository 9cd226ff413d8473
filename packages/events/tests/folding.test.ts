import { describe, expect, it } from 'vitest';
import type { EventRecord } from '@rampart/contracts';
import { DatabaseSync } from 'node:sqlite';
import { foldBy, isFoldable, localDayCounter } from '../src/fold.ts';
import { migrations } from '../src/migrations.ts';
import { admin, day, ev, hour, openTemp, T0, tempPath } from './helpers.ts';

const rows = (store: ReturnType<typeof openTemp>['store']) => store.query({ limit: 1000 }).list.reverse();

describe('simple log mode folding', () => {
  it('folds repeats from one IP, of one kind, on one local day into the first row', () => {
    const { store } = openTemp();
    store.append([ev({ time: T0, detail: 'first' }), ev({ time: T0 + hour, detail: 'second' })]);
    store.flush();
    store.append([ev({ time: T0 + 2 * hour }), ev({ time: T0 + 3 * hour })]);
    const list = rows(store);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: 1, time: T0, detail: 'first', repeats: 3 });
  });

  it('keeps separate rows for other IPs, kinds and days', () => {
    const { store } = openTemp();
    store.append([
      ev({ ip: '10.0.0.1' }),
      ev({ ip: '10.0.0.2' }),
      ev({ kind: 'panel.login_locked' }),
      ev({ time: T0 + day }),
      ev({ ip: '10.0.0.1' }),
      ev({ time: T0 + day + hour }),
    ]);
    expect(rows(store).map((r) => [r.ip, r.kind, r.time, r.repeats])).toEqual([
      ['10.0.0.1', 'panel.login_failed', T0, 1],
      ['10.0.0.2', 'panel.login_failed', T0, 0],
      ['10.0.0.1', 'panel.login_locked', T0, 0],
      ['10.0.0.1', 'panel.login_failed', T0 + day, 1],
    ]);
  });

  it('keeps attack kinds apart: SQL injection, XSS and traversal from one address are three rows', () => {
    const { store } = openTemp();
    const attack = (kind: string, site = 'shop') =>
      ev({ kind: 'website.attack', module: 'website', params: { ip: '10.0.0.1', site, attack: kind, rule: kind } });
    store.append([attack('sqli'), attack('xss'), attack('sqli'), attack('traversal'), attack('xss')]);
    store.flush();
    store.append([attack('sqli'), attack('sqli', 'blog')]);
    expect(rows(store).map((r) => [r.params['attack'], r.params['site'], r.repeats])).toEqual([
      ['sqli', 'shop', 2],
      ['xss', 'shop', 1],
      ['traversal', 'shop', 0],
      ['sqli', 'blog', 0],
    ]);
  });

  it('keeps the rule or reason of other modules apart', () => {
    const { store } = openTemp();
    const blocked = (reason: string) => ev({ kind: 'firewall.blocked', module: 'firewall', params: { ip: '10.0.0.1', reason, minutes: 30 } });
    const policy = (rule: string) => ev({ kind: 'website.policy_block', module: 'website', params: { ip: '10.0.0.1', site: 'shop', rule } });
    store.append([blocked('port_scan'), blocked('http_cc'), blocked('port_scan'), policy('cc'), policy('area'), policy('cc')]);
    expect(rows(store).map((r) => [r.kind, r.params['reason'] ?? r.params['rule'], r.repeats])).toEqual([
      ['firewall.blocked', 'port_scan', 1],
      ['firewall.blocked', 'http_cc', 0],
      ['website.policy_block', 'cc', 1],
      ['website.policy_block', 'area', 0],
    ]);
    expect([foldBy('website.attack', { attack: 'xss', site: 's' }), foldBy('panel.login_failed', { attack: 'xss' })]).toEqual(['xss\u0000s', '']);
  });

  it('opens a store of the first schema, rows kept, and folds by kind from then on', () => {
    const path = tempPath();
    const db = new DatabaseSync(path);
    db.exec(migrations[0] ?? '');
    db.exec('PRAGMA user_version = 1');
    db.prepare(
      "INSERT INTO events (time, kind, module, level, source, account, ip, params, detail, repeats, fold_day) VALUES (?, 'website.attack', 'website', 'warning', 'gw', '', '10.0.0.1', ?, '', 4, ?)",
    ).run(T0, JSON.stringify({ attack: 'sqli', site: 'shop' }), localDayCounter()(T0));
    db.close();
    const { store } = openTemp({}, path);
    store.append([ev({ kind: 'website.attack', module: 'website', params: { attack: 'sqli', site: 'shop' } })]);
    expect(rows(store).map((r) => [r.params['attack'], r.repeats])).toEqual([['sqli', 4], ['sqli', 0]]);
  });

  it('splits days at local midnight', () => {
    const midnight = new Date(2025, 0, 16).getTime();
    const { store } = openTemp();
    store.append([ev({ time: midnight - 1 }), ev({ time: midnight }), ev({ time: midnight + 1 })]);
    expect(rows(store).map((r) => r.repeats)).toEqual([0, 1]);
    const dayOf = localDayCounter();
    expect([dayOf(midnight - 1), dayOf(midnight), dayOf(midnight - 1)]).toEqual([20250115, 20250116, 20250115]);
  });

  it('never folds admin actions, events without an IP, or unknown kinds', () => {
    const { store } = openTemp();
    store.append([admin(), admin(), ev({ ip: '' }), ev({ ip: '' }), ev({ kind: 'future.kind' }), ev({ kind: 'future.kind' })]);
    expect(rows(store).map((r) => r.repeats)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(isFoldable('panel.action', '1.1.1.1')).toBe(false);
    expect(isFoldable('panel.login_failed', '1.1.1.1')).toBe(true);
  });

  it('full mode keeps every row; switching back to simple folds again', () => {
    const { store } = openTemp({ mode: 'full' });
    store.append([ev(), ev(), ev()]);
    expect(rows(store).map((r) => r.repeats)).toEqual([0, 0, 0]);
    store.setMode('simple');
    expect(store.mode()).toBe('simple');
    store.append([ev(), ev()]);
    expect(rows(store).map((r) => r.repeats)).toEqual([0, 0, 0, 1]);
    expect(store.stats().events).toBe(4);
  });

  it('passes only new rows to onStored, with the repeats of their batch', () => {
    const seen: EventRecord[] = [];
    const { store } = openTemp({ onStored: (records) => seen.push(...records) });
    store.append([ev(), ev(), ev({ ip: '10.0.0.9' })]);
    store.flush();
    store.append([ev(), ev({ ip: '10.0.0.3' })]);
    store.flush();
    expect(seen.map((r) => [r.id, r.ip, r.repeats])).toEqual([[1, '10.0.0.1', 1], [2, '10.0.0.9', 0], [3, '10.0.0.3', 0]]);
    expect(store.get(1)?.repeats).toBe(2);
  });

  it('counts rows, not folded copies', () => {
    const { store } = openTemp();
    for (let i = 0; i < 10; i++) {
      store.append([ev(), ev({ ip: `10.0.1.${i % 3}` })]);
      store.flush();
    }
    expect(store.stats().events).toBe(4);
    expect(rows(store).reduce((sum, r) => sum + r.repeats + 1, 0)).toBe(20);
  });
});
