import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { setSetting } from '../src/db/settings.ts';
import { failuresToday } from '../src/db/login-failures.ts';
import { totpCode } from '../src/sign-in/totp.ts';
import { ticketLifeMs } from '../src/sign-in/tickets.ts';

// The login check mode with the authenticator app (TOTP), and the rules that hold for every channel.
// Code delivery by SMS / WeChat / e-mail is in sign-in-codes.test.ts.

let h: Harness;
let admin: { username: string; password: string };
let token: string;

beforeEach(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterEach(() => h.close());

const remote = '192.0.2.10';

async function call(url: string, payload: unknown, options: { ip?: string; lang?: string; token?: string } = {}) {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, payload: payload as object, remoteAddress: options.ip ?? remote,
    headers: { 'accept-language': options.lang ?? 'en-US', ...(options.token ? auth(options.token) : {}) },
  });
  return { status: res.statusCode, body: res.json() };
}

const login = (ip = remote, lang = 'en-US') => call('/login', { username: admin.username, password: admin.password }, { ip, lang });

/** Enrols an authenticator for the admin through the API; returns its secret. */
async function enrolTotp(): Promise<string> {
  const started = await call('/login/totp/new', { password: admin.password }, { token, ip: '127.0.0.1' });
  expect(started.body.code, JSON.stringify(started.body)).toBe(0);
  const secret = started.body.data.secret as string;
  const confirmed = await call('/login/totp/confirm', { code: totpCode(secret, h.clock.now) }, { token, ip: '127.0.0.1' });
  expect(confirmed.body).toMatchObject({ code: 0, msg: 'Two-step verification is on' });
  return secret;
}

/** The next 30-second step: each sign-in with the app needs a code not used before. */
const nextStep = () => (h.clock.now += 30_000);

async function events(kind: string) {
  await h.console.ctx.events.flush();
  const page = await h.agentClient.call('events.query', { limit: 200 });
  return page.list.filter((e) => e.kind === kind);
}

describe('login check mode', () => {
  it('off: the password alone gives a session', async () => {
    const { body } = await login();
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('strict without any way to send a code: refused from afar ("Notification method not set"), let through on this machine with a warning event', async () => {
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    expect((await login(remote, 'en-US')).body).toMatchObject({ code: 2, msg: 'Notification method not set' });
    expect((await login(remote, 'zh-CN')).body).toMatchObject({ code: 2, msg: '未设置通知方式' });
    const local = await login('127.0.0.1');
    expect(local.body.code).toBe(0);
    expect(local.body.data.token).toBeTruthy();
    expect((await login('::1')).body.data.token).toBeTruthy();
    expect(await events('panel.login_check_skipped')).toHaveLength(2);
  });

  it('asks a trust terminal sign-in for the same verification, and the verified ticket gives a terminal token, not a session', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    nextStep();
    const { body } = await call('/login', { username: admin.username, password: admin.password, client: 'terminal' });
    expect(body.data).toMatchObject({ verify: true, totp: true });
    const verified = await call('/login/verify', { ticket: body.data.ticket, object: 'totp', code: totpCode(secret, h.clock.now) });
    expect(verified.body.code).toBe(0);
    const terminalToken = verified.body.data.token as string;
    // The token beats the terminal and opens nothing in the console.
    const status = await h.app.inject({ url: '/magapi/terminal/status', headers: auth(terminalToken), remoteAddress: remote });
    expect(status.json()).toMatchObject({ code: 0, data: { account: admin.username, state: 'signed_in' } });
    expect((await h.app.inject({ url: '/magapi/home/index', headers: auth(terminalToken), remoteAddress: remote })).statusCode).toBe(401);
    expect(h.console.ctx.db.prepare('SELECT count(*) AS n FROM trust_terminals').get()).toEqual({ n: 1 });
  });

  it('strict with an authenticator: a ticket, not a session; the right code signs in, a wrong one counts as a failed sign-in', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    nextStep();
    const { body } = await login();
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ verify: true, totp: true, objects: [], expires_in: ticketLifeMs / 1000 });
    expect(body.data.token).toBeUndefined();
    const ticket = body.data.ticket as string;
    // The ticket is no session.
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(ticket) })).statusCode).toBe(401);

    const wrongCode = totpCode(secret, h.clock.now) === '000000' ? '111111' : '000000';
    const wrong = await call('/login/verify', { ticket, object: 'totp', code: wrongCode });
    expect(wrong.body).toMatchObject({ code: 2, msg: 'Wrong verification code, 4 attempts left' });
    expect(failuresToday(h.console.ctx.db, remote, h.clock.now)).toBe(1);

    const right = await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) });
    expect(right.body.code).toBe(0);
    const info = await h.app.inject({ url: '/magapi/info', headers: auth(right.body.data.token) });
    expect(info.json().data.username).toBe(admin.username);
    // A success clears the IP's failures, as a password sign-in does; the ticket is spent.
    expect(failuresToday(h.console.ctx.db, remote, h.clock.now)).toBe(0);
    expect((await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) })).body)
      .toMatchObject({ code: 2, msg: 'The verification step has expired, please sign in again' });
  });

  it('refuses a replayed authenticator code, and codes outside ±1 step', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    nextStep();
    const code = totpCode(secret, h.clock.now);
    const first = (await login()).body.data.ticket;
    expect((await call('/login/verify', { ticket: first, object: 'totp', code })).body.code).toBe(0);
    // Same code, fresh ticket, same 30 seconds: refused (no reuse of a step).
    const second = (await login()).body.data.ticket;
    expect((await call('/login/verify', { ticket: second, object: 'totp', code })).body).toMatchObject({ code: 2, msg: /Wrong verification code/ });
    // The previous and next steps are fine (clock drift); two steps away is not.
    h.clock.now += 30_000;
    expect((await call('/login/verify', { ticket: second, object: 'totp', code: totpCode(secret, h.clock.now + 30_000) })).body.code).toBe(0);
    h.clock.now += 60_000;
    const third = (await login()).body.data.ticket;
    expect((await call('/login/verify', { ticket: third, object: 'totp', code: totpCode(secret, h.clock.now - 90_000) })).body.code).toBe(2);
  });

  it('five wrong codes end the ticket; wrong codes lock the IP like wrong passwords', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    setSetting(h.console.ctx.db, 'login_error_count', 0);
    nextStep();
    const bad = totpCode(secret, h.clock.now) === '123456' ? '654321' : '123456';
    const ticket = (await login()).body.data.ticket;
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await call('/login/verify', { ticket, object: 'totp', code: bad })).body.msg);
    expect(answers).toEqual([
      'Wrong verification code, 4 attempts left', 'Wrong verification code, 3 attempts left', 'Wrong verification code, 2 attempts left',
      'Wrong verification code, 1 attempts left', 'Too many wrong verification codes, please sign in again',
    ]);
    expect((await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) })).body.msg)
      .toBe('The verification step has expired, please sign in again');

    // With a daily limit of 3, the third wrong code locks the IP (the password was right, still locked).
    setSetting(h.console.ctx.db, 'login_error_count', 3);
    const other = '192.0.2.77';
    const t2 = (await login(other)).body.data.ticket;
    expect((await call('/login/verify', { ticket: t2, object: 'totp', code: bad }, { ip: other })).body.msg).toBe('Wrong verification code, 2 attempts left');
    await call('/login/verify', { ticket: t2, object: 'totp', code: bad }, { ip: other });
    expect((await call('/login/verify', { ticket: t2, object: 'totp', code: bad }, { ip: other })).body.msg).toMatch(/locked for today/);
    expect((await login(other)).body.msg).toMatch(/locked for today/);
    // (Repeats from one IP on one day fold into one row in the simple log mode.)
    expect(new Set((await events('panel.login_failed')).map((e) => e.ip))).toEqual(new Set([remote, other]));
  });

  it('a ticket expires, and is good only from the IP that earned it', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    nextStep();
    const ticket = (await login()).body.data.ticket;
    expect((await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) }, { ip: '192.0.2.99' })).body.msg)
      .toBe('The verification step has expired, please sign in again');
    h.clock.now += ticketLifeMs;
    expect((await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) }, { lang: 'zh-CN' })).body.msg)
      .toBe('验证已失效，请重新登录');
  });

  it('loose: an IP verified once signs in with the password for the rest of the day; another IP and the next day verify again', async () => {
    const secret = await enrolTotp();
    setSetting(h.console.ctx.db, 'login_check_mode', 'loose');
    nextStep();
    const ticket = (await login()).body.data.ticket;
    expect((await call('/login/verify', { ticket, object: 'totp', code: totpCode(secret, h.clock.now) })).body.code).toBe(0);
    expect((await login()).body.data.token).toBeTruthy();
    expect((await login()).body.data.token).toBeTruthy();
    expect((await login('192.0.2.11')).body.data.verify).toBe(true);
    // Strict ignores the day's mark.
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    expect((await login()).body.data.verify).toBe(true);
    setSetting(h.console.ctx.db, 'login_check_mode', 'loose');
    h.clock.now += 24 * 60 * 60_000;
    expect((await login()).body.data.verify).toBe(true);
  });
});

describe('authenticator enrolment', () => {
  it('needs the password, shows the secret once, stores it sealed and is active only after a right code', async () => {
    expect((await call('/login/totp/new', { password: 'wrong' }, { token })).body).toMatchObject({ code: 2, msg: 'The old password is wrong' });
    const started = await call('/login/totp/new', { password: admin.password }, { token });
    const { secret, uri } = started.body.data as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(`otpauth://totp/Rampart%3A${admin.username}?secret=${secret}&issuer=Rampart&algorithm=SHA1&digits=6&period=30`);
    const stored = h.console.ctx.db.prepare('SELECT secret, active FROM totp_enrolments').get() as { secret: string; active: number };
    expect(stored.active).toBe(0);
    expect(stored.secret).not.toContain(secret);
    expect(stored.secret).toMatch(/^v1:/);
    // Not active yet: a sign-in in strict mode from afar has no way to verify.
    setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
    expect((await login()).body.msg).toBe('Notification method not set');
    const status = () => h.app.inject({ url: '/magapi/login/totp', headers: auth(token) }).then((r) => r.json().data);
    expect(await status()).toEqual({ enabled: false });

    expect((await call('/login/totp/confirm', { code: '000000' === totpCode(secret, h.clock.now) ? '111111' : '000000' }, { token })).body)
      .toMatchObject({ code: 2, msg: 'Wrong code: use the current 6 digits of your authenticator app' });
    expect((await call('/login/totp/confirm', { code: totpCode(secret, h.clock.now) }, { token, lang: 'zh-CN' })).body)
      .toMatchObject({ code: 0, msg: '两步验证已启用' });
    expect(await status()).toEqual({ enabled: true });
    // Never handed out again; a second enrolment waits for this one to be turned off.
    expect(JSON.stringify(await status())).not.toContain(secret);
    expect((await call('/login/totp/new', { password: admin.password }, { token })).body.msg).toMatch(/already on/);

    // Turning it off takes a current code, not the one just used.
    expect((await call('/login/totp/disable', { code: totpCode(secret, h.clock.now) }, { token })).body.code).toBe(2);
    nextStep();
    expect((await call('/login/totp/disable', { code: totpCode(secret, h.clock.now) }, { token })).body).toMatchObject({ code: 0, msg: 'Two-step verification is off' });
    expect(await status()).toEqual({ enabled: false });
    expect(h.console.ctx.db.prepare('SELECT COUNT(*) AS n FROM totp_enrolments').get()).toEqual({ n: 0 });
  });

  it('is per account: another account has its own', async () => {
    const secret = await enrolTotp();
    const tech = await h.addUser('technician', 'tech01', 'Secret123');
    expect((await h.app.inject({ url: '/magapi/login/totp', headers: auth(tech.token) })).json().data).toEqual({ enabled: false });
    expect((await call('/login/totp/disable', { code: totpCode(secret, h.clock.now + 30_000) }, { token: tech.token })).body.msg)
      .toBe('Two-step verification is not on');
  });
});

describe('bad input on the verification step, in both languages', () => {
  const cases: { body: unknown; field: string; en: string; zh: string }[] = [
    { body: { ticket: 'x', object: '', code: '123456' }, field: 'object', en: 'Please select the receiving object', zh: '请选择接收对象' },
    { body: { ticket: 'x', object: 'totp', code: '' }, field: 'code', en: 'Please enter verification code', zh: '请输入验证码' },
    { body: { ticket: 'x', object: 'totp' }, field: 'code', en: 'Please enter verification code', zh: '请输入验证码' },
    { body: { ticket: 'x', object: 'totp', code: '12ab56' }, field: 'code', en: 'The verification code is 6 digits', zh: '验证码为 6 位数字' },
    { body: { ticket: 'x', object: 'totp', code: '1234567' }, field: 'code', en: 'The verification code is 6 digits', zh: '验证码为 6 位数字' },
    { body: { ticket: 'x', object: ['totp'], code: 123456 }, field: 'object', en: 'Please select the receiving object', zh: '请选择接收对象' },
  ];

  it('answers 400 naming the field, and changes nothing', async () => {
    for (const c of cases) {
      for (const [lang, msg] of [['en-US', c.en], ['zh-CN', c.zh]] as const) {
        const res = await call('/login/verify', c.body, { lang });
        expect(res.status, JSON.stringify(c.body)).toBe(400);
        expect(res.body, JSON.stringify(c.body)).toMatchObject({ code: 2, msg, data: { field: c.field } });
      }
    }
    const send = await call('/login/code', { ticket: 'x', object: '' }, { lang: 'zh-CN' });
    expect(send).toMatchObject({ status: 400, body: { msg: '请选择接收对象', data: { field: 'object' } } });
    expect((await call('/login/totp/confirm', { code: 'abc' }, { token })).body).toMatchObject({ msg: 'The verification code is 6 digits', data: { field: 'code' } });
    expect((await call('/login/totp/new', {}, { token, lang: 'zh-CN' })).body).toMatchObject({ msg: '请输入登录密码', data: { field: 'password' } });
    // Unknown tickets count as nothing (a guess at 256 random bits is no sign-in attempt).
    expect((await call('/login/verify', { ticket: 'forged', object: 'totp', code: '123456' })).body.msg)
      .toBe('The verification step has expired, please sign in again');
    expect(failuresToday(h.console.ctx.db, remote, h.clock.now)).toBe(0);
  });
});
