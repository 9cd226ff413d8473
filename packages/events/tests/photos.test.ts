import { describe, expect, it } from 'vitest';
import type { PhotoQuery } from '@rampart/contracts';
import { hour, openTemp, photo, T0 } from './helpers.ts';

describe('photos', () => {
  it('writes at once and reads back with defaults', () => {
    const { store } = openTemp({ now: () => 777 });
    expect(store.appendPhotos([{ ip: '1.2.3.4', method: 'POST', url: '/login' }])).toBe(1);
    expect(store.getPhoto(1)).toEqual({ id: 1, time: 777, site: '', ip: '1.2.3.4', method: 'POST', url: '/login', headers: '', post_data: '', kind: '' });
    expect(store.getPhoto(2)).toBeNull();
    expect(store.photoCount()).toBe(1);
    expect(store.appendPhotos([])).toBe(0);
  });

  it('queries newest first with time, ip and keyword filters', () => {
    const { store } = openTemp();
    store.appendPhotos([
      photo({ time: T0 - 2 * hour, ip: '1.1.1.1', url: '/a?q=UNION+select' }),
      photo({ time: T0 - hour, ip: '2.2.2.2', headers: 'User-Agent: sqlmap/1.7' }),
      photo({ time: T0, ip: '1.1.1.1', post_data: 'cmd=cat /etc/passwd' }),
    ]);
    const ids = (q: PhotoQuery) => store.queryPhotos(q).list.map((p) => p.id);
    expect(ids({ limit: 10 })).toEqual([3, 2, 1]);
    expect(ids({ limit: 10, from: T0 - hour })).toEqual([3, 2]);
    expect(ids({ limit: 10, to: T0 - hour })).toEqual([1]);
    expect(ids({ limit: 10, ip: '1.1.1.1' })).toEqual([3, 1]);
    expect(ids({ limit: 10, keyword: 'union' })).toEqual([1]); // url
    expect(ids({ limit: 10, keyword: 'SQLMAP' })).toEqual([2]); // headers
    expect(ids({ limit: 10, keyword: 'passwd' })).toEqual([3]); // post_data
    expect(ids({ limit: 10, keyword: 'passwd', ip: '2.2.2.2' })).toEqual([]);
  });

  it('pages by keyset across equal times', () => {
    const { store } = openTemp();
    store.appendPhotos(Array.from({ length: 23 }, (_, i) => photo({ time: T0 + (i % 3) })));
    const seen: number[] = [];
    let before: number | undefined;
    for (let guard = 0; ; guard++) {
      expect(guard).toBeLessThan(10);
      const page = store.queryPhotos({ limit: 5, ...(before === undefined ? {} : { before }) });
      seen.push(...page.list.map((p) => p.id));
      before = page.list.at(-1)?.id;
      if (!page.more) break;
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect(store.queryPhotos({ limit: 5, before: 999 })).toEqual({ list: [], more: false });
  });

  it('cuts headers and post_data to `preview` characters on list pages', () => {
    const { store } = openTemp();
    store.appendPhotos([photo({ headers: 'H'.repeat(5000), post_data: '数据'.repeat(3000), url: '/' + 'u'.repeat(300) })]);
    const [cut] = store.queryPhotos({ limit: 1, preview: 100 }).list;
    expect(cut?.headers).toBe('H'.repeat(100));
    expect(cut?.post_data).toBe('数据'.repeat(50));
    expect(cut?.url).toHaveLength(301);
    expect(store.queryPhotos({ limit: 1, preview: 0 }).list[0]?.headers).toBe('');
    expect(store.queryPhotos({ limit: 1 }).list[0]?.headers).toHaveLength(5000);
    expect(store.getPhoto(1)?.post_data).toHaveLength(6000);
  });

  it('clears all snapshots', () => {
    const { store } = openTemp();
    store.appendPhotos([photo(), photo(), photo()]);
    expect(store.clearPhotos()).toBe(3);
    expect(store.photoCount()).toBe(0);
    expect(store.queryPhotos({ limit: 10 }).list).toEqual([]);
    expect(store.clearPhotos()).toBe(0);
  });
});
