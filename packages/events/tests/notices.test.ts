import { describe, expect, it } from 'vitest';
import { openTemp, T0 } from './helpers.ts';

describe('notices', () => {
  it('raises, lists newest first and counts', () => {
    let clock = T0;
    const { store } = openTemp({ now: () => clock++ });
    const a = store.raiseNotice({ kind: 'attack', params: { module: 'firewall', summary: 'scan' } });
    const b = store.raiseNotice({ kind: 'licence_expiring', params: { days: 7, date: '2025-01-22' } });
    expect([a, b]).toEqual([1, 2]);
    expect(store.listNotices(0, 10)).toEqual({
      count: 2,
      unread: 2,
      list: [
        { id: 2, kind: 'licence_expiring', params: { days: 7, date: '2025-01-22' }, add_time: T0 + 1, readed: 0 },
        { id: 1, kind: 'attack', params: { module: 'firewall', summary: 'scan' }, add_time: T0, readed: 0 },
      ],
    });
    expect(store.listNotices(1, 10).list.map((n) => n.id)).toEqual([1]);
    expect(store.listNotices(0, 1).list.map((n) => n.id)).toEqual([2]);
  });

  it('does not raise a notice twice while one with its dedupe_key is unread', () => {
    const { store } = openTemp();
    const key = { kind: 'disk_alert', params: { size_mb: 900, limit_mb: 800 }, dedupe_key: 'disk_alert:20250115' } as const;
    const first = store.raiseNotice(key)!;
    expect(first).toBe(1);
    expect(store.raiseNotice(key)).toBeNull();
    expect(store.raiseNotice({ ...key, dedupe_key: 'disk_alert:20250116' })).toBe(2);
    expect(store.raiseNotice({ kind: 'attack' })).toBe(3); // no key: never deduplicated
    expect(store.raiseNotice({ kind: 'attack' })).toBe(4);
    store.readNotices([first]);
    expect(store.raiseNotice(key)).toBe(5); // the old one was read
    expect(store.raiseNotice(key)).toBeNull();
  });

  it('getNotice marks read when asked', () => {
    const { store } = openTemp();
    const id = store.raiseNotice({ kind: 'attack' })!;
    expect(store.getNotice(id, false)?.readed).toBe(0);
    expect(store.unreadNotices()).toBe(1);
    expect(store.getNotice(id, true)?.readed).toBe(1);
    expect(store.unreadNotices()).toBe(0);
    expect(store.getNotice(99, true)).toBeNull();
  });

  it('reads and deletes selected notices and all of them', () => {
    const { store } = openTemp();
    for (let i = 0; i < 5; i++) store.raiseNotice({ kind: 'attack' });
    expect(store.readNotices([1, 2, 99])).toBe(2);
    expect(store.readNotices([1])).toBe(0);
    expect(store.listNotices(0, 10)).toMatchObject({ count: 5, unread: 3 });
    expect(store.deleteNotices([2, 3])).toBe(2);
    expect(store.listNotices(0, 10)).toMatchObject({ count: 3, unread: 2 });
    expect(store.listNotices(0, 10).list.map((n) => [n.id, n.readed])).toEqual([[5, 0], [4, 0], [1, 1]]);
    expect(store.readNotices('all')).toBe(2);
    expect(store.unreadNotices()).toBe(0);
    expect(store.deleteNotices('all')).toBe(3);
    expect(store.listNotices(0, 10)).toEqual({ count: 0, unread: 0, list: [] });
  });

  it('calls onNotice after each change of the unread count, and only then', () => {
    const heard: number[] = [];
    const { store } = openTemp({ onNotice: (unread) => heard.push(unread) });
    store.raiseNotice({ kind: 'attack', dedupe_key: 'k' }); // 1
    store.raiseNotice({ kind: 'attack', dedupe_key: 'k' }); // deduplicated: no change
    store.raiseNotice({ kind: 'attack' }); // 2
    store.getNotice(1, false); // no change
    store.getNotice(1, true); // 1
    store.readNotices([1]); // no change
    store.deleteNotices([1]); // a read one: no change
    store.deleteNotices('all'); // 0
    expect(heard).toEqual([1, 2, 1, 0]);
  });
});
