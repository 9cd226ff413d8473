import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord, OnlineTerminal, PanelAccount } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { findUserByName } from '../src/db/users.ts';
import { getSetting, setSetting } from '../src/db/settings.ts';
import { lockOutProblem } from '../src/services/account-rules.ts';
import { describeUserAgent } from '../src/services/user-agent.ts';

let h: Harness;
let admin: { username: string; password: string };
let token: string;

const chromeWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';
const firefoxLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';

async function get(url: string, who = token, lang: Lang = 'zh-CN') {
  const res = await h.app.inject({ method: 'GET', url: `/magapi${url}`, headers: { ...auth(who), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

async function post(url: string, payload?: unknown, who = token, lang: Lang = 'zh-CN') {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, headers: { ...auth(who), 'accept-language': lang },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() };
}

let signIns = 0;
/** Each sign-in from its own address: the sign-in rate limit and lock-out count per IP. */
const nextIp = () => `198.51.100.${(++signIns % 250) + 1}`;

async function signIn(username: string, password: string, userAgent = chromeWindows, ip = nextIp()) {
  const res = await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username, password }, headers: { 'user-agent': userAgent }, remoteAddress: ip });
  return res.json() as { code: number; msg: string; data: { token: string } };
}

async function accounts(): Promise<PanelAccount[]> {
  const { body } = await get('/system/user');
  expect(body.code).toBe(0);
  return body.data.list;
}

async function terminals(who = token): Promise<OnlineTerminal[]> {
  const { body } = await get('/system/user/online/list', who);
  expect(body.code).toBe(0);
  return body.data.list;
}

const byName = async (name: string) => (await accounts()).find((a) => a.username === name);
const stillSignedIn = async (who: string) => (await get('/info', who)).status === 200;

let serial = 0;
/** A fresh account through the API, signed in once; names are unique per test. */
async function addAccount(role: PanelAccount['role'] = 'technician', extra: Record<string, unknown> = {}) {
  const username = `user-${++serial}`;
  const password = 'Passw0rd!';
  const { body } = await post('/system/user', { username, password, role, remark: 'made by a test', ...extra });
  expect(body.code, JSON.stringify(body)).toBe(0);
  const account = body.data as PanelAccount;
  return { ...account, password };
}

/** Rows of the panel database that a refused call must leave alone. */
const usersTable = () => JSON.stringify(h.console.ctx.db.prepare('SELECT * FROM users ORDER BY id').all());

async function actionEvents(text: string): Promise<EventRecord[]> {
  await h.console.ctx.events.flush();
  const page = await h.agentClient.call('events.query', { keyword: { text, kinds: [] }, limit: 100 });
  return page.list.filter((e) => e.kind === 'panel.action');
}

describe('panel accounts: list and add', () => {
  it('lists the accounts with role, status, last sign-in, online and self flags, and never a password', async () => {
    const { body, raw } = await get('/system/user');
    expect(body.code).toBe(0);
    const me = body.data.list.find((a: PanelAccount) => a.username === admin.username);
    expect(me).toMatchObject({ role: 'admin', status: 1, online: true, self: true, last_login_ip: '127.0.0.1' });
    expect(typeof me.last_login_at).toBe('number');
    expect(raw).not.toMatch(/password|argon2/);
  });

  it('adds an account whose password is stored as an argon2id hash and who can sign in', async () => {
    const { body } = await post('/system/user', { username: 'Tech-One', password: 'Abc12345', role: 'technician', remark: ' night shift ' }, token, 'en-US');
    expect(body).toMatchObject({ code: 0, msg: 'Account added' });
    expect(body.data).toMatchObject({ username: 'Tech-One', role: 'technician', status: 1, remark: 'night shift', online: false, self: false, last_login_at: null });
    expect(JSON.stringify(body)).not.toContain('Abc12345');
    const row = findUserByName(h.console.ctx.db, 'tech-one')!;
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('Abc12345');
    expect((await signIn('tech-one', 'Abc12345')).code).toBe(0);
    expect(await byName('Tech-One')).toMatchObject({ online: true, last_login_ip: `198.51.100.${(signIns % 250) + 1}` });
  });

  it('adds a disabled account that cannot sign in until it is enabled', async () => {
    const { body } = await post('/system/user', { username: 'later_user', password: 'Later123', role: 'auditor', status: 0 });
    expect(body.code).toBe(0);
    expect((await signIn('later_user', 'Later123')).code).toBe(2);
    expect((await post(`/system/user_edit?uid=${body.data.id}`, { status: 1 })).body.code).toBe(0);
    expect((await signIn('later_user', 'Later123')).code).toBe(0);
  });

  it('refuses a name that exists in any case, in both languages, on the name field', async () => {
    const before = usersTable();
    const zh = await post('/system/user', { username: admin.username.toUpperCase(), password: 'Abc12345', role: 'auditor' });
    expect(zh.status).toBe(200);
    expect(zh.body).toMatchObject({ code: 2, data: { field: 'username' } });
    expect(zh.body.msg).toContain('存在重复项');
    const en = await post('/system/user', { username: 'TECH-one', password: 'Abc12345', role: 'auditor' }, token, 'en-US');
    expect(en.body).toMatchObject({ code: 2, msg: 'Has duplicates: an account named Tech-One already exists (names ignore case)', data: { field: 'username' } });
    expect(usersTable()).toBe(before);
  });
});

describe('validation: a clear message on the field, in both languages, nothing saved', () => {
  const good = { username: 'valid_name', password: 'Abc12345', role: 'technician' };
  const cases: { body: Record<string, unknown>; field: string; zh: string; en: string }[] = [
    { body: { ...good, username: 'abc' }, field: 'username', zh: '账号须为 4-20 位字母、数字、-或_', en: '' },
    { body: { ...good, username: 'a'.repeat(21) }, field: 'username', zh: '账号须为 4-20 位字母、数字、-或_', en: '' },
    { body: { ...good, username: 'bad name' }, field: 'username', zh: '账号须为 4-20 位字母、数字、-或_', en: '' },
    { body: { ...good, username: '管理员账号' }, field: 'username', zh: '账号须为 4-20 位字母、数字、-或_', en: '' },
    { body: { ...good, username: 42 }, field: 'username', zh: '账号须为 4-20 位字母、数字、-或_', en: '' },
    { body: { ...good, password: 'onlyletters' }, field: 'password', zh: '密码须为 6-50 位，且不能为纯字母或纯数字', en: '' },
    { body: { ...good, password: '12345678' }, field: 'password', zh: '密码须为 6-50 位，且不能为纯字母或纯数字', en: '' },
    { body: { ...good, password: 'a1b2c' }, field: 'password', zh: '密码须为 6-50 位，且不能为纯字母或纯数字', en: '' },
    { body: { ...good, password: `a1${'x'.repeat(49)}` }, field: 'password', zh: '密码须为 6-50 位，且不能为纯字母或纯数字', en: '' },
    { body: { username: 'valid_name', role: 'technician' }, field: 'password', zh: '密码须为 6-50 位，且不能为纯字母或纯数字', en: '' },
    { body: { ...good, role: 'root' }, field: 'role', zh: '请选择角色：管理员、技术员、审计员或其他', en: 'Choose a role: administrator, technician, auditor or other' },
    { body: { ...good, status: 2 }, field: 'status', zh: '状态须为启用或禁用', en: 'The status is enabled or disabled' },
    { body: { ...good, remark: 'r'.repeat(201) }, field: 'remark', zh: '备注不能超过 200 个字符', en: 'The remark can be at most 200 characters' },
  ];

  it('refuses bad account input on add', async () => {
    const before = usersTable();
    for (const c of cases) {
      const zh = await post('/system/user', c.body);
      expect(zh.status, JSON.stringify(c.body)).toBe(400);
      expect(zh.body.data, JSON.stringify(c.body)).toEqual({ field: c.field });
      expect(zh.body.msg, JSON.stringify(c.body)).toBe(c.zh);
      const en = await post('/system/user', c.body, token, 'en-US');
      expect(en.body.data).toEqual({ field: c.field });
      expect(en.body.msg).toMatch(c.en ? new RegExp(`^${c.en}$`) : c.field === 'username' ? /^Account names are 4-20/ : /^Passwords are 6-50/);
    }
    expect(usersTable()).toBe(before);
  });

  it('refuses the same on edit, plus bad ids; a blank password is allowed there', async () => {
    const target = await addAccount();
    const before = usersTable();
    for (const c of cases.filter((c) => c.body.password !== undefined || c.field !== 'password')) {
      const { role: _r, ...partial } = c.body;
      const body = c.field === 'role' ? c.body : partial;
      const res = await post(`/system/user_edit?uid=${target.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.data).toEqual({ field: c.field });
    }
    for (const uid of ['0', '-1', 'abc', '1.5', '']) {
      const res = await post(`/system/user_edit?uid=${uid}`, { remark: 'x' }, token, 'en-US');
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('The account does not exist');
    }
    expect((await post('/system/user_edit', { remark: 'x' })).status).toBe(400);
    expect((await post(`/system/user_edit?uid=${target.id}`, { remark: 'x', extra: 1 })).status).toBe(400);
    expect(usersTable()).toBe(before);
    const blank = await post(`/system/user_edit?uid=${target.id}`, { password: '', remark: 'kept' });
    expect(blank.body.code).toBe(0);
  });

  it('answers an unknown account with a message, not a crash', async () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const edit = await post('/system/user_edit?uid=99999', { remark: 'x' }, token, lang);
      expect(edit).toMatchObject({ status: 200, body: { code: 2, msg: lang === 'zh-CN' ? '账号不存在' : 'The account does not exist' } });
      const del = await post('/system/user_delete?uid=99999', undefined, token, lang);
      expect(del.body).toMatchObject({ code: 2 });
    }
  });
});

describe('editing', () => {
  it('renames (refusing a taken name), changes the remark, keeps the password when blank, and keeps sessions for that', async () => {
    const a = await addAccount();
    const b = await addAccount();
    const session = (await signIn(a.username, a.password)).data.token;
    const taken = await post(`/system/user_edit?uid=${a.id}`, { username: b.username.toUpperCase() }, token, 'en-US');
    expect(taken.body).toMatchObject({ code: 2, data: { field: 'username' } });
    expect(taken.body.msg).toContain('Has duplicates');
    const renamed = await post(`/system/user_edit?uid=${a.id}`, { username: `${a.username}-x`, remark: 'moved desk', password: '' }, token, 'en-US');
    expect(renamed.body).toMatchObject({ code: 0, msg: 'Saved', data: { username: `${a.username}-x`, remark: 'moved desk', online: true } });
    expect(await stillSignedIn(session)).toBe(true);
    expect((await signIn(`${a.username}-x`, a.password)).code).toBe(0);
    // Case of one's own name may change: it is the same name.
    expect((await post(`/system/user_edit?uid=${a.id}`, { username: `${a.username}-X` })).body.code).toBe(0);
  });

  it('a new password ends every session of the account at once and the old one stops working', async () => {
    const a = await addAccount();
    const s1 = (await signIn(a.username, a.password)).data.token;
    const s2 = (await signIn(a.username, a.password, firefoxLinux)).data.token;
    let socketClosed = false;
    h.console.ctx.hub.add({ userId: a.id, tokenHash: 'x', send: () => {}, close: () => void (socketClosed = true) });
    expect((await post(`/system/user_edit?uid=${a.id}`, { password: 'N3w-secret' })).body.code).toBe(0);
    expect((await get('/info', s1)).status).toBe(401);
    expect((await get('/info', s2)).status).toBe(401);
    expect(socketClosed).toBe(true);
    expect((await signIn(a.username, a.password)).code).toBe(2);
    expect((await signIn(a.username, 'N3w-secret')).code).toBe(0);
  });

  it('a role change ends the sessions; the account comes back with the new role', async () => {
    const a = await addAccount('technician');
    const s = (await signIn(a.username, a.password)).data.token;
    expect((await post(`/system/user_edit?uid=${a.id}`, { role: 'auditor' })).body.data.role).toBe('auditor');
    expect((await get('/info', s)).status).toBe(401);
    const again = (await signIn(a.username, a.password)).data.token;
    expect((await get('/info', again)).body.data.role.id).toBe('auditor');
  });

  it('disabling ends the sessions and refuses sign-in; enabling lets it back', async () => {
    const a = await addAccount();
    const s = (await signIn(a.username, a.password)).data.token;
    expect((await post(`/system/user_edit?uid=${a.id}`, { status: 0 })).body.data).toMatchObject({ status: 0, online: false });
    expect((await get('/info', s)).status).toBe(401);
    expect(h.console.ctx.db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?').get(a.id)).toEqual({ n: 0 });
    const refused = await signIn(a.username, a.password);
    expect(refused.code).toBe(2);
    expect((await post(`/system/user_edit?uid=${a.id}`, { status: 1 })).body.code).toBe(0);
    expect((await signIn(a.username, a.password)).code).toBe(0);
  });
});

describe('deleting', () => {
  it('deletes an account, ends its sessions at once, and its name is free again', async () => {
    const a = await addAccount();
    const s = (await signIn(a.username, a.password)).data.token;
    const res = await post(`/system/user_delete?uid=${a.id}`, undefined, token, 'en-US');
    expect(res.body).toMatchObject({ code: 0, msg: 'Account deleted' });
    expect((await get('/info', s)).status).toBe(401);
    expect(await byName(a.username)).toBeUndefined();
    expect((await signIn(a.username, a.password)).code).toBe(2);
    expect((await post('/system/user', { username: a.username, password: 'Again123', role: 'auditor' })).body.code).toBe(0);
  });
});

describe('no lock-out', () => {
  it('refuses deleting, disabling or demoting oneself, in both languages, and changes nothing', async () => {
    const me = (await accounts()).find((a) => a.self)!;
    const before = usersTable();
    const tries: [string, unknown, string, string][] = [
      [`/system/user_delete?uid=${me.id}`, undefined, '不能删除当前登录的账号', 'You cannot delete the account you are signed in with'],
      [`/system/user_edit?uid=${me.id}`, { status: 0 }, '不能禁用当前登录的账号', 'You cannot disable the account you are signed in with'],
      [`/system/user_edit?uid=${me.id}`, { role: 'technician', remark: 'x' }, '不能取消当前登录账号的管理员角色', 'You cannot take the administrator role away from the account you are signed in with'],
    ];
    for (const [url, body, zh, en] of tries) {
      expect((await post(url, body)).body).toMatchObject({ code: 2, msg: zh });
      expect((await post(url, body, token, 'en-US')).body).toMatchObject({ code: 2, msg: en });
    }
    expect(usersTable()).toBe(before);
    expect(await stillSignedIn(token)).toBe(true);
    // Editing oneself otherwise is fine.
    expect((await post(`/system/user_edit?uid=${me.id}`, { remark: 'the owner', role: 'admin', status: 1 })).body.code).toBe(0);
  });

  it('another administrator may be disabled, demoted or deleted while one enabled admin remains', async () => {
    const other = await addAccount('admin');
    expect((await post(`/system/user_edit?uid=${other.id}`, { status: 0 })).body.code).toBe(0);
    expect((await post(`/system/user_edit?uid=${other.id}`, { status: 1, role: 'technician' })).body.code).toBe(0);
    expect((await post(`/system/user_delete?uid=${other.id}`)).body.code).toBe(0);
  });

  it('never leaves the panel without an enabled administrator (the rule the API cannot reach past the self rules)', () => {
    const lastAdmin = { id: 2, role: 'admin' as const, status: 1 as const };
    expect(lockOutProblem(1, lastAdmin, 'deleted', 1)).toBe('user_last_admin');
    expect(lockOutProblem(1, lastAdmin, { role: 'admin', status: 0 }, 1)).toBe('user_last_admin');
    expect(lockOutProblem(1, lastAdmin, { role: 'auditor', status: 1 }, 1)).toBe('user_last_admin');
    expect(lockOutProblem(1, lastAdmin, { role: 'admin', status: 1 }, 1)).toBeNull();
    expect(lockOutProblem(1, lastAdmin, 'deleted', 2)).toBeNull();
    // A disabled admin is not one of the enabled ones the rule keeps.
    expect(lockOutProblem(1, { ...lastAdmin, status: 0 }, 'deleted', 1)).toBeNull();
    expect(lockOutProblem(2, lastAdmin, { role: 'technician', status: 1 }, 5)).toBe('user_self_demote');
    expect(lockOutProblem(2, lastAdmin, 'deleted', 5)).toBe('user_self_delete');
    expect(lockOutProblem(2, lastAdmin, { role: 'admin', status: 0 }, 5)).toBe('user_self_disable');
  });
});

describe('online terminals', () => {
  it('lists each live session with IP, terminal, login time, expiry and elapsed, without token hashes', async () => {
    const a = await addAccount('auditor');
    await signIn(a.username, a.password, chromeWindows, '192.0.2.7');
    h.clock.now += 5_000;
    await signIn(a.username, a.password, firefoxLinux, '2001:db8::9');
    const { raw } = await get('/system/user/online/list');
    const mine = (await terminals()).filter((t) => t.username === a.username);
    expect(mine).toHaveLength(2);
    const [firefox, chrome] = mine;
    expect(firefox).toMatchObject({ ip: '2001:db8::9', terminal: 'Firefox 128 / Linux', role: 'auditor', current: false, user_id: a.id, elapsed_ms: 0 });
    expect(chrome).toMatchObject({ ip: '192.0.2.7', terminal: 'Chrome 139 / Windows 10', elapsed_ms: 5_000 });
    expect(chrome!.expires_at).toBe(chrome!.login_at + 120 * 60_000);
    expect(chrome!.id).toMatch(/^[0-9a-f]{16}$/);
    const hashes = (h.console.ctx.db.prepare('SELECT token_hash FROM sessions').all() as { token_hash: string }[]).map((r) => r.token_hash);
    for (const hash of hashes) expect(raw).not.toContain(hash);
    expect(raw).not.toContain('token_hash');
    expect((await terminals()).filter((t) => t.current)).toHaveLength(1);
  });

  it('an expired session is neither online nor listed', async () => {
    const a = await addAccount();
    await signIn(a.username, a.password);
    expect((await byName(a.username))!.online).toBe(true);
    h.clock.now += 121 * 60_000;
    // The admin's own session slid forward when it was used; refresh it.
    token = await h.login(admin.username, admin.password);
    expect((await byName(a.username))!.online).toBe(false);
    expect((await terminals()).some((t) => t.username === a.username)).toBe(false);
  });

  it('a browser that closed leaves the online list within minutes, even when sessions never expire; an open websocket keeps it', async () => {
    const timeoutBefore = getSetting(h.console.ctx.db, 'session_timeout');
    setSetting(h.console.ctx.db, 'session_timeout', 0);
    const a = await addAccount();
    const closed = (await signIn(a.username, a.password, chromeWindows)).data.token;
    const open = (await signIn(a.username, a.password, firefoxLinux)).data.token;
    expect((await terminals()).filter((t) => t.username === a.username)).toHaveLength(2);
    // The Firefox browser keeps the console's websocket open (as the web app does while it runs).
    const openHash = (h.console.ctx.db.prepare('SELECT token_hash FROM sessions WHERE user_agent = ? ORDER BY created_at DESC').get(firefoxLinux) as { token_hash: string }).token_hash;
    const socket = { send: () => undefined, close: () => undefined, userId: a.id, tokenHash: openHash };
    h.console.ctx.hub.add(socket);
    try {
      h.clock.now += 6 * 60_000;
      token = await h.login(admin.username, admin.password);
      const left = (await terminals()).filter((t) => t.username === a.username);
      expect(left.map((t) => t.terminal)).toEqual(['Firefox 128 / Linux']);
      expect((await byName(a.username))!.online).toBe(true);
      // not expired: the closed browser's token still works if it comes back, and then it is online again
      expect(await stillSignedIn(closed)).toBe(true);
      expect((await terminals()).filter((t) => t.username === a.username)).toHaveLength(2);
    } finally {
      h.console.ctx.hub.remove(socket);
    }
    // with no socket and no request for minutes, nobody of this account is online
    h.clock.now += 6 * 60_000;
    token = await h.login(admin.username, admin.password);
    expect((await byName(a.username))!.online).toBe(false);
    expect(await stillSignedIn(open)).toBe(true);
    setSetting(h.console.ctx.db, 'session_timeout', timeoutBefore);
    token = await h.login(admin.username, admin.password);
  });

  it('signs out one terminal: that session gets 401, the others stay', async () => {
    const a = await addAccount();
    const s1 = (await signIn(a.username, a.password, chromeWindows)).data.token;
    const s2 = (await signIn(a.username, a.password, firefoxLinux)).data.token;
    const firefox = (await terminals()).find((t) => t.username === a.username && t.terminal.startsWith('Firefox'))!;
    const res = await post(`/system/user/online/logout?id=${firefox.id}`, undefined, token, 'en-US');
    expect(res.body).toMatchObject({ code: 0, msg: 'The terminal was signed out' });
    expect((await get('/info', s2)).status).toBe(401);
    expect(await stillSignedIn(s1)).toBe(true);
    expect((await byName(a.username))!.online).toBe(true);
    const again = await post(`/system/user/online/logout?id=${firefox.id}`, undefined, token, 'en-US');
    expect(again.body).toMatchObject({ code: 2, msg: 'This terminal is no longer online' });
    for (const id of ['', 'xyz', 'A'.repeat(16), '0'.repeat(17)]) {
      expect((await post(`/system/user/online/logout?id=${id}`)).status).toBe(400);
    }
  });

  it('signing out one\'s own current session is allowed and ends it', async () => {
    const mine = await h.login(admin.username, admin.password);
    const current = (await terminals(mine)).find((t) => t.current)!;
    expect((await post(`/system/user/online/logout?id=${current.id}`, undefined, mine)).body.code).toBe(0);
    expect((await get('/info', mine)).status).toBe(401);
    expect(await stillSignedIn(token)).toBe(true);
  });
});

describe('permissions', () => {
  it('refuses technicians and auditors every account call with 403, and changes nothing', async () => {
    const target = await addAccount();
    const someone = (await terminals())[0]!;
    const before = usersTable();
    for (const role of ['technician', 'auditor'] as const) {
      const user = await addAccount(role);
      const who = (await signIn(user.username, user.password)).data.token;
      const calls: [('GET' | 'POST'), string, unknown][] = [
        ['GET', '/system/user', undefined],
        ['POST', '/system/user', { username: 'sneaky1', password: 'Sneaky123', role: 'admin' }],
        ['POST', `/system/user_edit?uid=${target.id}`, { role: 'admin' }],
        ['POST', `/system/user_delete?uid=${target.id}`, undefined],
        ['GET', '/system/user/online/list', undefined],
        ['POST', `/system/user/online/logout?id=${someone.id}`, undefined],
      ];
      for (const [method, url, body] of calls) {
        const res = method === 'GET' ? await get(url, who, 'en-US') : await post(url, body, who, 'en-US');
        expect(res.status, `${role} ${method} ${url}`).toBe(403);
        expect(res.body.msg).toBe('This account has no permission');
      }
      expect(usersTable()).not.toContain('sneaky1');
    }
    expect(JSON.parse(usersTable()).length).toBe(JSON.parse(before).length + 2);
    expect((await terminals()).some((t) => t.id === someone.id)).toBe(true);
    const refused = await actionEvents('sneaky');
    expect(refused).toHaveLength(0);
    const edits = (await actionEvents(`user_edit`)).filter((e) => e.params.result === 'refused');
    expect(edits.length).toBeGreaterThanOrEqual(2);
  });
});

describe('event log', () => {
  it('records each change with the account it was about and the fields that changed, never a password', async () => {
    const a = await addAccount('technician', { remark: '' });
    await post(`/system/user_edit?uid=${a.id}`, { password: 'Changed-9', role: 'auditor' });
    await post(`/system/user_edit?uid=${(await accounts()).find((x) => x.self)!.id}`, { status: 0 });
    const session = (await signIn(a.username, 'Changed-9', chromeWindows, '203.0.113.5')).data.token;
    const t = (await terminals()).find((x) => x.username === a.username)!;
    await post(`/system/user/online/logout?id=${t.id}`);
    await post(`/system/user_delete?uid=${a.id}`);
    expect((await get('/info', session)).status).toBe(401);

    const events = await actionEvents(a.username);
    const actions = events.map((e) => [e.params.action, e.params.target, e.params.changes]);
    expect(actions).toEqual(expect.arrayContaining([
      ['system.user_add', a.username, JSON.stringify([['password'], ['role', 'technician'], ['status', 1]])],
      ['system.user_edit', a.username, JSON.stringify([['password'], ['role', 'technician', 'auditor']])],
      ['system.user_logout', `${a.username} @ 203.0.113.5`, undefined],
      ['system.user_delete', a.username, undefined],
    ]));
    for (const e of events) {
      expect(e).toMatchObject({ account: admin.username, module: 'system', source: 'console', ip: '127.0.0.1' });
      expect(e.params.result).toBe('ok');
      expect(JSON.stringify(e)).not.toContain('Changed-9');
    }
    const selfDisable = (await actionEvents(admin.username)).find((e) => e.params.action === 'system.user_edit' && e.params.target === admin.username);
    expect(selfDisable).toMatchObject({ level: 'warning', params: { result: 'failed', changes: JSON.stringify([['status', 1, 0]]) } });
    // One record per call.
    expect(events.filter((e) => e.params.action === 'system.user_delete')).toHaveLength(1);
  });

  it('shows the record in the event log in both languages', async () => {
    const a = await addAccount();
    await h.console.ctx.events.flush();
    for (const [lang, words] of [['zh-CN', `添加了面板账号 ${a.username}`], ['en-US', `added panel account ${a.username}`]] as const) {
      const { body } = await get(`/log/system?period=today&keyword=${a.username}`, token, lang);
      const row = body.data.list.find((r: { content: string }) => r.content.includes(words));
      expect(row, lang).toBeDefined();
      expect(row.content, lang).not.toContain('/magapi');
    }
  });
});

describe('terminal type from the user agent', () => {
  it('names common browsers and systems, and falls back to the first product token', () => {
    expect(describeUserAgent(chromeWindows)).toBe('Chrome 139 / Windows 10');
    expect(describeUserAgent(firefoxLinux)).toBe('Firefox 128 / Linux');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.3351.95'))
      .toBe('Edge 138 / Windows 10');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'))
      .toBe('Safari 17 / macOS');
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'))
      .toBe('Safari 17 / iOS 17');
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'))
      .toBe('Chrome 126 / Android 14');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko')).toBe('Internet Explorer 11 / Windows 7');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36'))
      .toBe('Chrome Headless 139 / Linux');
    expect(describeUserAgent('curl/8.5.0')).toBe('curl 8.5');
    expect(describeUserAgent('')).toBe('');
    expect(describeUserAgent('Mozilla/5.0 (compatible)')).toBe('');
  });
});
