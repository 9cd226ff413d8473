import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAlertSettings, type AlertSettingsInput } from '@rampart/contracts';
import { startSmtpSink, type SmtpSink } from '../../../packages/notify/tests/peers.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { setSetting } from '../src/db/settings.ts';

/*
 * A sign-in code by e-mail, end to end: the alerts tab's SMTP settings (saved through its API), a
 * real smtp-server on loopback, the mail parsed with postal-mime, the code from it signs in.
 */

let h: Harness;
let smtp: SmtpSink;
let token: string;
let admin: { username: string; password: string };
const ip = '192.0.2.30';

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
  smtp = await startSmtpSink({ user: 'alerts@example.com', password: 'smtp-Pa55' });
  const s: AlertSettingsInput = structuredClone(defaultAlertSettings);
  s.methods = ['email'];
  s.email = { host: '127.0.0.1', port: smtp.port, security: 'none', user: 'alerts@example.com', password: 'smtp-Pa55', from: 'rampart@example.com', recipients: ['ops@example.com'] };
  const saved = await h.app.inject({ method: 'POST', url: '/magapi/system/alerts', headers: auth(token), payload: s });
  expect(saved.json().code, saved.body).toBe(0);
  setSetting(h.console.ctx.db, 'login_check_mode', 'strict');
});
afterAll(async () => {
  await smtp?.close();
  await h?.close();
});

async function call(url: string, payload: unknown, lang = 'en-US') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, payload: payload as object, remoteAddress: ip, headers: { 'accept-language': lang } });
  return res.json();
}

describe('a sign-in code by e-mail', () => {
  it('goes to the configured recipient over SMTP and signs in', async () => {
    const challenge = (await call('/login', { username: admin.username, password: admin.password })).data;
    expect(challenge).toMatchObject({ verify: true, totp: false, objects: [{ channel: 'email', masked: 'o***@example.com' }] });
    const object = challenge.objects[0].id as string;
    const arrived = smtp.next();
    expect((await call('/login/code', { ticket: challenge.ticket, object })).code).toBe(0);
    const mail = await arrived;
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.subject).toBe('Rampart sign-in verification code');
    expect(mail.text).toContain(`IP: ${ip}`);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    const signedIn = await call('/login/verify', { ticket: challenge.ticket, object, code });
    expect(signedIn.code).toBe(0);
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(signedIn.data.token) })).json().data.username).toBe(admin.username);
  });

  it('says so when the mail cannot be delivered', async () => {
    const challenge = (await call('/login', { username: admin.username, password: admin.password })).data;
    await smtp.close();
    const res = await call('/login/code', { ticket: challenge.ticket, object: challenge.objects[0].id }, 'zh-CN');
    expect(res).toMatchObject({ code: 2, msg: '验证码发送失败，请检查消息通知设置' });
  });
});
