import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultAlertSettings, type AlertQueueView, type AlertSettingsView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { choose, type } from './helpers/antd.ts';
import { ok, refused, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { spyFeedback } from './helpers/spyFeedback.ts';

const noSecrets = { smtp_password: false, aliyun_secret: false, tencent_secret: false, http_header_value: false, wecom_key: false };
const stored: AlertSettingsView = {
  ...structuredClone(defaultAlertSettings),
  enabled: true,
  methods: ['email'],
  email: { host: 'smtp.example.com', port: 465, security: 'tls', user: 'alerts', password: '', from: 'rampart@example.com', recipients: ['ops@example.com'] },
  stored: { ...noSecrets, smtp_password: true },
};
const emptyQueue: AlertQueueView = { enabled: true, interval: 3, waiting: null, last_sent_at: null, next_at: null };

async function openAlerts(handlers: Record<string, Handler> = {}) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /system/alerts': ok(stored),
      'POST /system/alerts': (call) => ok({ ...(call.body as object), stored: { ...stored.stored } }, 'Saved'),
      'GET /system/alerts/queue': ok(emptyQueue),
      ...handlers,
    },
  });
  renderApp('/system/alerts');
  await screen.findByTestId('alerts-form');
  return api;
}

const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
const error = (path: string) => screen.queryByTestId(`alerts-error-${path}`)?.textContent;
const save = () => fireEvent.click(screen.getByTestId('alerts-save'));

describe('alerts tab (system/alerts)', () => {
  it('shows the stored settings; a stored password is never filled in, only announced', async () => {
    await openAlerts();
    expect(screen.getByTestId('alerts-enabled').getAttribute('aria-checked')).toBe('true');
    expect(value('alerts-interval')).toBe('3');
    expect(value('alerts-smtp-host')).toBe('smtp.example.com');
    expect(value('alerts-recipients')).toBe('ops@example.com');
    expect(value('alerts-smtp-password')).toBe('');
    expect(screen.getByTestId('alerts-smtp-password').getAttribute('placeholder')).toBe('Stored; leave blank to keep it');
    expect(screen.getByTestId('alerts-queue-empty').textContent).toContain('No message is waiting.');
  });

  it('saves the whole object: lines become lists, blank secrets stay blank', async () => {
    const api = await openAlerts();
    fireEvent.click(screen.getByTestId('alerts-method-wechat'));
    type('alerts-interval', '0');
    type('alerts-recipients', ' ops@example.com \n\nsec@example.com\n');
    type('alerts-webhook', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/alerts')).toHaveLength(1));
    const body = api.callsTo('POST /system/alerts')[0]?.body as typeof stored;
    expect(body.methods).toEqual(['email', 'wechat']);
    expect(body.interval).toBe(0);
    expect(body.email.recipients).toEqual(['ops@example.com', 'sec@example.com']);
    expect(body.email.password).toBe('');
    expect(body.wechat.webhook).toBe('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc');
    expect(body).not.toHaveProperty('stored');
  });

  it('bad input is refused on its field before anything is sent', async () => {
    const api = await openAlerts();
    type('alerts-interval', '61');
    type('alerts-smtp-port', '0');
    type('alerts-recipients', 'ops@example.com\nnot-an-address');
    type('alerts-smtp-from', 'nobody');
    save();
    await waitFor(() => expect(error('interval')).toBe('The send interval is a whole number of minutes from 0 to 60; 0 means none'));
    expect(error('email.port')).toBe('Ports are whole numbers from 1 to 65535');
    expect(error('email.recipients')).toBe('Not a valid e-mail address; one per line');
    expect(error('email.from')).toBe('Enter a valid sender address');
    expect(api.callsTo('POST /system/alerts')).toHaveLength(0);
    type('alerts-interval', '');
    save();
    await waitFor(() => expect(error('interval')).toBe('The send interval is a whole number of minutes from 0 to 60; 0 means none'));
    type('alerts-interval', '5');
    await waitFor(() => expect(error('interval')).toBeUndefined());
  });

  it('SMS: provider fields, phone numbers and the SMS remaining notice', async () => {
    const api = await openAlerts();
    fireEvent.click(screen.getByTestId('alerts-method-sms'));
    type('alerts-phones', '13800138000\n12345');
    save();
    await waitFor(() => expect(error('sms.phones')).toBe('Not a valid mobile number: one per line, like 13800138000 or +85291234567'));
    expect(error('sms.aliyun.access_key_id')).toBe('Required');
    expect(screen.getByTestId('alerts-remaining-zero').textContent).toContain('No SMS remaining');
    await choose('alerts-provider', 'alerts-provider-http');
    expect(screen.getByTestId('alerts-sms-http')).toBeTruthy();
    type('alerts-sms-http-url', 'ftp://gateway');
    save();
    await waitFor(() => expect(error('sms.http.url')).toBe('Enter a valid gateway URL (http:// or https://)'));
    type('alerts-sms-http-url', 'https://sms.example.com/send');
    type('alerts-phones', '13800138000');
    type('alerts-sms-remaining', '100');
    expect(screen.queryByTestId('alerts-remaining-zero')).toBeNull();
    save();
    await waitFor(() => expect(api.callsTo('POST /system/alerts')).toHaveLength(1));
    const body = api.callsTo('POST /system/alerts')[0]?.body as typeof stored;
    expect(body.sms).toMatchObject({ provider: 'http', phones: ['13800138000'], remaining: 100, http: { url: 'https://sms.example.com/send', method: 'POST' } });
  });

  it('HTTP 400 naming a field shows the message there', async () => {
    const api = await openAlerts({ 'POST /system/alerts': refused('The webhook URL must carry its key parameter', 'wechat.webhook') });
    fireEvent.click(screen.getByTestId('alerts-method-wechat'));
    type('alerts-webhook', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/alerts')).toHaveLength(1));
    await waitFor(() => expect(error('wechat.webhook')).toBe('The webhook URL must carry its key parameter'));
  });

  it('test send: posts the method; waits while the form has unsaved changes; shows the console\'s answer', async () => {
    const api = await openAlerts({
      'POST /system/alerts/test': (call) =>
        (call.body as { method: string }).method === 'email' ? ok({ remaining: 0 }, 'Test message sent') : { body: { code: 2, msg: 'Notification method not set' } },
    });
    // The app installs its own modals when it mounts: spy after that.
    const feedback = spyFeedback();
    fireEvent.click(screen.getByTestId('alerts-test-email'));
    await waitFor(() => expect(api.callsTo('POST /system/alerts/test')).toHaveLength(1));
    expect(api.callsTo('POST /system/alerts/test')[0]?.body).toEqual({ method: 'email' });
    await waitFor(() => expect(feedback.success).toHaveBeenCalled());
    fireEvent.click(screen.getByTestId('alerts-test-wechat'));
    await waitFor(() => expect(feedback.error).toHaveBeenCalled());
    expect((feedback.error.mock.calls[0]?.[0].content as { props: { html: string } }).props.html).toBe('Notification method not set');
    expect((feedback.success.mock.calls[0]?.[0].content as { props: { html: string } }).props.html).toBe('Test message sent');
    type('alerts-smtp-host', 'smtp2.example.com');
    expect(screen.getByTestId('alerts-test-email').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('alerts-test-hint').textContent).toBe('You have unsaved changes: save them before sending a test.');
  });

  it('the queue shows the waiting message and clears it', async () => {
    const waiting: AlertQueueView = { enabled: true, interval: 3, waiting: { title: 'Attack detected', content: 'Firewall: 203.0.113.9', at: 1_700_000_000_000 }, last_sent_at: 1_700_000_000_000, next_at: 1_700_000_180_000 };
    const api = await openAlerts({ 'GET /system/alerts/queue': ok(waiting), 'POST /system/alerts/queue': ok(emptyQueue, 'The waiting message was removed') });
    expect((await screen.findByTestId('alerts-queue-waiting')).textContent).toContain('Attack detected');
    fireEvent.click(screen.getByTestId('alerts-queue-clear'));
    await waitFor(() => expect(api.callsTo('POST /system/alerts/queue')).toHaveLength(1));
    expect(api.callsTo('POST /system/alerts/queue')[0]?.body).toEqual({ action: 'clear' });
    await screen.findByTestId('alerts-queue-empty');
  });

  it('in Chinese: labels and field messages', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openAlerts();
    expect(screen.getByTestId('alerts-service').textContent).toContain('通知服务');
    expect(screen.getByTestId('alerts-card-sms').textContent).toContain('短信剩余条数');
    type('alerts-interval', '99');
    type('alerts-recipients', 'x');
    save();
    await waitFor(() => expect(error('interval')).toBe('发送间隔须为 0-60 的整数（分钟），0 表示不限制'));
    expect(error('email.recipients')).toBe('邮箱格式有误，每行一个');
  });
});
