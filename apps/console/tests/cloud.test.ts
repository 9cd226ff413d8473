import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudStatusSchema } from '@rampart/contracts';
import { bundleText, feedKeys, otherKeys } from '../../agent/tests/cloud-support.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * Cloud protection's console calls against a real agent on a real socket (no kernel: nft null;
 * packets are cloud-kernel.test.ts's job): pinning a key, importing a bundle, refusals in both
 * languages that change nothing, the caller's address kept out of the feed, and who may do what.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({
    agent: () => ({
      guard: { spawn: false, background: false },
      cloud: { nft: null, timers: false },
    }),
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
});

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data?: any };
const post = (url: string, payload: unknown, options: { lang?: Lang; as?: string } = {}): Promise<{ status: number; body: Body }> =>
  magapi(h.app, 'POST', url, { token: options.as ?? token, payload, lang: options.lang ?? 'en-US' });
const get = (url: string, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> => magapi(h.app, 'GET', url, { token: as, lang });
const status = async () => cloudStatusSchema.parse((await get('/cloud/status')).body.data);

describe('cloud protection (console)', () => {
  it('pins a key and imports a signed bundle; the feed row says what the page shows', async () => {
    expect((await post('/cloud/keys/add', { name: 'lab', public_key: feedKeys.publicKey })).body).toMatchObject({ code: 0, msg: 'Saved' });
    const imported = await post('/cloud/feeds/import', { bundle: bundleText({ v4: '198.51.100.0/24\n192.168.0.0/16\n', v6: '2001:db8::/32\n' }) }, { lang: 'zh-CN' });
    expect(imported.body).toMatchObject({ code: 0, msg: '情报源 Lab feed 已导入' });
    const view = await status();
    expect(view.keys).toHaveLength(1);
    expect(view.feeds[0]).toMatchObject({ name: 'Lab feed', source: 'tests', licence: 'CC0-1.0', version: 1, entries_v4: 2, entries_v6: 1, ranges_v4: 1, ranges_v6: 1, enabled: true, state: 'ok', url: null });
    expect(view.always_subtracted).toContain('10.0.0.0/8');
  });

  it('refuses a tampered, unknown-key, expired or older bundle in both languages, and changes nothing', async () => {
    const before = await status();
    const good = JSON.parse(bundleText({ version: 2 })) as { netsets: { v4: string } };
    const tampered = JSON.stringify({ ...good, netsets: { ...good.netsets, v4: '203.0.113.0/24\n' } });
    const cases: Array<[string, string, string]> = [
      [tampered, '内容可能被篡改', 'may have been tampered with'],
      [bundleText({ version: 2, keys: otherKeys }), '不在信任列表中', 'is not trusted'],
      [bundleText({ version: 2, expiresInMs: -60_000 }), '已于', 'expired on'],
      [bundleText({ version: 1 }), '版本 1 不比已安装的版本新', 'version 1 is not newer'],
    ];
    for (const [bundle, zh, en] of cases) {
      const zhAnswer = await post('/cloud/feeds/import', { bundle }, { lang: 'zh-CN' });
      expect(zhAnswer.body.code).toBe(2);
      expect(zhAnswer.body.msg).toContain(zh);
      const enAnswer = await post('/cloud/feeds/import', { bundle }, { lang: 'en-US' });
      expect(enAnswer.body.msg).toContain(en);
      expect(enAnswer.body.data.refused).toMatch(/^cloud_bundle_/);
    }
    expect(await status()).toEqual(before);
  });

  it('refuses bad input with clear words in both languages, never a 500', async () => {
    const cases: Array<[string, unknown, string, string]> = [
      ['/cloud/keys/add', { name: 'x', public_key: 'short' }, '公钥格式有误', 'Invalid public key'],
      ['/cloud/keys/add', { name: '', public_key: feedKeys.publicKey }, '请填写公钥名称', 'Enter a name for the key'],
      ['/cloud/feeds/add_url', { url: 'ftp://example.test/feed', interval_minutes: 60 }, '网址', 'http:// or https://'],
      ['/cloud/feeds/add_url', { url: 'http://127.0.0.1:1/feed', interval_minutes: 1 }, '更新间隔', 'update interval'],
      ['/cloud/feeds/delete', { ids: [] }, '请选择', 'Select the items'],
      ['/cloud/settings', { settings: { own_ranges: ['not an address'] } }, '自有地址', 'Own addresses'],
      ['/cloud/feeds/import', { bundle: '' }, '情报包格式有误', 'The bundle is not valid'],
    ];
    for (const [url, payload, zh, en] of cases) {
      const zhAnswer = await post(url, payload, { lang: 'zh-CN' });
      expect(zhAnswer.status, url).toBeLessThan(500);
      expect(zhAnswer.body.code, url).not.toBe(0);
      expect(zhAnswer.body.msg, url).toContain(zh);
      expect((await post(url, payload, { lang: 'en-US' })).body.msg, url).toContain(en);
    }
    // A URL nothing listens on: the agent's fetch fails and the words say so.
    const refused = await post('/cloud/feeds/add_url', { url: 'http://127.0.0.1:1/feed.json', interval_minutes: 60 });
    expect(refused.body).toMatchObject({ code: 2 });
    expect(refused.body.msg).toContain('Could not download the bundle');
    expect((await status()).feeds).toHaveLength(1);
  });

  it('keeps the own ranges out of the feed', async () => {
    expect((await post('/cloud/settings', { settings: { own_ranges: ['198.51.100.64/26'] } })).body.code).toBe(0);
    const view = await status();
    expect(view.settings.own_ranges).toEqual(['198.51.100.64/26']);
    // 198.51.100.0/24 with a hole cut in its middle: two ranges go to the kernel.
    expect(view.feeds[0]?.ranges_v4).toBe(2);
  });

  it('an auditor reaches no cloud route; a technician does', async () => {
    const auditor = await h.addUser('auditor');
    const technician = await h.addUser('technician');
    expect((await get('/cloud/status', 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/cloud/feeds/delete', { ids: [1] }, { as: auditor.token })).status).toBe(403);
    expect((await post('/cloud/keys/add', { name: 'x', public_key: otherKeys.publicKey }, { as: auditor.token })).status).toBe(403);
    expect((await get('/cloud/status', 'en-US', technician.token)).status).toBe(200);
    const feed = (await status()).feeds[0]!;
    expect((await post('/cloud/feeds/enable', { ids: [feed.id], enabled: false }, { as: technician.token })).body.code).toBe(0);
    expect((await status()).feeds[0]?.enabled).toBe(false);
    expect((await post('/cloud/feeds/delete', { ids: [feed.id] }, { as: technician.token })).body.code).toBe(0);
    expect((await status()).feeds).toEqual([]);
  });
});
