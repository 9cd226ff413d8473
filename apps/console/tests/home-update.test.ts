import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthority } from '@rampart/licence';
import { bundleText, feedKeys, otherKeys } from '../../agent/tests/cloud-support.ts';
import { signRelease } from '../../agent/src/release/release-sign.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The home page's update calls against a real agent on a real socket: the driver update (no guard
 * helper here: the guard restart itself is apps/agent/tests/home-update-kernel.test.ts's), the cloud
 * library update with a loopback feed server, Rampart releases from a loopback licence authority
 * serving a releases folder, and who may call them. Both languages.
 */

let h: Harness;
let token: string;
/** What the loopback feed server answers, by path. */
const served = new Map<string, { status: number; body: string; delayMs?: number }>();
let feeds: Server;
let feedBase = '';
let releases: FastifyInstance | undefined;

beforeAll(async () => {
  feeds = createServer((request, response) => {
    const answer = served.get(request.url ?? '') ?? { status: 404, body: '' };
    setTimeout(() => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body), answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
  feedBase = `http://127.0.0.1:${(feeds.address() as { port: number }).port}`;
  h = await startHarness({ agent: () => ({ guard: { spawn: false, background: false }, cloud: { nft: null, timers: false }, release: { current: '0.1.0' } }) });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await releases?.close();
  await h.close();
  await new Promise((resolve) => feeds.close(resolve));
});

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data?: any };
const post = (url: string, payload: unknown, options: { lang?: Lang; as?: string } = {}): Promise<{ status: number; body: Body }> =>
  magapi(h.app, 'POST', url, { token: options.as ?? token, payload, lang: options.lang ?? 'en-US' });
const get = (url: string, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> => magapi(h.app, 'GET', url, { token: as, lang });

describe('driver update (POST /home/update_kernel)', () => {
  it('answers the kernel status the dashboard reads, in both languages', async () => {
    const zh = await post('/home/update_kernel', null, { lang: 'zh-CN' });
    expect(zh.status).toBe(200);
    const index = (await get('/home/index')).body.data;
    expect(zh.body.data.status).toEqual(index.host.kernelStatus);
    // No helper binary is started here (spawn off): nothing restarted, the rules applied again.
    expect(zh.body.data).toMatchObject({ refused: null, helper: 'not_started' });
    expect(zh.body.msg).toBe(index.host.kernelStatus.status === 'normal' ? '驱动更新完成：内核状态正常' : '驱动更新完成，但内核状态仍异常（原因见首页）');
    const en = await post('/home/update_kernel', null);
    expect(en.body.msg).toMatch(/^Driver update done/);
  });
});

describe('cloud library update (POST /home/update_virlib)', () => {
  it('installs a newer signed bundle from every URL feed, reports a failing one, and keeps its installed list', async () => {
    served.set('/lab.json', { status: 200, body: bundleText({ version: 1 }) });
    served.set('/other.json', { status: 200, body: bundleText({ id: 'other-feed', name: 'Other feed', version: 3, v4: '203.0.113.0/24\n' }) });
    expect((await post('/cloud/keys/add', { name: 'lab', public_key: feedKeys.publicKey })).body.code).toBe(0);
    expect((await post('/cloud/feeds/add_url', { url: `${feedBase}/lab.json`, interval_minutes: 60 })).body.code).toBe(0);
    expect((await post('/cloud/feeds/add_url', { url: `${feedBase}/other.json`, interval_minutes: 60 })).body.code).toBe(0);
    const before = (await get('/home/index')).body.data.virlib_version as string;
    expect(before).toContain('Lab feed v1');

    served.set('/lab.json', { status: 200, body: bundleText({ version: 2, v4: '198.51.100.0/24\n192.0.2.0/24\n' }) });
    served.set('/other.json', { status: 500, body: '' });
    const answer = await post('/home/update_virlib', null, { lang: 'zh-CN' });
    expect(answer.body.code).toBe(1);
    expect(answer.body.msg).toBe('云端库部分更新：1 项已更新，2 项无变化，1 项失败（已安装的内容保持不变）');
    const parts = answer.body.data.components;
    expect(parts).toContainEqual(expect.objectContaining({ kind: 'feed', name: 'Lab feed', state: 'updated', old_version: '1', new_version: '2' }));
    expect(parts).toContainEqual(expect.objectContaining({ kind: 'feed', name: 'Other feed', state: 'failed', old_version: '3', new_version: '3', reason: 'cloud_fetch_failed', detail: 'HTTP 500' }));
    expect(parts).toContainEqual(expect.objectContaining({ kind: 'webshell_rules', state: 'unchanged' }));
    expect(parts).toContainEqual(expect.objectContaining({ kind: 'custom_library', state: 'unchanged' }));

    // The version shown changed; the failing feed is still installed, at its version.
    const after = (await get('/home/index')).body.data.virlib_version as string;
    expect(after).toBe(answer.body.data.virlib_version);
    expect(after).toContain('Lab feed v2');
    expect(after).toContain('Other feed v3');
    const cloud = (await get('/cloud/status')).body.data;
    expect(cloud.feeds.find((feed: { name: string }) => feed.name === 'Lab feed')).toMatchObject({ version: 2, entries_v4: 2 });
    expect(cloud.feeds.find((feed: { name: string }) => feed.name === 'Other feed')).toMatchObject({ version: 3, state: 'failed' });

    served.set('/other.json', { status: 200, body: bundleText({ id: 'other-feed', name: 'Other feed', version: 3, v4: '203.0.113.0/24\n' }) });
    const again = await post('/home/update_virlib', null);
    expect(again.body).toMatchObject({ code: 0, msg: 'Cloud library updated: 0 updated, 4 unchanged' });

    // One at a time: a second call while a slow feed is fetched is refused, in both languages.
    served.set('/lab.json', { status: 200, body: bundleText({ version: 2 }), delayMs: 400 });
    const [one, two] = await Promise.all([post('/home/update_virlib', null), post('/home/update_virlib', null, { lang: 'zh-CN' })]);
    const busy = [one, two].filter((call) => call.body.data?.refused === 'update_virlib_busy');
    expect(busy).toHaveLength(1);
    expect([one, two].map((call) => call.body.msg)).toContainEqual(expect.stringMatching(/^(云端库更新正在进行，请等它完成后再试|A cloud library update is already running; try again when it has finished)$/));
  });

  it('lets a role without home edit neither update', async () => {
    const viewer = await h.addUser('auditor');
    for (const url of ['/home/update_kernel', '/home/update_virlib']) expect((await post(url, null, { as: viewer.token })).status).toBe(403);
  });
});

describe('Rampart releases (GET / POST /home/update)', () => {
  const releasesDir = () => path.join(h.dir, 'releases');
  const stagedRoot = () => path.join(h.dir, 'agent', 'releases');
  const notes = { 'zh-CN': '修复与改进', 'en-US': 'Fixes and improvements' };
  /** Puts a package and its signed manifest into the authority's releases folder. */
  async function publish(version: string, bytes: Buffer, keys = feedKeys, tamper = false): Promise<void> {
    const file = `rampart-${version}.tar.gz`;
    const release = signRelease({ version, date: new Date().toISOString(), notes, file }, bytes, keys);
    await writeFile(path.join(releasesDir(), `${file}.release.json`), JSON.stringify(release));
    // Tampered: the package changed after the vendor signed it (same size, other bytes).
    await writeFile(path.join(releasesDir(), file), tamper ? Buffer.from(bytes.map((byte) => byte ^ 0xff)) : bytes);
  }
  async function waitDownload(): Promise<Body['data']> {
    for (let i = 0; i < 200; i += 1) {
      const view = (await get('/home/update')).body.data;
      if (view.download.state !== 'downloading') return view;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the download did not finish');
  }
  let latestUrl = '';

  beforeAll(async () => {
    await mkdir(releasesDir(), { recursive: true });
    releases = buildAuthority({ db: h.licenceDb, releasesDir: releasesDir(), rateLimit: { max: 10_000, windowMs: 60_000 } });
    await releases.listen({ host: '127.0.0.1', port: 0 });
    latestUrl = `http://127.0.0.1:${(releases.server.address() as { port: number }).port}/v1/releases/latest`;
  });

  it('without a pinned vendor key says so, and checks the licence authority by default', async () => {
    const answer = await get('/home/update?check=1', 'zh-CN');
    expect(answer.body.msg).toBe('尚未设置厂商公钥，无法验证版本：请先填写厂商提供的公钥');
    expect(answer.body.data).toMatchObject({ current: '0.1.0', url: `${h.console.ctx.licence.baseUrl}/v1/releases/latest`, url_configured: false, key_id: null, check: { state: 'no_key' }, can_install: false });
  });

  it('says when the source is offline, with the reason, in both languages', async () => {
    // A port nothing listens on: taken, then let go.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}/v1/releases/latest`;
    await new Promise((resolve) => probe.close(resolve));
    expect((await post('/home/update', { action: 'settings', url: closedUrl, public_key: feedKeys.publicKey })).body).toMatchObject({ code: 0, msg: 'Release update settings saved' });
    const en = await get('/home/update?check=1');
    expect(en.body.data.check).toMatchObject({ state: 'offline', reason: 'release_offline', detail: 'ECONNREFUSED' });
    expect(en.body.msg).toBe(`The release source ${closedUrl} cannot be reached: ECONNREFUSED`);
    expect((await get('/home/update?check=1', 'zh-CN')).body.msg).toBe(`无法连接版本来源 ${closedUrl}：ECONNREFUSED`);
    expect((await post('/home/update', { action: 'download' })).body).toMatchObject({ code: 2, msg: 'There is no newer release to download; check for updates first' });
  });

  it('finds a newer release, downloads it with progress, verifies it and stages it', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a);
    await publish('0.2.0', bytes);
    await publish('0.1.5', Buffer.from('older'));
    await post('/home/update', { action: 'settings', url: latestUrl, public_key: feedKeys.publicKey });
    const check = await get('/home/update?check=1', 'zh-CN');
    expect(check.body.msg).toBe('有新版本 0.2.0 可用');
    expect(check.body.data.check).toMatchObject({ state: 'available', latest: { version: '0.2.0', notes, size: bytes.length, file: 'rampart-0.2.0.tar.gz' } });
    const started = await post('/home/update', { action: 'download' });
    expect(started.body).toMatchObject({ code: 0, msg: 'Downloading version 0.2.0', data: { download: { state: 'downloading', total: bytes.length } } });
    const view = await waitDownload();
    expect(view.download).toMatchObject({ state: 'staged', version: '0.2.0', bytes: bytes.length, total: bytes.length, staged_path: path.join(stagedRoot(), '0.2.0') });
    expect((await readFile(path.join(stagedRoot(), '0.2.0', 'rampart-0.2.0.tar.gz'))).equals(bytes)).toBe(true);
    expect(JSON.parse(await readFile(path.join(stagedRoot(), '0.2.0', 'release.json'), 'utf8'))).toMatchObject({ version: '0.2.0' });
    expect(view.can_install).toBe(false);
  });

  it('refuses a tampered package and stages nothing', async () => {
    await publish('0.3.0', Buffer.alloc(4096, 7), feedKeys, true);
    expect((await get('/home/update?check=1')).body.data.check).toMatchObject({ state: 'available', latest: { version: '0.3.0' } });
    await post('/home/update', { action: 'download' });
    const view = await waitDownload();
    expect(view.download).toMatchObject({ state: 'failed', reason: 'release_hash_mismatch', staged_path: '' });
    expect(existsSync(path.join(stagedRoot(), '0.3.0'))).toBe(false);
    expect((await readdir(stagedRoot())).sort()).toEqual(['0.2.0']);
  });

  it('refuses a release signed by another key, and a download of it', async () => {
    await publish('0.4.0', Buffer.from('other vendor'), otherKeys);
    const en = await get('/home/update?check=1');
    expect(en.body.data.check).toMatchObject({ state: 'refused', reason: 'release_unknown_key', latest: null });
    expect(en.body.msg).toContain('is not the vendor key set here');
    expect((await get('/home/update?check=1', 'zh-CN')).body.msg).toContain('与设置的厂商公钥不符');
    expect((await post('/home/update', { action: 'download' }, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '没有可下载的新版本，请先检查更新' });
  });

  it('refuses bad settings in both languages and changes nothing', async () => {
    const before = (await get('/home/update')).body.data;
    const zh = await post('/home/update', { action: 'settings', url: 'ftp://vendor.test/latest', public_key: '' }, { lang: 'zh-CN' });
    expect(zh.body).toMatchObject({ code: 2, msg: '版本来源网址须以 http:// 或 https:// 开头' });
    const en = await post('/home/update', { action: 'settings', url: '', public_key: 'short' });
    expect(en.body.code).toBe(2);
    expect((await post('/home/update', { action: 'install' })).body.code).toBe(2);
    expect((await get('/home/update')).body.data).toEqual(before);
  });
});
