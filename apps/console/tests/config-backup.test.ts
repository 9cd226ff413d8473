import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, configBackupsKept, configMaxBytes, defaultLogSettings, type ConfigFile, type FirewallRuleInput } from '@rampart/contracts';
import { getModuleFlags } from '../src/db/modules.ts';
import { getSetting, settingDefs, type SettingKey } from '../src/db/settings.ts';
import { CommonAreasRepo } from '../../agent/src/firewall/common-areas-repo.ts';
import { secretBox } from '../src/security/secret-box.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * Configuration backup against a real agent on a real socket and a real SQLite file: export,
 * change, restore, and every refusal leaving the whole state as it was.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
type Body = { code: number; msg: string; data?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- loosely typed answers

async function post(url: string, payload?: unknown, options: { lang?: Lang; ip?: string; type?: string; user?: string } = {}) {
  const raw = typeof payload === 'string';
  const res = await h.app.inject({
    method: 'POST',
    url: `/magapi${url}`,
    ...(payload === undefined ? {} : { payload: raw ? payload : JSON.stringify(payload) }),
    headers: {
      ...auth(options.user ?? token),
      'accept-language': options.lang ?? 'en-US',
      ...(payload === undefined ? {} : { 'content-type': options.type ?? (raw ? 'application/octet-stream' : 'application/json') }),
    },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return { status: res.statusCode, body: res.json() as Body };
}
async function get(url: string, lang: Lang = 'en-US') {
  const res = await h.app.inject({ url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang } });
  const isJson = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, body: (isJson ? res.json() : {}) as Body, text: res.body, headers: res.headers };
}

/** Everything a restore may touch: panel settings and switches as stored, and the agent's part. */
async function fullState() {
  const db = h.console.ctx.db;
  return {
    // Every setting as the console reads it (a restore writes defaults for the ones the file leaves at them).
    settings: Object.fromEntries((Object.keys(settingDefs) as SettingKey[]).map((key) => [key, getSetting(db, key)])),
    modules: getModuleFlags(db),
    agentModules: await h.agentClient.call('module.list', {}),
    // A secret restored into a rule made anew is sealed again (new IV): compare whether one is there.
    agent: JSON.parse(JSON.stringify(await h.agentClient.call('config.export', {})).replace(/"v1:[^"]*"/g, '"sealed"')) as unknown,
    backupRules: await h.agentClient.call('logs.backup.get', {}),
  };
}

/** The same file with `edit` applied to its content, checksum recomputed (a well-formed file with bad content). */
function resealed(text: string, edit: (file: ConfigFile) => void): string {
  const file = JSON.parse(text) as ConfigFile;
  edit(file);
  file.checksum = `sha256:${createHash('sha256').update(canonicalJson(file.content)).digest('hex')}`;
  return JSON.stringify(file);
}

async function exported(): Promise<string> {
  const res = await get('/system/config/export');
  expect(res.status).toBe(200);
  return res.text;
}

const rule: FirewallRuleInput = { direction: 'in', protocol: 'tcp', ports: '8080', ips: ['198.51.100.0/24'], areas: [], action: 'deny', priority: 5, enabled: true, remark: 'lab' };
const backupRule = {
  enabled: true, type: 'ftp' as const, bucket: '', domain: '', ip: '127.0.0.1', port: 2121, username: 'u',
  password: 'Pa55word!', access_id: '', access_secret: '', save_path: '/logs', remark: 'ftp',
};

async function makeState(alias: string) {
  expect((await post('/firewall/rules/add', rule)).body.code).toBe(0);
  // A common area and a rule that uses it (`common:<id>`): the area keeps its id through a restore.
  const areaId = new CommonAreasRepo(h.agent!.firewall.db).insert({ name: 'Neighbours', members: ['JP', 'CN-GD'], remark: 'near' }, h.clock.now);
  expect((await post('/firewall/rules/add', { ...rule, ips: [], areas: [`common:${areaId}`], ports: '22', remark: 'by area' })).body.code).toBe(0);
  expect((await post('/firewall/lists/add', { list: 'black', addresses: ['203.0.113.7', '2001:db8::/64'], remark: 'bad' })).body.code).toBe(0);
  expect((await post('/firewall/lists/add', { list: 'white', addresses: ['192.0.2.10'], remark: 'office' })).body.code).toBe(0);
  await h.agentClient.call('trust.add', { addresses: ['192.0.2.99'], added_by: 'admin', remark: 'me', expires_at: null });
  const attack = await h.agentClient.call('firewall.attack.get', {});
  expect((await post('/firewall/attack', { ...attack, cc: { ...attack.cc, per_minute: 777 } })).body.code).toBe(0);
  expect((await post('/system/log', { ...defaultLogSettings, mode: 'full', keep_days: 45 })).body.code).toBe(0);
  expect((await post('/system/log_backup', { rules: [backupRule] })).body.code).toBe(0);
  await h.agentClient.call('ntp.set', { settings: { enabled: false, servers: ['time.example.com', '192.0.2.123:1123'], interval_minutes: 30 } });
  h.console.ctx.db.prepare("INSERT INTO settings (key, value) VALUES ('server_alias', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(JSON.stringify(alias));
}

async function changeEverything() {
  const areas = new CommonAreasRepo(h.agent!.firewall.db);
  areas.insert({ name: 'Other', members: ['US'], remark: '' }, h.clock.now);
  const rules = await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 100 });
  await post('/firewall/rules/delete', { ids: rules.list.map((r) => r.id) });
  await post('/firewall/rules/add', { ...rule, ports: '9999', remark: 'other' });
  await post('/firewall/lists/delete', { list: 'black', ids: 'all' });
  await post('/firewall/lists/add', { list: 'black', addresses: ['198.51.100.200'], remark: 'new' });
  await h.agentClient.call('trust.delete', { target: 'all' });
  await post('/firewall/attack', await h.agentClient.call('firewall.attack.get', {}).then((a) => ({ ...a, cc: { ...a.cc, per_minute: 5 } })));
  await post('/system/log', { ...defaultLogSettings, keep_days: 200 });
  await post('/system/log_backup', { rules: [] });
  await h.agentClient.call('ntp.set', { settings: { enabled: false, servers: [], interval_minutes: 5 } });
  await post('/module_switch', { module: 'firewall', status: 1 });
  h.console.ctx.db.prepare("UPDATE settings SET value = ? WHERE key = 'server_alias'").run(JSON.stringify('changed'));
}

const tick = () => { h.clock.now += 1000; };

describe('export and restore', () => {
  it('exports a marked, versioned, checksummed file and restores it exactly', async () => {
    await makeState('web-01');
    const before = await fullState();
    const text = await exported();
    const file = JSON.parse(text) as ConfigFile;
    expect(file).toMatchObject({ format: 'rampart-config', format_version: 1, software_version: '0.1.0', device: 'a'.repeat(32) });
    expect(file.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(file.content.console.settings['server_alias']).toBe('web-01');
    expect(file.content.console.settings).not.toHaveProperty('protection');
    expect(file.content.agent.firewall.lists.black.map((e) => e[0])).toEqual(['203.0.113.7', '2001:db8::/64']);
    expect(file.content.agent.ntp).toEqual({ enabled: false, servers: ['time.example.com', '192.0.2.123:1123'], interval_minutes: 30 });
    expect(file.content.agent.firewall.areas).toEqual([expect.objectContaining({ name: 'Neighbours', members: ['JP', 'CN-GD'] })]);
    // The log-backup password travels sealed, never in clear.
    expect(text).not.toContain('Pa55word!');
    expect(file.content.agent.logs.backup_rules[0]?.sealed_password).toMatch(/^v1:/);

    await changeEverything();
    expect((await fullState()).agent).not.toEqual(before.agent);
    tick();
    const restored = await post('/system/config/import', text, { lang: 'en-US' });
    expect(restored.body).toMatchObject({ code: 0, msg: 'Configuration restored' });
    expect(restored.body.data.secrets_dropped).toBe(0);
    const after = await fullState();
    expect(after.agent).toEqual(before.agent);
    expect(after.settings).toEqual(before.settings);
    expect(after.modules).toEqual(before.modules);
    expect(after.agentModules).toEqual(before.agentModules);
    // The password opened on this machine and was sealed again: the rule still has it.
    expect(after.backupRules.rules[0]).toMatchObject({ ip: '127.0.0.1', has_password: true });
  });

  it('accepts the file as JSON too, and answers in Chinese', async () => {
    const text = await exported();
    tick();
    const res = await post('/system/config/import', JSON.parse(text), { lang: 'zh-CN' });
    expect(res.body).toMatchObject({ code: 0, msg: '配置已恢复' });
  });

  it('takes an automatic backup before every restore, and that backup undoes it', async () => {
    const original = await exported();
    const state = await fullState();
    h.console.ctx.db.prepare("UPDATE settings SET value = ? WHERE key = 'server_alias'").run(JSON.stringify('to-be-undone'));
    const changed = await exported();
    const inBetween = await fullState();
    h.console.ctx.db.prepare("UPDATE settings SET value = ? WHERE key = 'server_alias'").run(JSON.stringify('web-01'));
    tick();
    const res = await post('/system/config/import', changed);
    expect(res.body.code).toBe(0);
    const undoFile = res.body.data.undo_file as string;
    expect(undoFile).toMatch(/-auto\.json$/);
    const list = (await get('/system/config/backup')).body.data.list as Array<{ file: string; kind: string; software_version: string; created_at: number; size: number }>;
    expect(list.find((b) => b.file === undoFile)).toMatchObject({ kind: 'auto', software_version: '0.1.0' });
    expect((await fullState()).settings).toEqual(inBetween.settings);
    tick();
    // POST /system/config/restore applies the newest automatic backup: the state before the restore.
    expect((await post('/system/config/restore')).body).toMatchObject({ code: 0 });
    expect((await fullState()).settings).toEqual(state.settings);
    expect(original).toContain('web-01');
  });
});

describe('refusals change nothing', () => {
  const backupCount = async () => ((await get('/system/config/backup')).body.data.list as unknown[]).length;

  it.each<[string, (text: string) => string, Record<Lang, RegExp>]>([
    ['a corrupted file', (text) => text.slice(0, text.length / 2), { 'en-US': /not a configuration file \(not JSON\)/, 'zh-CN': /不是有效的配置文件/ }],
    ['a file with the wrong marker', (text) => text.replace('"rampart-config"', '"other-config"'), { 'en-US': /not a Rampart configuration file/, 'zh-CN': /不是 Rampart 的配置文件/ }],
    ['a newer format', (text) => text.replace('"format_version": 1', '"format_version": 99'), { 'en-US': /format version 99, newer than this software reads \(1\)/, 'zh-CN': /格式版本（99）/ }],
    ['an edited file (checksum)', (text) => text.replace('"web-01"', '"evil"'), { 'en-US': /fails its checksum/, 'zh-CN': /校验失败/ }],
    ['a file with one invalid rule', (text) => resealed(text, (f) => { f.content.agent.firewall.rules[0]!.ports = '70000'; }), { 'en-US': /\(firewall\.rules\.0\.ports\): Ports look like/, 'zh-CN': /firewall\.rules\.0\.ports/ }],
    ['a rule naming a common area the file lacks', (text) => resealed(text, (f) => { f.content.agent.firewall.rules[0]!.areas = ['common:999']; }), { 'en-US': /firewall\.rules\.0\.areas\.0\): A common area the rule uses does not exist/, 'zh-CN': /常用区域不存在/ }],
    ['a file with an invalid NTP interval', (text) => resealed(text, (f) => { f.content.agent.ntp.interval_minutes = 0; }), { 'en-US': /\(ntp\.interval_minutes\)/, 'zh-CN': /ntp\.interval_minutes/ }],
    ['a file with an invalid list entry', (text) => resealed(text, (f) => { f.content.agent.firewall.lists.black[0]![0] = '300.1.1.1'; }), { 'en-US': /\(firewall\.lists\.black\.0\.0\): Not a valid IP/, 'zh-CN': /firewall\.lists\.black\.0\.0/ }],
    ['a file with an invalid console setting', (text) => resealed(text, (f) => { f.content.console.settings['session_timeout'] = -5; }), { 'en-US': /console\.settings\.session_timeout/, 'zh-CN': /console\.settings\.session_timeout/ }],
    ['deeply nested content', (text) => text.replace(/"content": \{[\s\S]*\}\s*$/, `"content": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`), { 'en-US': /damaged/, 'zh-CN': /已损坏/ }],
    ['not an object', () => '[1,2,3]', { 'en-US': /not a Rampart configuration file/, 'zh-CN': /不是 Rampart/ }],
    ['an empty body', () => '   ', { 'en-US': /Choose a configuration file/, 'zh-CN': /请选择要导入的配置文件/ }],
  ])('refuses %s with its reason in both languages', async (_name, spoil, reasons) => {
    const good = await exported();
    const bad = spoil(good);
    const before = await fullState();
    const backups = await backupCount();
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const res = await post('/system/config/import', bad, { lang });
      // A file that is not a valid configuration is bad input: 400, code 2, on the field `file`.
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 2, data: { field: 'file' } });
      expect(res.body.msg).toMatch(reasons[lang]);
      const upload = await post('/system/config/upload', bad, { lang });
      expect(upload.body.code).toBe(2);
      expect(upload.body.msg).toMatch(reasons[lang]);
    }
    expect(await fullState()).toEqual(before);
    expect(await backupCount()).toBe(backups);
  });

  it('says which rule is wrong in the reason (port list), localized', async () => {
    const bad = resealed(await exported(), (f) => { f.content.agent.firewall.rules[0]!.ports = 'abc'; });
    const en = await post('/system/config/import', bad, { lang: 'en-US' });
    const zh = await post('/system/config/import', bad, { lang: 'zh-CN' });
    expect(en.body.msg).toContain('firewall.rules.0.ports');
    expect(en.body.msg).toContain('Nothing was changed');
    expect(zh.body.msg).toContain('配置未作任何更改');
    expect(en.body.msg).not.toEqual(zh.body.msg);
  });

  it('refuses an oversized upload with 413 and changes nothing', async () => {
    const before = await fullState();
    const res = await post('/system/config/import', 'x'.repeat(configMaxBytes + 1));
    expect(res.status).toBe(413);
    expect(await fullState()).toEqual(before);
  });
});

describe('big lists', () => {
  it('carries a list larger than one agent call in chunks, and restores it exactly', async () => {
    const guard = { admin_ip: null, panel_port: 6688, account: 'admin' };
    const addresses = Array.from({ length: 120_000 }, (_v, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let i = 0; i < addresses.length; i += 50_000) {
      await h.agentClient.call('firewall.lists.add', { list: 'black', addresses: addresses.slice(i, i + 50_000), remark: 'feed', expires_at: null, guard }, { timeoutMs: 60_000 });
    }
    const text = await exported();
    expect((JSON.parse(text) as ConfigFile).content.agent.firewall.lists.black.length).toBeGreaterThanOrEqual(120_000);
    const before = await h.agentClient.call('firewall.lists.list', { list: 'black', offset: 0, limit: 50_000 });
    await h.agentClient.call('firewall.lists.delete', { list: 'black', target: 'all', guard });
    tick();
    const res = await post('/system/config/import', text);
    expect(res.body.code).toBe(0);
    const after = await h.agentClient.call('firewall.lists.list', { list: 'black', offset: 0, limit: 50_000 });
    expect(after.total).toBe(before.total);
    expect(after.list.map((e) => e.address)).toEqual(before.list.map((e) => e.address));
    // Back to the small state for the tests below.
    await h.agentClient.call('firewall.lists.delete', { list: 'black', target: 'all', guard });
  }, 120_000);
});

describe('server backups', () => {
  it('makes one now, lists it with version, time and size, downloads and restores it by id', async () => {
    tick();
    const made = await post('/system/config/backup');
    expect(made.body).toMatchObject({ code: 0, msg: 'Backup made' });
    const name = made.body.data.file as string;
    expect(name).toMatch(/^rampart-config-\d{8}-\d{6}-[a-z0-9]{6}-manual\.json$/);
    const state = await fullState();
    const list = (await get('/system/config/backup')).body.data.list as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({ file: name, kind: 'manual', software_version: '0.1.0', created_at: h.clock.now });
    expect(list[0]!['size']).toBeGreaterThan(100);
    const download = await get(`/system/config/backup?file=${name}`);
    expect(download.headers['content-disposition']).toContain(name);
    expect(JSON.parse(download.text)).toMatchObject({ format: 'rampart-config' });

    h.console.ctx.db.prepare("UPDATE settings SET value = ? WHERE key = 'server_alias'").run(JSON.stringify('after-backup'));
    await post('/firewall/lists/add', { list: 'white', addresses: ['192.0.2.123'], remark: 'x' });
    tick();
    const restored = await post(`/system/config/backup/restore?fid=${name}`, undefined, { lang: 'zh-CN' });
    expect(restored.body).toMatchObject({ code: 0, msg: '配置已恢复' });
    const after = await fullState();
    expect(after.agent).toEqual(state.agent);
    expect(after.settings).toEqual(state.settings);
  });

  it('stores an uploaded file as a server backup without applying it', async () => {
    const text = resealed(await exported(), (f) => { f.content.console.settings['server_alias'] = 'uploaded'; });
    const before = await fullState();
    tick();
    const res = await post('/system/config/upload', text);
    expect(res.body).toMatchObject({ code: 0 });
    expect(res.body.data.file).toMatch(/-upload\.json$/);
    expect(await fullState()).toEqual(before);
    const list = (await get('/system/config/backup')).body.data.list as Array<{ file: string; kind: string }>;
    expect(list.some((b) => b.file === res.body.data.file && b.kind === 'upload')).toBe(true);
  });

  it('keeps an uploaded file as written, so one in a looser form than ours restores later', async () => {
    // A rule with its optional fields left out and a remark with spaces: valid, normalized when checked.
    const text = resealed(await exported(), (f) => {
      f.content.agent.firewall.rules = [{ direction: 'in', protocol: 'tcp', ports: '2222', ips: ['192.0.2.1'], action: 'deny', priority: 9, remark: '  loose  ' } as never];
    });
    tick();
    const stored = await post('/system/config/upload', JSON.parse(text));
    expect(stored.body.code).toBe(0);
    tick();
    const restored = await post(`/system/config/backup/restore?fid=${stored.body.data.file as string}`);
    expect(restored.body).toMatchObject({ code: 0 });
    expect((await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list).toEqual([
      expect.objectContaining({ ports: '2222', remark: 'loose', enabled: true, areas: [] }),
    ]);
  });

  it('deletes a backup; a missing one is refused in both languages', async () => {
    tick();
    const name = (await post('/system/config/backup')).body.data.file as string;
    expect((await post(`/system/config/backup/delete?file=${name}`)).body).toMatchObject({ code: 0, msg: 'Backup deleted' });
    expect((await post(`/system/config/backup/delete?file=${name}`)).body).toMatchObject({ code: 2, msg: 'The backup does not exist' });
    expect((await post(`/system/config/backup/restore?fid=${name}`, undefined, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '备份文件不存在' });
    expect((await get(`/system/config/backup?file=${name}`)).body).toMatchObject({ code: 2 });
  });

  it('refuses path traversal in file and fid, reading and changing nothing', async () => {
    const before = await fullState();
    const files = readdirSync(join(h.dir, 'config-backups')).sort();
    for (const evil of ['../panel.db', '..%2Fpanel.db', '/etc/passwd', 'rampart-config-20260101-000000-abcdef-manual.json%2F..%2F..%2Fpanel.db', '.%2E%2Fagent%2Fsecret.key', 'rampart-config-20260101-000000-abcdef-manual.json/../x']) {
      const download = await get(`/system/config/backup?file=${evil}`);
      expect(download.status).toBe(400);
      expect(download.body.msg).toBe('The backup does not exist');
      expect((await post(`/system/config/backup/restore?fid=${evil}`)).status).toBe(400);
      expect((await post(`/system/config/backup/delete?file=${evil}`)).status).toBe(400);
    }
    expect(readdirSync(join(h.dir, 'config-backups')).sort()).toEqual(files);
    expect(await fullState()).toEqual(before);
  });

  it(`keeps the newest ${configBackupsKept}`, async () => {
    for (let i = 0; i < configBackupsKept + 3; i += 1) {
      tick();
      expect((await post('/system/config/backup')).body.code).toBe(0);
    }
    const list = (await get('/system/config/backup')).body.data.list as Array<{ created_at: number }>;
    expect(list).toHaveLength(configBackupsKept);
    expect(list[0]!.created_at).toBe(h.clock.now);
  });

  it('is for administrators only', async () => {
    const tech = await h.addUser('technician', 'tech01');
    expect((await get('/system/config/export').then(() => h.app.inject({ url: '/magapi/system/config/export', headers: auth(tech.token) }))).statusCode).toBe(403);
    expect((await post('/system/config/backup', undefined, { user: tech.token })).status).toBe(403);
    expect((await post('/system/config/import', '{}', { user: tech.token })).status).toBe(403);
  });
});

describe('secrets and reachability', () => {
  it('keeps the current secret when a sealed one does not open here (a file from another machine)', async () => {
    const text = resealed(await exported(), (f) => {
      const item = f.content.agent.logs.backup_rules[0]!;
      item.sealed_password = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA';
      item.rule.remark = 'moved';
    });
    tick();
    const res = await post('/system/config/import', text);
    // The same target exists here with a password: it is kept, so nothing is lost.
    expect(res.body.code).toBe(0);
    expect((await h.agentClient.call('logs.backup.get', {})).rules[0]).toMatchObject({ remark: 'moved', has_password: true });
    // A rule that is new here gets no password, and the answer says so.
    const other = resealed(text, (f) => { f.content.agent.logs.backup_rules[0]!.rule.port = 2222; });
    tick();
    const warned = await post('/system/config/import', other, { lang: 'en-US' });
    expect(warned.body).toMatchObject({ code: 1, data: { secrets_dropped: 1 } });
    expect(warned.body.msg).toMatch(/1 passwords or keys come from another machine/);
    expect((await h.agentClient.call('logs.backup.get', {})).rules[0]).toMatchObject({ port: 2222, has_password: false });
  });

  it('restores a console setting whose sealed secret opens here, and keeps the current secret where one does not', async () => {
    const db = h.console.ctx.db;
    const stored = () => getSetting(db, 'alerts');
    const mine = secretBox(db).seal('smtp-secret');
    db.prepare("INSERT INTO settings (key, value) VALUES ('alerts', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .run(JSON.stringify({ ...stored(), sealed: { ...stored().sealed, smtp_password: mine } }));
    const text = await exported();
    // Same machine: the seal opens and comes back as it was.
    db.prepare("UPDATE settings SET value = ? WHERE key = 'alerts'").run(JSON.stringify({ ...stored(), sealed: { ...stored().sealed, smtp_password: '' } }));
    tick();
    expect((await post('/system/config/import', text)).body.code).toBe(0);
    expect(stored().sealed.smtp_password).toBe(mine);
    expect(secretBox(db).open(stored().sealed.smtp_password)).toBe('smtp-secret');
    // From another machine: that secret does not open; the one here is kept, the rest restored, and the answer says so.
    const foreign = resealed(text, (f) => {
      const alerts = f.content.console.settings['alerts'] as { sealed: Record<string, string> };
      alerts.sealed['smtp_password'] = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA';
      alerts.sealed['wecom_key'] = 'v1:BBBBBBBBBBBBBBBB:AAAAAAAAAAAAAAAAAAAAAA==:AAAA';
    });
    tick();
    const res = await post('/system/config/import', foreign, { lang: 'zh-CN' });
    expect(res.body).toMatchObject({ code: 1, data: { secrets_dropped: 2 } });
    expect(res.body.msg).toContain('有 2 项密码或密钥来自其他机器');
    expect(stored().sealed).toMatchObject({ smtp_password: mine, wecom_key: '' });
  });

  it('puts a firewall part that cuts the administrator off on probation', async () => {
    const text = resealed(await exported(), (f) => {
      f.content.agent.firewall.lists.white = [];
      f.content.agent.firewall.lists.super = [];
      f.content.agent.firewall.rules = [{ direction: 'in', protocol: 'all', ports: '*', ips: ['*'], areas: [], action: 'deny', priority: 1, enabled: true, remark: 'deny all' }];
    });
    const before = await fullState();
    tick();
    const res = await post('/system/config/import', text, { ip: '203.0.113.50' });
    expect(res.body.code).toBe(1);
    expect(res.body.msg).toContain('203.0.113.50');
    expect(res.body.data.probation.token).toEqual(expect.any(String));
    expect((await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list[0]).toMatchObject({ remark: 'deny all' });
    // Not confirmed in time: the firewall part alone is rolled back (the deadline, brought forward).
    await h.agent!.firewall.probation.close();
    await h.agent!.firewall.serial(async () => undefined);
    expect((await fullState()).agent).toEqual(before.agent);
  });

  it('refuses a restore whole, console and logging parts included, when the agent refuses its part', async () => {
    const deny = (ip: string) => ({ direction: 'in' as const, protocol: 'all' as const, ports: '*', ips: [ip], areas: [], action: 'deny' as const, priority: 1, enabled: true, remark: `deny ${ip}` });
    const first = resealed(await exported(), (f) => { f.content.agent.firewall.rules = [deny('203.0.113.70')]; });
    tick();
    const pending = await post('/system/config/import', first, { ip: '203.0.113.70' });
    expect(pending.body.code).toBe(1);
    // While that waits for confirmation, a second file that would cut another administrator off is refused whole.
    const second = resealed(first, (f) => {
      f.content.agent.firewall.rules = [deny('203.0.113.71')];
      f.content.console.settings['server_alias'] = 'never-applied';
      f.content.agent.logs.settings.keep_days = 999;
      f.content.agent.ntp.interval_minutes = 999;
    });
    const before = await fullState();
    const backups = (await get('/system/config/backup')).body.data.list as unknown[];
    tick();
    const refused = await post('/system/config/import', second, { ip: '203.0.113.71', lang: 'zh-CN' });
    expect((await get('/system/config/backup')).body.data.list).toEqual(backups);
    expect(refused.body).toMatchObject({ code: 2, msg: expect.stringContaining('有一项变更等待确认') });
    expect(await fullState()).toEqual(before);
    expect((await post('/firewall/confirm', { token: pending.body.data.probation.token })).body.code).toBe(0);
  });

  it('keeps a restored firewall part that cuts the administrator off once it is confirmed', async () => {
    const text = resealed(await exported(), (f) => {
      f.content.agent.firewall.rules = [{ direction: 'in', protocol: 'all', ports: '*', ips: ['*'], areas: [], action: 'deny', priority: 1, enabled: true, remark: 'deny all' }];
    });
    tick();
    const res = await post('/system/config/import', text, { ip: '203.0.113.51' });
    expect(res.body.code).toBe(1);
    expect((await post('/firewall/confirm', { token: res.body.data.probation.token })).body.code).toBe(0);
    expect((await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list.map((r) => r.remark)).toEqual(['deny all']);
  });
});

describe('with the agent away', () => {
  it('refuses export, backups and restore with a message, and changes nothing', async () => {
    const text = await exported();
    const away = await startHarness({ agent: false });
    try {
      const admin = await away.register();
      const awayToken = await away.login(admin.username, admin.password);
      const db = away.console.ctx.db;
      const settings = () => Object.fromEntries((Object.keys(settingDefs) as SettingKey[]).map((key) => [key, getSetting(db, key)]));
      const before = settings();
      const res = await away.app.inject({ method: 'POST', url: '/magapi/system/config/import', payload: text, headers: { ...auth(awayToken), 'content-type': 'application/octet-stream', 'accept-language': 'en-US' } });
      expect(res.json()).toMatchObject({ code: 2 });
      expect(settings()).toEqual(before);
      const made = await away.app.inject({ method: 'POST', url: '/magapi/system/config/backup', headers: auth(awayToken) });
      expect(made.json()).toMatchObject({ code: 2 });
      expect((await away.app.inject({ url: '/magapi/system/config/backup', headers: auth(awayToken) })).json()).toMatchObject({ code: 0, data: { list: [] } });
    } finally {
      await away.close();
    }
  });
});
