import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReceivingObject } from '../src/services/verification-channels.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { setSetting } from '../src/db/settings.ts';
import { failuresToday } from '../src/db/login-failures.ts';
import { codeLifeMs, resendAfterMs } from '../src/sign-in/tickets.ts';

/*
 * Codes sent to a receiving object (SMS / WeChat / e-mail). The notification methods behind
 * verificationChannels() are the alerts tab's work; here the seam itself is replaced by a recorder,
 * so these tests pin down the sign-in side: what is sent, when, how often, and how it is checked.
 */
const sent: { id: string; subject: string; body: string }[] = [];
const delivery = { fail: false };
const objects: ReceivingObject[] = [
  { id: 'mail-1', channel: 'email', masked: 'a***@example.com' },
  { id: 'sms-1', channel: 'sms', masked: '138****1234' },
];
vi.mock('../src/services/verification-channels.ts', () => ({
  verificationChannels: () => ({
    list: () => objects,
    send: async (id: string, text: { subject: string; body: string }) => {
      if (delivery.fail) throw new Error('smtp down');
      sent.push({ id, ...text });
    },
  }),
}));

let h: Harness;
let admin: { username: string; password: string };
const ip = '192.0.2.20';

beforeEach(async () => {
  sent.length = 0;
  delivery.fail = false;
  h = await startHarness();
  admin = await h.register();
  setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
});
afterEach(() => h.close());

async function call(url: string, payload: unknown, lang = 'en-US') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, payload: payload as object, remoteAddress: ip, headers: { 'accept-language': lang } });
  return res.json();
}
const ticket = async () => {
  const body = await call('/login', { username: admin.username, password: admin.password });
  expect(body.data).toMatchObject({ verify: true, totp: false, objects });
  return body.data.ticket as string;
};
const lastCode = () => /\b(\d{6})\b/.exec(sent.at(-1)!.body)![1]!;

describe('codes sent to a receiving object', () => {
  it('sends a random 6-digit code in the reader\'s language, and the code signs in', async () => {
    const t = await ticket();
    const res = await call('/login/code', { ticket: t, object: 'mail-1' }, 'zh-CN');
    expect(res).toMatchObject({ code: 0, data: { resend_in: resendAfterMs / 1000, expires_in: codeLifeMs / 1000 } });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ id: 'mail-1', subject: 'Rampart 登录验证码' });
    expect(sent[0]!.body).toContain(`IP：${ip}`);
    const verified = await call('/login/verify', { ticket: t, object: 'mail-1', code: lastCode() });
    expect(verified.code).toBe(0);
    expect(verified.data.token).toBeTruthy();
  });

  it('enforces the resend countdown on the server; a newer code replaces the older one', async () => {
    const t = await ticket();
    await call('/login/code', { ticket: t, object: 'mail-1' });
    const first = lastCode();
    h.clock.now += 20_000;
    expect(await call('/login/code', { ticket: t, object: 'mail-1' })).toMatchObject({ code: 2, msg: 'Please wait 40 s before sending again' });
    expect(await call('/login/code', { ticket: t, object: 'sms-1' }, 'zh-CN')).toMatchObject({ code: 2, msg: '请 40 秒后再重新发送' });
    expect(sent).toHaveLength(1);
    h.clock.now += 40_000;
    expect((await call('/login/code', { ticket: t, object: 'sms-1' })).code).toBe(0);
    expect(sent.map((s) => s.id)).toEqual(['mail-1', 'sms-1']);
    // The e-mailed code no longer counts: the newest code was sent by SMS.
    expect((await call('/login/verify', { ticket: t, object: 'mail-1', code: first })).msg).toBe('Please send a verification code first');
    if (first !== lastCode()) expect((await call('/login/verify', { ticket: t, object: 'sms-1', code: first })).msg).toMatch(/Wrong verification code/);
    expect((await call('/login/verify', { ticket: t, object: 'sms-1', code: lastCode() })).code).toBe(0);
  });

  it('a code expires after its lifetime', async () => {
    const t = await ticket();
    await call('/login/code', { ticket: t, object: 'mail-1' });
    h.clock.now += codeLifeMs;
    expect(await call('/login/verify', { ticket: t, object: 'mail-1', code: lastCode() })).toMatchObject({ code: 2, msg: 'The verification code has expired, please send a new one' });
  });

  it('wrong codes count toward the IP\'s lock-out and end the ticket after five', async () => {
    setSetting(h.console.ctx.db, 'login_error_count', 0);
    const t = await ticket();
    await call('/login/code', { ticket: t, object: 'mail-1' });
    const wrong = lastCode() === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) expect((await call('/login/verify', { ticket: t, object: 'mail-1', code: wrong })).msg).toMatch(/Wrong verification code/);
    expect((await call('/login/verify', { ticket: t, object: 'mail-1', code: wrong })).msg).toBe('Too many wrong verification codes, please sign in again');
    expect((await call('/login/verify', { ticket: t, object: 'mail-1', code: lastCode() })).msg).toBe('The verification step has expired, please sign in again');
    expect(failuresToday(h.console.ctx.db, ip, h.clock.now)).toBe(5);
  });

  it('an unknown object, a failed delivery and too many sends are told plainly', async () => {
    const t = await ticket();
    expect((await call('/login/code', { ticket: t, object: 'nope' })).msg).toBe('No such receiving object, please select again');
    delivery.fail = true;
    expect(await call('/login/code', { ticket: t, object: 'mail-1' }, 'zh-CN')).toMatchObject({ code: 2, msg: '验证码发送失败，请检查消息通知设置' });
    // An undelivered code starts no countdown.
    delivery.fail = false;
    expect((await call('/login/code', { ticket: t, object: 'mail-1' })).code).toBe(0);
    for (let i = 0; i < 3; i++) {
      h.clock.now += resendAfterMs;
      expect((await call('/login/code', { ticket: t, object: 'mail-1' })).code).toBe(0);
    }
    h.clock.now += resendAfterMs;
    expect((await call('/login/code', { ticket: t, object: 'mail-1' })).msg).toBe('Too many codes sent, please sign in again');
    expect((await call('/login/code', { ticket: t, object: 'mail-1' })).msg).toBe('The verification step has expired, please sign in again');
  });
});
