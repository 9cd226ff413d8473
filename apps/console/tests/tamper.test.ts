import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardStatusSchema, tamperOps, type NamingRuleInput, type TamperRuleInput } from '@rampart/contracts';
import { FakeHelper } from '../../../packages/guard/tests/fake-helper.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * Tamper protection's console calls against a real agent on a real socket. The guard's kernel side
 * (what is actually denied) is the agent's and the guard's tests; here: the door, its permissions,
 * its validation and its messages in both languages.
 */

let h: Harness;
let token: string;
let site: string;
/** The guard helper the agent talks to: a fake, so answers do not hang on whether a real one is built and which backend this kernel allows. */
let helper: FakeHelper;
let helperDir: string;
const allOpsHello = { backend: 'lsm', kernel: '6.1.0', ops: [...tamperOps], cause: '', generation: 0, pinned: true } as const;

beforeAll(async () => {
  helperDir = mkdtempSync(join(tmpdir(), 'rampart-tamper-guard-'));
  helper = await FakeHelper.listen(join(helperDir, 'guard.sock'));
  helper.hello = { ...allOpsHello, ops: [...allOpsHello.ops] };
  const before = process.env['RAMPART_GUARD_SOCKET'];
  process.env['RAMPART_GUARD_SOCKET'] = join(helperDir, 'guard.sock');
  try {
    h = await startHarness();
  } finally {
    if (before === undefined) delete process.env['RAMPART_GUARD_SOCKET'];
    else process.env['RAMPART_GUARD_SOCKET'] = before;
  }
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  site = mkdtempSync(join(tmpdir(), 'rampart-tamper-site-'));
  await until(async () => (await get('/tamper/status')).body.data.backend === 'lsm');
});
afterAll(async () => {
  rmSync(site, { recursive: true, force: true });
  await h?.close();
  await helper?.close();
  rmSync(helperDir, { recursive: true, force: true });
});

async function until(ok: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Lang = 'zh-CN' | 'en-US';
type Body = { code: number; msg: string; data?: Record<string, unknown> & { field?: string } };
async function post(url: string, payload: unknown, options: { lang?: Lang; as?: string } = {}) {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, payload: payload as object,
    headers: { ...auth(options.as ?? token), 'accept-language': options.lang ?? 'en-US' },
  });
  return { status: res.statusCode, body: res.json() as Body };
}
async function get(url: string, lang: Lang = 'en-US', as = token) {
  const res = await h.app.inject({ url: `/magapi${url}`, headers: { ...auth(as), 'accept-language': lang } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
}

const rule = (): TamperRuleInput => ({ path: `${site}/html`, sub_path: '*.php', process: '/usr/sbin/php-fpm*', exempt: ['/usr/bin/rsync'], level: 5, ops: ['w', 'c', 'd'], remark: 'code' });
const naming = (): NamingRuleInput => ({ dir: `${site}/uploads`, deny_dirs: ['tmp*'], deny_files: ['*.php', '*.jsp'], deny_malformed: true, remark: 'uploads' });

describe('tamper status', () => {
  it('answers the guard status in its contract shape', async () => {
    const res = await get('/tamper/status');
    expect(res.body.code).toBe(0);
    const status = guardStatusSchema.parse(res.body.data);
    expect(['lsm', 'fanotify', 'none']).toContain(status.backend);
    // A backend that enforces nothing must say why.
    if (status.backend === 'none') expect(status.causes.length).toBeGreaterThan(0);
  });
});

describe('tamper file rules', () => {
  it('adds, lists, searches, edits, switches and deletes a rule, answering in the caller language', async () => {
    const added = await post('/tamper/rules/add', { rules: [rule()] }, { lang: 'zh-CN' });
    expect(added.body.code, added.body.msg).toBe(0);
    expect(added.body.msg).toBe('已保存 1 条规则');
    const list = await get('/tamper/rules');
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.list[0];
    expect(row).toMatchObject({ path: `${site}/html`, sub_path: '*.php', process: '/usr/sbin/php-fpm*', exempt: ['/usr/bin/rsync'], level: 5, enabled: true, notify: true, remark: 'code' });
    expect([...row.ops].sort()).toEqual(['c', 'd', 'w']);
    expect((await get('/tamper/rules?keyword=php-fpm')).body.data.total).toBe(1);
    expect((await get('/tamper/rules?keyword=nothing-like-it')).body.data.total).toBe(0);

    const edited = await post('/tamper/rules/edit', { rule: { ...rule(), id: row.id, level: 3, ops: ['r', 'x'] } });
    expect(edited.body.code, edited.body.msg).toBe(0);
    const after = (await get('/tamper/rules')).body.data.list[0];
    expect(after.level).toBe(3);
    expect([...after.ops].sort()).toEqual(['r', 'x']);

    expect((await post('/tamper/rules/enable', { ids: [row.id], enabled: false })).body.code).toBe(0);
    const off = (await get('/tamper/rules')).body.data.list[0];
    expect(off.enabled).toBe(false);
    expect(off.state).toBe('off');
    expect((await post('/tamper/rules/enable', { ids: [row.id], enabled: true })).body.code).toBe(0);
    expect((await get('/tamper/rules')).body.data.list[0].enabled).toBe(true);

    const deleted = await post('/tamper/rules/delete', { ids: [row.id] });
    expect(deleted.body).toMatchObject({ code: 0, msg: 'Deleted 1 rule(s)' });
    expect((await get('/tamper/rules')).body.data.total).toBe(0);
  });

  it('refuses an edit of a rule that does not exist', async () => {
    const res = await post('/tamper/rules/edit', { rule: { ...rule(), id: 987654 } });
    expect(res.body.code).toBe(2);
    expect(res.body.msg).toBe('No such rule: it may have been deleted');
  });

  it('refuses a rule over / or all of /etc until it was confirmed twice', async () => {
    // However the path is spelt: the guard reads `//etc` and `//etc/` as /etc, `//e*` takes it in.
    for (const path of ['/', '/etc', '/etc/*', '//etc', '//etc/', '//e*']) {
      for (const confirmations of [0, 1]) {
        const res = await post('/tamper/rules/add', { rules: [{ ...rule(), path }], confirmations }, { lang: 'zh-CN' });
        expect(res.body.code, `${path} ${confirmations}`).toBe(2);
        expect(res.body.msg).toBe('该规则保护整个 / 或 /etc，可能导致系统无法更新或登录。确认后需再确认一次才会保存');
      }
    }
    const namingBroad = await post('/tamper/names/add', { rule: { ...naming(), dir: '//etc/' }, confirmations: 1 });
    expect(namingBroad.body.msg).toBe('This rule protects all of / or /etc and may stop updates or sign-ins. Confirm, then confirm once more to save it');
    expect((await get('/tamper/rules')).body.data.total).toBe(0);
    expect((await get('/tamper/names')).body.data.total).toBe(0);
    // Confirmed twice: saved, switched off at once so this test never guards the host's root.
    const res = await post('/tamper/rules/add', { rules: [{ ...rule(), path: '/etc', enabled: false, ops: ['w'] }], confirmations: 2 });
    expect(res.body.code, res.body.msg).toBeLessThanOrEqual(1);
    const ids = (await get('/tamper/rules')).body.data.list.map((r: { id: number }) => r.id);
    expect(ids).toHaveLength(1);
    await post('/tamper/rules/delete', { ids });
  });

  it('refuses bad rules on the field, in both languages, and saves nothing', async () => {
    const cases: Array<[Partial<TamperRuleInput>, string, Record<Lang, string>]> = [
      [{ path: '' }, 'rules.0.path', { 'en-US': 'Enter the protected path', 'zh-CN': '请输入保护路径' }],
      [{ path: 'var/www' }, 'rules.0.path', { 'en-US': 'The protected path must be absolute, with * only at its right end', 'zh-CN': '保护路径须为绝对路径，通配符 * 只能出现在最右端' }],
      [{ path: '/var/*/html' }, 'rules.0.path', { 'en-US': 'The protected path must be absolute, with * only at its right end', 'zh-CN': '保护路径须为绝对路径，通配符 * 只能出现在最右端' }],
      [{ path: '/var/../etc' }, 'rules.0.path', { 'en-US': 'The protected path must be absolute, with * only at its right end', 'zh-CN': '保护路径须为绝对路径，通配符 * 只能出现在最右端' }],
      [{ sub_path: 'a*b' }, 'rules.0.sub_path', { 'en-US': 'Invalid sub path: * may stand only at the start or the end', 'zh-CN': '子路径格式有误：* 只能出现在开头或结尾' }],
      [{ process: '' }, 'rules.0.process', { 'en-US': 'Enter the process path (* for every process)', 'zh-CN': '请输入进程路径（* 表示所有进程）' }],
      [{ process: '/usr/*/php' }, 'rules.0.process', { 'en-US': 'Invalid process path: * may stand only at the start or the end', 'zh-CN': '进程路径格式有误：* 只能出现在开头或结尾' }],
      [{ exempt: ['**'] }, 'rules.0.exempt.0', { 'en-US': 'Invalid process path: * may stand only at the start or the end', 'zh-CN': '进程路径格式有误：* 只能出现在开头或结尾' }],
      [{ level: 0 }, 'rules.0.level', { 'en-US': 'The level is 1 to 99; 1 applies first', 'zh-CN': '级别为 1 到 99，1 最先生效' }],
      [{ level: 100 }, 'rules.0.level', { 'en-US': 'The level is 1 to 99; 1 applies first', 'zh-CN': '级别为 1 到 99，1 最先生效' }],
      [{ level: 2.5 }, 'rules.0.level', { 'en-US': 'The level is 1 to 99; 1 applies first', 'zh-CN': '级别为 1 到 99，1 最先生效' }],
      [{ ops: ['q' as 'r'] }, 'rules.0.ops.0', { 'en-US': 'Denied operations are among r x d c n w t', 'zh-CN': '禁止的操作只能是 r x d c n w t' }],
      [{ remark: 'x'.repeat(201) }, 'rules.0.remark', { 'en-US': expect.any(String) as unknown as string, 'zh-CN': expect.any(String) as unknown as string }],
    ];
    for (const [change, field, messages] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/tamper/rules/add', { rules: [{ ...rule(), ...change }] }, { lang });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.msg, JSON.stringify(change)).toEqual(messages[lang]);
        expect(res.body.data?.field, JSON.stringify(change)).toBe(field);
      }
    }
    for (const body of [{}, { rules: [] }, { rules: [rule()], confirmations: 3 }, { rules: [{ ...rule(), extra: 1 }] }, { rules: [rule()], account: 'someone-else' }]) {
      expect((await post('/tamper/rules/add', body)).status, JSON.stringify(body)).toBe(400);
    }
    for (const [url, body] of [['/tamper/rules/enable', { ids: [] }], ['/tamper/rules/enable', { ids: [1] }], ['/tamper/rules/delete', { ids: [0] }]] as const) {
      expect((await post(url, body)).status, `${url} ${JSON.stringify(body)}`).toBe(400);
    }
    expect((await get('/tamper/rules?size=1000')).status).toBe(400);
    expect((await get('/tamper/rules')).body.data.total).toBe(0);
  });
});

describe('CMS templates', () => {
  it('lists the templates in the caller language and previews the rules for a root', async () => {
    const zh = await get('/tamper/templates', 'zh-CN');
    expect(zh.body.data.list.map((t: { id: string }) => t.id)).toEqual(['wordpress', 'drupal', 'joomla', 'discuz', 'dedecms', 'phpmyadmin']);
    expect(zh.body.data.list.find((t: { id: string }) => t.id === 'dedecms').name).toBe('织梦 DedeCMS');
    expect(zh.body.data.rules).toEqual([]);
    const preview = await get(`/tamper/templates?id=wordpress&root=${encodeURIComponent(`${site}/wp/`)}`);
    const paths = preview.body.data.rules.map((r: { path: string }) => r.path);
    expect(paths).toContain(`${site}/wp`);
    expect(paths).toContain(`${site}/wp/wp-content/uploads`);
    expect(preview.body.data.rules.at(-1).remark).toBe('WordPress: protect the code; no process may modify, create, delete, rename or re-time it');
  });

  it('refuses an unknown template or a bad root with a message', async () => {
    const unknown = await get('/tamper/templates?id=typo3&root=/srv', 'zh-CN');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('请选择 CMS 模板');
    const star = await get('/tamper/templates?id=drupal&root=/srv/*');
    expect(star.status).toBe(400);
    expect(star.body.msg).toBe('The site root must be an absolute path without *');
  });

  it('adds a template rule set in one call', async () => {
    const preview = await get(`/tamper/templates?id=joomla&root=${encodeURIComponent(`${site}/joomla`)}`);
    const rules = preview.body.data.rules as TamperRuleInput[];
    const added = await post('/tamper/rules/add', { rules });
    expect(added.body.code, added.body.msg).toBeLessThanOrEqual(1);
    const list = await get('/tamper/rules?size=100');
    expect(list.body.data.total).toBe(rules.length);
    const ids = list.body.data.list.map((r: { id: number }) => r.id);
    expect((await post('/tamper/rules/delete', { ids })).body.msg).toBe(`Deleted ${rules.length} rule(s)`);
  });
});

describe('naming rules', () => {
  it('adds, edits, switches and deletes a naming rule', async () => {
    const added = await post('/tamper/names/add', { rule: naming() });
    expect(added.body.code, added.body.msg).toBe(0);
    const list = await get('/tamper/names');
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.list[0];
    expect(row).toMatchObject({ dir: `${site}/uploads`, deny_dirs: ['tmp*'], deny_files: ['*.php', '*.jsp'], deny_malformed: true, enabled: true, remark: 'uploads' });
    expect((await get('/tamper/names?keyword=uploads')).body.data.total).toBe(1);
    expect((await post('/tamper/names/edit', { rule: { ...naming(), id: row.id, deny_files: [], deny_malformed: false } })).body.code).toBe(0);
    expect((await get('/tamper/names')).body.data.list[0]).toMatchObject({ deny_files: [], deny_malformed: false });
    expect((await post('/tamper/names/enable', { ids: [row.id], enabled: false })).body.code).toBe(0);
    expect((await get('/tamper/names')).body.data.list[0].enabled).toBe(false);
    expect((await post('/tamper/names/delete', { ids: [row.id] })).body.code).toBe(0);
    expect((await get('/tamper/names')).body.data.total).toBe(0);
  });

  it('refuses bad naming rules on the field in both languages', async () => {
    const cases: Array<[Partial<NamingRuleInput>, string, Record<Lang, string>]> = [
      [{ dir: '' }, 'rule.dir', { 'en-US': 'Enter the protected path', 'zh-CN': '请输入保护路径' }],
      [{ dir: '/srv/up*' }, 'rule.dir', { 'en-US': 'The protected directory cannot contain *', 'zh-CN': '保护目录不能包含通配符 *' }],
      [{ deny_files: ['a/b'] }, 'rule.deny_files.0', { 'en-US': 'Invalid name: no /, at most 63 bytes, * only at the ends or once in the middle', 'zh-CN': '名称格式有误：不能含有 /，最长 63 字节，* 只能在两端或中间出现一次' }],
      [{ deny_dirs: ['a**b'] }, 'rule.deny_dirs.0', { 'en-US': 'Invalid name: no /, at most 63 bytes, * only at the ends or once in the middle', 'zh-CN': '名称格式有误：不能含有 /，最长 63 字节，* 只能在两端或中间出现一次' }],
      [{ deny_files: ['x'.repeat(64)] }, 'rule.deny_files.0', { 'en-US': 'Invalid name: no /, at most 63 bytes, * only at the ends or once in the middle', 'zh-CN': '名称格式有误：不能含有 /，最长 63 字节，* 只能在两端或中间出现一次' }],
    ];
    for (const [change, field, messages] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/tamper/names/add', { rule: { ...naming(), ...change } }, { lang });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.msg).toBe(messages[lang]);
        expect(res.body.data?.field).toBe(field);
      }
    }
    expect((await get('/tamper/names')).body.data.total).toBe(0);
  });
});

describe('tamper permissions', () => {
  it('lets a technician work and keeps an auditor out of every tamper call, switching included', async () => {
    const technician = await h.addUser('technician');
    const auditor = await h.addUser('auditor');
    expect((await get('/tamper/rules', 'en-US', technician.token)).status).toBe(200);
    expect((await get('/tamper/names', 'en-US', auditor.token)).status).toBe(403);
    expect((await get('/tamper/status', 'en-US', auditor.token)).status).toBe(403);
    for (const enabled of [true, false]) {
      const res = await post('/tamper/rules/enable', { ids: [1], enabled }, { as: auditor.token });
      expect(res.status).toBe(403);
      const names = await post('/tamper/names/enable', { ids: [1], enabled }, { as: auditor.token });
      expect(names.status).toBe(403);
    }
    expect((await post('/tamper/rules/add', { rules: [rule()] }, { as: auditor.token })).status).toBe(403);
    expect((await get('/tamper/rules')).body.data.total).toBe(0);
  });
});

describe('a guard that cannot deny every operation (fanotify)', () => {
  it('says so when a rule or a naming rule it cannot fully enforce is saved, in both languages', async () => {
    // The agent reconnects to a helper that now runs fanotify: open, write and exec only.
    await helper.close();
    helper = await FakeHelper.listen(join(helperDir, 'guard.sock'));
    await until(async () => (await get('/tamper/status')).body.data.backend === 'fanotify');

    const zh = await post('/tamper/rules/add', { rules: [rule()] }, { lang: 'zh-CN' });
    expect(zh.body).toMatchObject({ code: 1, msg: '规则已保存，但本机内核上运行的防护方式无法拦截 d c n t 操作，规则中的这些操作不会生效' });
    const en = await post('/tamper/rules/edit', { rule: { ...rule(), id: (zh.body.data?.['ids'] as number[])[0] } });
    expect(en.body).toMatchObject({ code: 1, msg: 'Saved, but the guard running on this kernel cannot deny d c n t: those operations of the rule are not enforced' });
    const names = await post('/tamper/names/add', { rule: naming() });
    expect(names.body).toMatchObject({ code: 1, msg: 'Saved, but the guard running on this kernel cannot deny d c n t: those operations of the rule are not enforced' });
    // What fanotify does deny: saved without a warning.
    const writes = await post('/tamper/rules/add', { rules: [{ ...rule(), ops: ['w', 'x'] }] });
    expect(writes.body).toMatchObject({ code: 0, msg: 'Saved 1 rule(s)' });

    const ids = (await get('/tamper/rules')).body.data.list.map((r: { id: number }) => r.id);
    await post('/tamper/rules/delete', { ids });
    await post('/tamper/names/delete', { ids: (await get('/tamper/names')).body.data.list.map((r: { id: number }) => r.id) });
  });
});
