import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { setSetting } from '../src/db/settings.ts';

let h: Harness;
let admin: { username: string; password: string };
beforeEach(async () => {
  h = await startHarness();
  admin = await h.register();
});
afterEach(() => h.close());

const login = (payload: unknown, ip = '127.0.0.1', lang = 'en-US') =>
  h.app.inject({ method: 'POST', url: '/magapi/login', payload: payload as object, remoteAddress: ip, headers: { 'accept-language': lang } });

describe('sign-in', () => {
  it('signs the admin in with the registration password and stores only a hash of the token', async () => {
    const res = await login({ username: admin.username, password: admin.password });
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = h.console.ctx.db.prepare('SELECT token_hash FROM sessions').all() as { token_hash: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(body.data.token);
    const info = await h.app.inject({ url: '/magapi/info', headers: auth(body.data.token) });
    expect(info.json().data.username).toBe('admin');
  });

  it('takes account names case-insensitively', async () => {
    expect((await login({ username: 'ADMIN', password: admin.password })).json().code).toBe(0);
  });

  it('counts failures per IP per day and locks that IP, not others, after the limit', async () => {
    setSetting(h.console.ctx.db, 'login_error_count', 3);
    const first = (await login({ username: 'admin', password: 'wrong-1' }, '10.9.9.9')).json();
    expect(first).toMatchObject({ code: 2, msg: 'Wrong account or password, 2 attempts left today' });
    await login({ username: 'nobody', password: 'wrong-2' }, '10.9.9.9');
    expect((await login({ username: 'admin', password: 'wrong-3' }, '10.9.9.9')).json().msg).toMatch(/locked/);
    // Locked: even the right password is refused from that IP today...
    expect((await login({ username: 'admin', password: admin.password }, '10.9.9.9')).json().code).toBe(2);
    // ...but another address signs in, and the next day the lock is gone.
    expect((await login({ username: 'admin', password: admin.password }, '10.8.8.8')).json().code).toBe(0);
    h.clock.now += 24 * 3600_000;
    expect((await login({ username: 'admin', password: admin.password }, '10.9.9.9')).json().code).toBe(0);
  });

  it('never locks out when the login error count is 0', async () => {
    setSetting(h.console.ctx.db, 'login_error_count', 0);
    for (let i = 0; i < 8; i++) expect((await login({ username: 'admin', password: `bad-${i}` }, '10.7.7.7')).json().msg).toBe('Wrong account or password');
    expect((await login({ username: 'admin', password: admin.password }, '10.7.7.7')).json().code).toBe(0);
  });

  it('answers in the caller language', async () => {
    const res = await login({ username: 'admin', password: 'nope' }, '127.0.0.1', 'zh-CN');
    expect(res.json().msg).toContain('账号或密码错误');
    const empty = await login({ username: '', password: '' }, '127.0.0.1', 'en-US');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('Please enter the admin account and password');
  });

  it('refuses disabled accounts and `other` accounts, which sign in only through the trusted terminal', async () => {
    const other = await h.addUser('other', 'trusted1');
    expect((await login({ username: other.username, password: other.password })).json().msg).toBe('This account signs in only through the trust terminal: open /trust on this panel');
    const tech = await h.addUser('technician', 'tech01');
    h.console.ctx.db.prepare('UPDATE users SET status = 0 WHERE username = ?').run('tech01');
    expect((await login({ username: tech.username, password: tech.password })).json().msg).toBe('This account is disabled');
    // The disabled account's existing session stops working too.
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(tech.token) })).statusCode).toBe(401);
  });

  it('rate-limits bursts of sign-in requests from one address', async () => {
    setSetting(h.console.ctx.db, 'login_error_count', 0);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await login({ username: 'admin', password: 'x' }, '10.6.6.6')).statusCode);
    expect(statuses).toContain(429);
  });
});

describe('sessions', () => {
  it('expires after the session timeout of inactivity and never when the timeout is 0', async () => {
    setSetting(h.console.ctx.db, 'session_timeout', 10);
    const token = await h.login('admin', admin.password);
    h.clock.now += 9 * 60_000;
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(token) })).statusCode).toBe(200);
    // That use slid the expiry forward: 9 more minutes are fine, 11 are not.
    h.clock.now += 9 * 60_000;
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(token) })).statusCode).toBe(200);
    h.clock.now += 11 * 60_000;
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(token) })).statusCode).toBe(401);

    setSetting(h.console.ctx.db, 'session_timeout', 0);
    const forever = await h.login('admin', admin.password);
    h.clock.now += 400 * 24 * 3600_000;
    // The licence would have expired by now; move its expiry too so only the session is in question.
    h.console.ctx.db.prepare('UPDATE registration SET expires_at = ?').run(h.clock.now + 1000);
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(forever) })).statusCode).toBe(200);
  });

  it('ends the session on logout', async () => {
    const token = await h.login('admin', admin.password);
    expect((await h.app.inject({ method: 'POST', url: '/magapi/logout', headers: auth(token) })).json().code).toBe(0);
    const after = await h.app.inject({ url: '/magapi/info', headers: { ...auth(token), 'accept-language': 'en-US' } });
    expect(after.statusCode).toBe(401);
    expect(after.json().msg).toBe('Your session has ended, please sign in again');
  });
});

describe('change password', () => {
  const setpwd = (token: string, payload: object) =>
    h.app.inject({ method: 'POST', url: '/magapi/setpwd', payload, headers: { ...auth(token), 'accept-language': 'en-US' } });

  it('checks the old password, the rule and the confirmation, then ends every session', async () => {
    const token = await h.login('admin', admin.password);
    const other = await h.login('admin', admin.password);
    expect((await setpwd(token, { username: 'admin', old: 'wrong', new: 'NewPass123', confirm: 'NewPass123' })).json().msg).toBe('The old password is wrong');
    const weak = await setpwd(token, { username: 'admin', old: admin.password, new: 'onlyletters', confirm: 'onlyletters' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().msg).toMatch(/not only letters/);
    expect((await setpwd(token, { username: 'admin', old: admin.password, new: 'NewPass123', confirm: 'NewPass124' })).json().msg).toBe('The two new passwords do not match');
    expect((await setpwd(token, { username: 'someone', old: admin.password, new: 'NewPass123', confirm: 'NewPass123' })).json().msg).toBe('This account has no permission');
    const done = await setpwd(token, { username: 'admin', old: admin.password, new: 'NewPass123', confirm: 'NewPass123' });
    expect(done.json()).toMatchObject({ code: 0, msg: 'Password changed, please sign in again' });
    for (const t of [token, other]) expect((await h.app.inject({ url: '/magapi/info', headers: auth(t) })).statusCode).toBe(401);
    expect((await login({ username: 'admin', password: admin.password })).json().code).toBe(2);
    expect((await login({ username: 'admin', password: 'NewPass123' })).json().code).toBe(0);
  });
});
