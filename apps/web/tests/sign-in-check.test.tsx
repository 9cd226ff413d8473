import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LoginChallenge } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { choose, type } from './helpers/antd.ts';
import { userInfoFor } from './helpers/fixtures.ts';
import { installFakeWebSocket } from './helpers/fakeWebSocket.ts';
import { mockApi, ok, refused, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const challenge: LoginChallenge = {
  verify: true, ticket: 'T1', expires_in: 600, totp: true,
  objects: [
    { id: 'mail-1', channel: 'email', masked: 'a***@example.com' },
    { id: 'sms-1', channel: 'sms', masked: '138****1234' },
  ],
};

function consoleWithCheck(handlers: Record<string, Handler> = {}, offered: LoginChallenge = challenge) {
  installFakeWebSocket();
  return mockApi({
    'GET /login': ok({ registered: true, check_mode: 'strict' }),
    'POST /login': ok(offered),
    'POST /login/code': ok({ resend_in: 60, expires_in: 300 }),
    'POST /login/verify': ok({ token: 'verified-token', expires_at: null }),
    'GET /info': ok(userInfoFor('admin')),
    'GET /global': ok({ modules: userInfoFor('admin').module_list, oem: { oem_help: '' }, registered: true }),
    'GET /log/notice/unread': ok({ unread: 0 }),
    'GET /home/index': { body: { code: 0, msg: '', data: null } },
    ...handlers,
  });
}

/** The message sits under a form field (not in a modal). */
const onField = (el: HTMLElement) => el.closest('.ant-form-item-explain') !== null;

async function toStep() {
  await screen.findByTestId('login-username');
  type('login-username', 'admin');
  type('login-password', 'Secret-1');
  fireEvent.click(screen.getByTestId('login-submit'));
  await screen.findByTestId('verify-step');
}

describe('the sign-in verification step', () => {
  it('appears after a right password when the server asks for it, and asks for the object and the code first', async () => {
    const api = consoleWithCheck();
    const view = renderApp('/user/login');
    await toStep();
    expect(view.location()).toBe('/user/login');
    expect(sessionStorage.getItem('rampart.token')).toBeNull();
    // Channels in order, the authenticator last; e-mail first here since no WeChat object exists.
    expect(screen.getByTestId('verify-channel-sms')).toBeTruthy();
    expect(screen.getByTestId('verify-channel-email')).toBeTruthy();
    expect(screen.queryByTestId('verify-channel-wechat')).toBeNull();
    expect(screen.getByTestId('verify-channel-totp')).toBeTruthy();

    fireEvent.click(screen.getByTestId('verify-send'));
    expect(await screen.findByText('Please select the receiving object')).toBeTruthy();
    fireEvent.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText('Please enter verification code')).toBeTruthy();
    type('verify-code', '12a');
    fireEvent.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText('The verification code is 6 digits')).toBeTruthy();
    expect(api.callsTo('POST /login/code')).toHaveLength(0);
    expect(api.callsTo('POST /login/verify')).toHaveLength(0);
  });

  it('sends a code to the chosen object, counts down before another, and signs in with it', async () => {
    const api = consoleWithCheck();
    const view = renderApp('/user/login?redirect=%2Flog%2Fsystem');
    await toStep();
    // The first channel offered is SMS: its only object is the phone.
    await choose('verify-object', 'verify-object-sms-1');
    fireEvent.click(screen.getByTestId('verify-send'));
    await waitFor(() => expect(screen.getByTestId('verify-send').textContent).toMatch(/Resend in (60|59) s/));
    expect((screen.getByTestId('verify-send') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('A code was sent to 138****1234; it is valid for 5 minutes.')).toBeTruthy();
    expect(api.callsTo('POST /login/code').map((c) => c.body)).toEqual([{ ticket: 'T1', object: 'sms-1' }]);

    type('verify-code', '123456');
    fireEvent.click(screen.getByTestId('verify-submit'));
    await waitFor(() => expect(view.location()).toBe('/log/system'));
    expect(api.callsTo('POST /login/verify').map((c) => c.body)).toEqual([{ ticket: 'T1', object: 'sms-1', code: '123456' }]);
    expect(sessionStorage.getItem('rampart.token')).toBe('verified-token');
  });

  it('the countdown runs out and the button sends again', async () => {
    consoleWithCheck();
    renderApp('/user/login');
    await toStep();
    await choose('verify-object', 'verify-object-sms-1');
    const realNow = Date.now;
    try {
      fireEvent.click(screen.getByTestId('verify-send'));
      await waitFor(() => expect(screen.getByTestId('verify-send').textContent).toMatch(/Resend in/));
      // Move the wall clock past the countdown; the next tick re-enables the button.
      const later = realNow() + 61_000;
      Date.now = () => later;
      await act(async () => new Promise((r) => setTimeout(r, 1100)));
      await waitFor(() => expect(screen.getByTestId('verify-send').textContent).toBe('Send code'));
      expect((screen.getByTestId('verify-send') as HTMLButtonElement).disabled).toBe(false);
    } finally {
      Date.now = realNow;
    }
  });

  it('shows the server\'s refusal on the field it concerns, in a second language too', async () => {
    await i18next.changeLanguage('zh-CN');
    try {
      consoleWithCheck({
        'POST /login/code': { body: { code: 2, msg: '请 40 秒后再重新发送', lang: 'zh-CN' } },
        'POST /login/verify': refused('验证码为 6 位数字', 'code'),
      });
      renderApp('/user/login');
      await toStep();
      expect(screen.getByText('登录验证')).toBeTruthy();
      fireEvent.click(screen.getByTestId('verify-send'));
      expect(await screen.findByText('请选择接收对象')).toBeTruthy();
      fireEvent.click(screen.getByTestId('verify-submit'));
      expect(await screen.findByText('请输入验证码')).toBeTruthy();
      await choose('verify-object', 'verify-object-sms-1');
      fireEvent.click(screen.getByTestId('verify-send'));
      expect(onField(await screen.findByText('请 40 秒后再重新发送'))).toBe(true);
      type('verify-code', '123456');
      fireEvent.click(screen.getByTestId('verify-submit'));
      expect(onField(await screen.findByText('验证码为 6 位数字'))).toBe(true);
    } finally {
      await i18next.changeLanguage('en-US');
    }
  });

  it('the authenticator app needs no object; a wrong code stays on the step with the message', async () => {
    let verified = 0;
    const api = consoleWithCheck({
      'POST /login/verify': () => (verified++ === 0
        ? { body: { code: 2, msg: 'Wrong verification code, 4 attempts left', lang: 'en-US' } }
        : ok({ token: 'verified-token', expires_at: null })),
    });
    const view = renderApp('/user/login');
    await toStep();
    fireEvent.click(screen.getByTestId('verify-channel-totp'));
    await waitFor(() => expect(screen.queryByTestId('verify-object')).toBeNull());
    expect(screen.queryByTestId('verify-send')).toBeNull();
    expect(screen.getByText('Enter the 6-digit code your authenticator app shows for this console.')).toBeTruthy();
    type('verify-code', '000000');
    fireEvent.click(screen.getByTestId('verify-submit'));
    expect(onField(await screen.findByText('Wrong verification code, 4 attempts left'))).toBe(true);
    expect(view.location()).toBe('/user/login');
    type('verify-code', '654321');
    fireEvent.click(screen.getByTestId('verify-submit'));
    await waitFor(() => expect(view.location()).toBe('/dashboard'));
    expect(api.callsTo('POST /login/verify').map((c) => c.body)).toEqual([
      { ticket: 'T1', object: 'totp', code: '000000' }, { ticket: 'T1', object: 'totp', code: '654321' },
    ]);
  });

  it('back returns to the password form, keeping the account name', async () => {
    consoleWithCheck();
    renderApp('/user/login');
    await toStep();
    fireEvent.click(screen.getByTestId('verify-back'));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect((screen.getByTestId('login-username') as HTMLInputElement).value).toBe('admin');
    expect((screen.getByTestId('login-password') as HTMLInputElement).value).toBe('');
  });
});

describe('two-step verification in the header', () => {
  async function open(handlers: Record<string, Handler>) {
    const api = signedInAs('admin', { handlers });
    renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('two-step'));
    return api;
  }

  it('turns the authenticator on: password, QR code and key, then a first code', async () => {
    let enabled = false;
    const api = await open({
      'GET /login/totp': () => ok({ enabled }),
      'POST /login/totp/new': ok({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Rampart%3Aadmin?secret=JBSWY3DPEHPK3PXP&issuer=Rampart' }),
      'POST /login/totp/confirm': () => {
        enabled = true;
        return ok(null, 'Two-step verification is on');
      },
    });
    await screen.findByTestId('two-step-off');
    fireEvent.click(screen.getByTestId('two-step-start'));
    expect(await screen.findByText('Please enter your sign-in password')).toBeTruthy();
    expect(api.callsTo('POST /login/totp/new')).toHaveLength(0);
    type('two-step-password', 'Secret-1');
    fireEvent.click(screen.getByTestId('two-step-start'));
    expect((await screen.findByTestId('two-step-secret')).textContent).toContain('JBSWY3DPEHPK3PXP');
    expect(screen.getByTestId('two-step-qr')).toBeTruthy();
    expect(api.callsTo('POST /login/totp/new').map((c) => c.body)).toEqual([{ password: 'Secret-1' }]);
    fireEvent.click(screen.getByTestId('two-step-confirm'));
    expect(await screen.findByText('Please enter verification code')).toBeTruthy();
    type('two-step-code', '123456');
    fireEvent.click(screen.getByTestId('two-step-confirm'));
    await screen.findByTestId('two-step-on');
    expect(screen.queryByTestId('two-step-secret')).toBeNull();
    expect(api.callsTo('POST /login/totp/confirm').map((c) => c.body)).toEqual([{ code: '123456' }]);
  });

  it('turning it off needs a current code; a wrong one is told on the field', async () => {
    await open({
      'GET /login/totp': ok({ enabled: true }),
      'POST /login/totp/disable': { body: { code: 2, msg: 'Wrong code: use the current 6 digits of your authenticator app', lang: 'en-US' } },
    });
    await screen.findByTestId('two-step-on');
    type('two-step-code', '111111');
    fireEvent.click(screen.getByTestId('two-step-disable'));
    expect(await screen.findByText('Wrong code: use the current 6 digits of your authenticator app')).toBeTruthy();
  });
});
