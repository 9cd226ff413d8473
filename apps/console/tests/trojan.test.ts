import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { defaultTrojanSettings, trojanDirSchema, trojanIsolatedSchema, trojanResultSchema, trojanScanSchema, trojanSettingsSchema, trojanStatusSchema, type TrojanSettings } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * Trojan (web-shell) protection's console calls against a real agent on a real socket, on real files
 * in a temp dir: settings, protected directories, a scan of a small PHP web shell written here, its
 * handling (isolate → the isolated list → the source → restore, asked again before overwriting →
 * delete), the audit's one-off scans, and who may do what. The module stays off: no watch runs.
 */

let h: Harness;
let agent: RunningAgent;
let token: string;
let www: string;
let site: string;

const shell = "<?php eval($_POST['x']);\n";
/** Another web shell with other bytes: a restored file's bytes are trusted from then on. */
const shellNamed = (name: string) => `<?php eval($_POST['${name}']);\n`;

beforeAll(async () => {
  h = await startHarness({ agent: false });
  www = join(h.dir, 'www');
  site = join(h.dir, 'site-root');
  mkdirSync(www);
  mkdirSync(site);
  // Recorded `nginx -T` output naming one site root: what "sites found on this server" reads.
  const dump = join(h.dir, 'nginx-T.txt');
  writeFileSync(dump, `# configuration file /etc/nginx/nginx.conf:\nhttp {\n  server {\n    listen 80;\n    server_name shop.test;\n    root ${site};\n  }\n}\n`);
  agent = await startAgent({
    socketPath: join(h.dir, 'agent.sock'),
    stateDir: join(h.dir, 'agent'),
    executors: { restartSoftware: async () => undefined, rebootServer: async () => undefined },
    log: () => {},
    logs: { now: () => h.clock.now, background: false },
    firewall: { nft: null, background: false, sensors: { journal: false } },
    guard: { spawn: false, background: false },
    trojan: { timers: false, discovery: { nginx: { command: 'cat', args: [dump] }, apache: { command: '/nonexistent/apachectl', args: ['-S'] } } },
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
  await agent.close();
});

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data?: any };
async function post(url: string, payload?: unknown, options: { lang?: Lang; as?: string } = {}): Promise<{ status: number; body: Body }> {
  return magapi(h.app, 'POST', url, { token: options.as ?? token, payload, lang: options.lang ?? 'en-US' });
}
async function get(url: string, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> {
  return magapi(h.app, 'GET', url, { token: as, lang });
}
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const finished = (state: string) => state === 'complete' || state === 'end';

describe('trojan protection: settings and directories through the console', () => {
  it('round-trips the settings; bad settings are refused in both languages and change nothing', async () => {
    expect(trojanSettingsSchema.parse((await get('/trojan/settings')).body.data)).toEqual(defaultTrojanSettings);
    const next: TrojanSettings = {
      ...defaultTrojanSettings, realtime: false, extensions: ['php', 'jsp'], sizeLimitKb: 512, handling: 'record',
      whitelist: ['/var/www/cache', '*/vendor/*'], isolateRetentionDays: 0, schedule: { enabled: true, time: '04:30' },
    };
    expect((await post('/trojan/settings', { settings: next })).body).toMatchObject({ code: 0, msg: 'Saved' });
    expect((await get('/trojan/settings')).body.data).toEqual(next);

    const refusedIn = async (settings: unknown, zh: string, en: string) => {
      const z = await post('/trojan/settings', { settings }, { lang: 'zh-CN' });
      expect(z.status, JSON.stringify(settings)).toBe(400);
      expect(z.body.msg).toBe(zh);
      expect((await post('/trojan/settings', { settings })).body.msg).toBe(en);
    };
    await refusedIn({ ...next, whitelist: ['vendor/cache'] }, '白名单的部分路径必须包含 *，完整路径须以 / 开头', 'A partial whitelist path must contain *; a full path starts with /');
    await refusedIn({ ...next, sizeLimitKb: 0 }, '文件大小阈值须为 1-102400 KB 的整数', 'The file-size threshold is a whole number of KB from 1 to 102400');
    await refusedIn({ ...next, handling: 'trust' }, '处理方式须为信任、隔离、删除或仅记录', 'Handling is trust, isolate, delete or record only');
    await refusedIn({ ...next, schedule: { enabled: true, time: '25:00' } }, '时间格式为 HH:MM（24 小时制）', 'The time is HH:MM (24-hour)');
    await refusedIn({ ...next, isolateRetentionDays: -1 }, '隔离文件保留天数须为 0-3650 的整数（0 表示永不删除）', 'Days to keep isolated files: a whole number from 0 to 3650 (0 keeps them forever)');
    await refusedIn({ ...next, extensions: ['.php'] }, '查杀类型只能是 1-16 位字母、数字或下划线，不带点', 'A kill type is 1-16 letters, digits or underscores, without the dot');
    expect((await get('/trojan/settings')).body.data).toEqual(next);
    // The watch off and web shells only recorded: the rest of this file scans on demand and handles by hand.
    expect((await post('/trojan/settings', { settings: { ...defaultTrojanSettings, realtime: false, handling: 'record' } })).body.code).toBe(0);
  });

  it('adds, validates, discovers, edits, switches and deletes protected directories', async () => {
    expect((await get('/trojan/dirs')).body.data).toEqual({ total: 0, list: [] });
    // Nothing to scan yet.
    expect((await post('/trojan/scan/start', undefined, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '没有已启用的防护目录，请先添加防护目录' });

    const relative = await post('/trojan/dirs/add', { dirs: [{ path: 'var/www' }] }, { lang: 'zh-CN' });
    expect(relative).toMatchObject({ status: 400, body: { msg: '路径须为以 / 开头的绝对路径，且不能包含 ..' } });
    expect((await post('/trojan/dirs/add', { dirs: [{ path: `${www}/../www` }] })).body.msg).toBe('The path must be absolute (start with /) and must not contain ..');
    expect((await post('/trojan/dirs/add', { dirs: [{ path: www, remark: 'x'.repeat(201) }] })).body.msg).toBe('The remark is at most 200 characters');
    const missing = join(h.dir, 'no-such-dir');
    expect((await post('/trojan/dirs/add', { dirs: [{ path: missing }] }, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: `目录不存在或不是目录：${missing}`, data: { refused: 'trojan_path_not_dir', detail: missing } });
    expect((await post('/trojan/dirs/add', { dirs: [{ path: '/proc' }] })).body).toMatchObject({ code: 2, msg: 'This directory cannot be protected: /proc (a system virtual file system or the root)' });
    expect((await get('/trojan/dirs')).body.data.total).toBe(0);

    // The site found in the (recorded) nginx configuration is offered, not yet protected.
    expect((await get('/trojan/dirs/discover')).body.data.list).toEqual([{ site: 'shop.test', path: site, protected: false }]);
    const added = await post('/trojan/dirs/add', { dirs: [{ path: www, remark: 'main' }, { path: site, site: 'shop.test' }] });
    expect(added.body).toMatchObject({ code: 0, msg: 'Saved' });
    expect((await get('/trojan/dirs/discover')).body.data.list).toEqual([{ site: 'shop.test', path: site, protected: true }]);
    expect((await post('/trojan/dirs/add', { dirs: [{ path: www }] }, { lang: 'zh-CN' })).body.msg).toBe(`该目录已在防护列表中：${www}`);

    const list = (await get('/trojan/dirs?page=1&size=20')).body.data;
    expect(list.total).toBe(2);
    const rows = (list.list as unknown[]).map((d) => trojanDirSchema.parse(d));
    const main = rows.find((d) => d.path === www)!;
    const shop = rows.find((d) => d.path === site)!;
    expect(main).toMatchObject({ remark: 'main', enabled: true, site: '' });
    expect(shop).toMatchObject({ site: 'shop.test', enabled: true });
    expect((await get('/trojan/dirs?keyword=main')).body.data.total).toBe(1);

    expect((await post('/trojan/dirs/edit', { id: main.id, remark: 'main site' })).body.code).toBe(0);
    expect((await post('/trojan/dirs/edit', { id: 9999, remark: 'x' })).body).toMatchObject({ code: 2, msg: 'The protected directory does not exist' });
    expect((await post('/trojan/dirs/enable', { ids: [shop.id], enabled: false })).body.code).toBe(0);
    expect((await get('/trojan/dirs')).body.data.list.find((d: { id: number }) => d.id === shop.id)).toMatchObject({ enabled: false, state: 'off' });
    expect((await post('/trojan/dirs/delete', { ids: [shop.id] })).body.code).toBe(0);
    expect((await get('/trojan/dirs')).body.data.list.map((d: { path: string; remark: string }) => [d.path, d.remark])).toEqual([[www, 'main site']]);
    expect(trojanStatusSchema.parse((await get('/trojan/status')).body.data)).toMatchObject({ enabled: false, isolated: 0 });
  });

  it('refuses a bad YARA rule with the compiler\'s message and keeps the library as it was', async () => {
    const good = { rules: 'rule shop_backdoor { strings: $a = "SHOP-BACKDOOR-7" condition: $a }', hashes: [] };
    expect((await post('/trojan/library', { library: good })).body.code).toBe(0);
    const bad = await post('/trojan/library', { library: { rules: 'rule broken { condition: $missing }', hashes: [] } }, { lang: 'zh-CN' });
    expect(bad.body.code).toBe(2);
    expect(bad.body.msg).toMatch(/^自定义规则有误，未保存：.*missing/s);
    expect(bad.body.data.refused).toBe('trojan_rules_invalid');
    expect((await get('/trojan/library')).body.data).toMatchObject({ ...good, ruleCount: 1 });
    expect((await post('/trojan/library', { library: { rules: '', hashes: [] } })).body.code).toBe(0);
  });
});

describe('trojan protection: a scan, its results and their handling', () => {
  let resultId: number;
  const shellPath = () => join(www, 'shell.php');

  it('scans the protected directory with progress to complete and lists the web shell', async () => {
    writeFileSync(shellPath(), shell);
    writeFileSync(join(www, 'index.php'), "<?php echo 'hello';\n");
    const started = await post('/trojan/scan/start', undefined);
    expect(started.body).toMatchObject({ code: 0, msg: 'Scan started' });
    const id = trojanScanSchema.parse(started.body.data).id;
    const scan = await until(async () => (await get(`/trojan/scan?id=${id}`)).body.data, (s) => finished(s.state));
    expect(trojanScanSchema.parse(scan)).toMatchObject({ id, kind: 'full', state: 'complete', total: 2, done: 2, flagged: 1 });
    expect((await get('/trojan/scans?page=1&size=5')).body.data.list[0]).toMatchObject({ id, state: 'complete' });
    expect((await get('/trojan/scan?id=99999', 'zh-CN')).body).toMatchObject({ code: 2, msg: '扫描任务不存在' });

    const results = (await get(`/trojan/results?scan=${id}`)).body.data;
    expect(results.total).toBe(1);
    const row = trojanResultSchema.parse(results.list[0]);
    expect(row).toMatchObject({ scanId: id, name: 'shell.php', path: shellPath(), risk: 'high', handled: 'recorded', size: shell.length });
    resultId = row.id;
    // The clean file is not listed, even with every reported file asked for.
    expect((await get(`/trojan/results?scan=${id}&flagged=0`)).body.data.list.map((r: { name: string }) => r.name)).not.toContain('index.php');
  });

  it('isolates the shell, shows it and its source, asks before overwriting on restore, restores and deletes', async () => {
    expect((await post('/trojan/results/handle', { ids: [resultId], action: 'isolate' })).body).toMatchObject({ code: 0, msg: '1 files handled' });
    expect(existsSync(shellPath())).toBe(false);
    const isolated = (await get('/trojan/isolate')).body.data;
    expect(isolated.total).toBe(1);
    const item = trojanIsolatedSchema.parse(isolated.list[0]);
    expect(item).toMatchObject({ name: 'shell.php', originalPath: shellPath(), size: shell.length, risk: 'high', source: 'manual' });
    expect((await get('/trojan/status')).body.data.isolated).toBe(1);

    const source = (await get(`/trojan/isolate/source?id=${item.id}`)).body.data;
    expect(source).toMatchObject({ id: item.id, text: shell, truncated: false, binary: false });
    expect(source.findings.length).toBeGreaterThan(0);
    expect((await get('/trojan/isolate/source?id=99999', 'zh-CN')).body).toMatchObject({ code: 2, msg: '隔离文件不存在' });

    // Something new now sits at the original path: restoring asks first and changes nothing.
    writeFileSync(shellPath(), 'new content');
    const asked = await post('/trojan/isolate/restore', { ids: [item.id], overwrite: false }, { lang: 'zh-CN' });
    expect(asked.body).toMatchObject({ code: 2, msg: `原路径已有文件，确认覆盖后再还原：${shellPath()}`, data: { refused: 'trojan_restore_exists' } });
    expect(readFileSync(shellPath(), 'utf8')).toBe('new content');
    expect((await get('/trojan/isolate')).body.data.total).toBe(1);
    expect((await post('/trojan/isolate/restore', { ids: [item.id], overwrite: true })).body).toMatchObject({ code: 0, msg: '1 files restored' });
    expect(readFileSync(shellPath(), 'utf8')).toBe(shell);
    expect((await get('/trojan/isolate')).body.data.total).toBe(0);

    // Restoring said the file is not a web shell: its bytes are trusted, the next scan passes it.
    const id = (await post('/trojan/scan/start', undefined)).body.data.id as number;
    await until(async () => (await get(`/trojan/scan?id=${id}`)).body.data, (s) => finished(s.state));
    expect((await get(`/trojan/results?scan=${id}`)).body.data.total).toBe(0);

    // Another shell: scan, isolate, then delete the isolated file for good.
    rmSync(shellPath());
    writeFileSync(join(www, 'second.php'), shellNamed('second'));
    const id2 = (await post('/trojan/scan/start', undefined)).body.data.id as number;
    await until(async () => (await get(`/trojan/scan?id=${id2}`)).body.data, (s) => finished(s.state));
    const again = (await get(`/trojan/results?scan=${id2}`)).body.data.list[0];
    expect(again).toMatchObject({ name: 'second.php', handled: 'recorded' });
    expect((await post('/trojan/results/handle', { ids: [again.id], action: 'isolate' })).body.code).toBe(0);
    const second = (await get('/trojan/isolate')).body.data.list[0];
    expect((await post('/trojan/isolate/delete', { ids: [second.id] })).body).toMatchObject({ code: 0, msg: '1 files deleted' });
    expect((await get('/trojan/isolate')).body.data.total).toBe(0);
    expect(existsSync(join(www, 'second.php'))).toBe(false);
    expect((await post('/trojan/isolate/delete', { ids: [second.id] }, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '隔离文件不存在' });
    // A finished scan cannot be stopped.
    expect((await post('/trojan/scan/cancel', { id }, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '该扫描已经结束' });

    // A batch where one file went away meanwhile: the rest is done, and the answer says so.
    writeFileSync(join(www, 'a.php'), shellNamed('a'));
    writeFileSync(join(www, 'b.php'), shellNamed('b'));
    const batch = (await post('/trojan/scan/start', undefined)).body.data.id as number;
    await until(async () => (await get(`/trojan/scan?id=${batch}`)).body.data, (s) => finished(s.state));
    const pair = (await get(`/trojan/results?scan=${batch}`)).body.data.list as { id: number; name: string }[];
    expect(pair.map((r) => r.name).sort()).toEqual(['a.php', 'b.php']);
    rmSync(join(www, 'b.php'));
    const partly = await post('/trojan/results/handle', { ids: pair.map((r) => r.id), action: 'delete' }, { lang: 'zh-CN' });
    expect(partly.body).toMatchObject({ code: 1, msg: '已处理 1 个，1 个未能处理' });
    expect(existsSync(join(www, 'a.php'))).toBe(false);
    // All of it gone: refused with the first failure's words.
    const none = await post('/trojan/results/handle', { ids: [pair.find((r) => r.name === 'b.php')!.id], action: 'isolate' });
    expect(none.body).toMatchObject({ code: 2, msg: 'The file no longer exists' });

    // Nothing selected is refused before the agent.
    expect((await post('/trojan/results/handle', { ids: [], action: 'isolate' }, { lang: 'zh-CN' })).body.msg).toBe('请选择要操作的项目');
  });
});

describe('the audit\'s trojan tab', () => {
  it('scans chosen paths under the audit permission and handles only audit results', async () => {
    const audited = join(h.dir, 'audited');
    mkdirSync(audited);
    writeFileSync(join(audited, 'up.php'), shellNamed('up'));
    expect((await get('/audit/trojan/scan')).body.data).toBeNull();
    expect((await get('/audit/trojan/results')).body.data).toEqual({ total: 0, list: [] });
    expect((await post('/audit/trojan/scan', { paths: [] }, { lang: 'zh-CN' })).body.msg).toBe('请选择要扫描的路径');
    expect((await post('/audit/trojan/scan', { paths: ['relative/path'] })).body.msg).toBe('The path must be absolute (start with /) and must not contain ..');

    const started = await post('/audit/trojan/scan', { paths: [audited] });
    expect(started.body).toMatchObject({ code: 0, data: { kind: 'audit', paths: [audited] } });
    const scan = await until(async () => (await get('/audit/trojan/scan')).body.data, (s) => s !== null && finished(s.state));
    expect(scan).toMatchObject({ id: started.body.data.id, state: 'complete', flagged: 1 });
    const results = (await get('/audit/trojan/results')).body.data;
    expect(results.list).toHaveLength(1);
    expect(results.list[0]).toMatchObject({ name: 'up.php', risk: 'high', handled: 'pending' });

    // A full scan's ids are not the audit's: refused, nothing handled.
    const full = (await post('/trojan/scan/start', undefined)).body.data.id as number;
    await until(async () => (await get(`/trojan/scan?id=${full}`)).body.data, (s) => finished(s.state));
    expect((await get(`/audit/trojan/results?scan=${full}`, 'zh-CN')).body).toMatchObject({ code: 2, msg: '扫描任务不存在' });
    expect((await post('/audit/trojan/cancel', { id: full })).body).toMatchObject({ code: 2, msg: 'The scan does not exist' });
    writeFileSync(join(www, 'other.php'), shellNamed('other'));
    const id2 = (await post('/trojan/scan/start', undefined)).body.data.id as number;
    await until(async () => (await get(`/trojan/scan?id=${id2}`)).body.data, (s) => finished(s.state));
    const fullResult = (await get(`/trojan/results?scan=${id2}`)).body.data.list[0];
    expect(fullResult).toMatchObject({ name: 'other.php' });
    expect((await post('/audit/trojan/handle', { ids: [fullResult.id], action: 'record' })).body).toMatchObject({ code: 2, msg: 'The scan result does not exist' });

    expect((await post('/audit/trojan/handle', { ids: [results.list[0].id], action: 'record' })).body).toMatchObject({ code: 0 });
    expect((await get('/audit/trojan/results')).body.data.list[0]).toMatchObject({ handled: 'recorded' });
    expect(existsSync(join(audited, 'up.php'))).toBe(true);
  });
});

describe('who may do what', () => {
  it('an auditor reaches no trojan route; a technician does, the audit tab included', async () => {
    const auditor = await h.addUser('auditor');
    const technician = await h.addUser('technician');
    for (const url of ['/trojan/status', '/trojan/settings', '/trojan/dirs', '/trojan/isolate', '/audit/trojan/scan', '/audit/trojan/results']) {
      expect((await get(url, 'en-US', auditor.token)).status, url).toBe(403);
      expect((await get(url, 'en-US', technician.token)).status, url).toBe(200);
    }
    expect((await post('/trojan/dirs/add', { dirs: [{ path: site }] }, { as: auditor.token })).status).toBe(403);
    expect((await post('/audit/trojan/scan', { paths: [site] }, { as: auditor.token })).status).toBe(403);
    expect((await post('/trojan/results/handle', { ids: [1], action: 'delete' }, { as: auditor.token })).status).toBe(403);
    expect((await post('/trojan/dirs/add', { dirs: [{ path: site }] }, { as: technician.token })).body.code).toBe(0);
  });
});
