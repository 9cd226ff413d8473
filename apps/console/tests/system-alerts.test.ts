import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultAlertSettings, translate, type AlertSettingsInput, type Language } from '@rampart/contracts';
import { startProviderPeer, startSmtpSink, type ProviderPeer, type SmtpSink } from '../../../packages/notify/tests/peers.ts';
import { getSetting, setSetting } from '../src/db/settings.ts';
import { alertDispatcher } from '../src/services/alert-dispatcher.ts';
import { verificationChannels } from '../src/services/verification-channels.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/**
 * The alerts tab against real peers on loopback: smtp-server (mails parsed with postal-mime), and an
 * HTTP server playing Alibaba Cloud / Tencent Cloud SMS (signatures recomputed with the shared
 * secret), a generic gateway and the WeCom robot. The console runs on the harness clock.
 */
let h: Harness;
let token: string;
let smtp: SmtpSink;
let peer: ProviderPeer;

const secrets = { smtp: 'smtp-Pa55', aliyun: 'aliyun-s3cret', tencent: 'tencent-s3cret', gateway: 'gw-t0ken', wecom: 'wecom-robot-key-42' };

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  smtp = await startSmtpSink({ user: 'alerts@example.com', password: secrets.smtp });
  peer = await startProviderPeer({
    aliyun: { accessKeyId: 'LTAI5tKey', secret: secrets.aliyun },
    tencent: { secretId: 'AKIDtest', secretKey: secrets.tencent },
    wecomKey: secrets.wecom,
    gatewayHeader: { name: 'X-Token', value: secrets.gateway },
  });
});
afterAll(async () => {
  await smtp.close();
  await peer.close();
  await h.close();
});

async function get(url: string, lang: Language = 'zh-CN') {
  const res = await h.app.inject({ method: 'GET', url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json(), text: res.body };
}
async function post(url: string, payload: unknown, lang: Language = 'zh-CN') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang }, payload: payload as object });
  return { status: res.statusCode, body: res.json() };
}

function full(patch: (s: AlertSettingsInput) => void = () => {}): AlertSettingsInput {
  const s: AlertSettingsInput = structuredClone(defaultAlertSettings);
  s.enabled = true;
  s.methods = ['email', 'sms', 'wechat'];
  s.interval = 0;
  s.email = { host: '127.0.0.1', port: smtp.port, security: 'none', user: 'alerts@example.com', password: secrets.smtp, from: 'rampart@example.com', recipients: ['ops@example.com', 'sec@example.com'] };
  s.sms.provider = 'aliyun';
  s.sms.phones = ['13800138000'];
  s.sms.remaining = 10;
  s.sms.aliyun = { endpoint: `${peer.url}/aliyun`, region: 'cn-hangzhou', access_key_id: 'LTAI5tKey', access_key_secret: secrets.aliyun, sign_name: '安全告警', template_code: 'SMS_100', template_param: 'content' };
  s.sms.tencent = { endpoint: `${peer.url}/tencent`, region: 'ap-guangzhou', secret_id: 'AKIDtest', secret_key: secrets.tencent, sdk_app_id: '1400000001', sign_name: '签名', template_id: '42' };
  s.sms.http = { url: `${peer.url}/gateway`, method: 'POST', template: '{"to":"{phone}","text":"{text}"}', header_name: 'X-Token', header_value: secrets.gateway };
  s.wechat = { webhook: `${peer.url}/cgi-bin/webhook/send?key=${secrets.wecom}` };
  patch(s);
  return s;
}

async function save(s: AlertSettingsInput) {
  const res = await post('/system/alerts', s);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

function resetState() {
  setSetting(h.console.ctx.db, 'alert_state', { cursor: null, waiting: null, last_sent_at: null });
}

describe('settings', () => {
  it('starts with the service off, interval 3 and no method', async () => {
    const { body } = await get('/system/alerts');
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ enabled: false, methods: [], interval: 3, lang: 'auto' });
    expect(body.data.stored).toEqual({ smtp_password: false, aliyun_secret: false, tencent_secret: false, http_header_value: false, wecom_key: false });
  });

  it('stores the secrets sealed: never in GET responses nor in plain text in the database; blank keeps them', async () => {
    const saved = await save(full());
    const { text, body } = await get('/system/alerts');
    for (const value of Object.values(secrets)) {
      expect(text).not.toContain(value);
      expect(JSON.stringify(saved)).not.toContain(value);
    }
    expect(body.data.stored).toEqual({ smtp_password: true, aliyun_secret: true, tencent_secret: true, http_header_value: true, wecom_key: true });
    expect(body.data.email.password).toBe('');
    expect(body.data.wechat.webhook).toBe(`${peer.url}/cgi-bin/webhook/send`);
    const row = h.console.ctx.db.prepare("SELECT value FROM settings WHERE key = 'alerts'").get() as { value: string };
    for (const value of Object.values(secrets)) expect(row.value).not.toContain(value);

    // Saving the view back as it is (secrets blank, webhook without key) keeps every secret working.
    const { stored: _stored, ...view } = body.data;
    await save(view);
    smtp.mails.length = 0;
    const arrived = smtp.next();
    expect((await post('/system/alerts/test', { method: 'email' })).body.code).toBe(0);
    expect((await arrived).auth).toEqual({ username: 'alerts@example.com', password: secrets.smtp });
    expect((await post('/system/alerts/test', { method: 'wechat' })).body.code).toBe(0);
    expect(peer.requests.at(-1)?.verdict).toBe('ok');
  });

  it('a chosen SMS provider or robot without a stored secret is refused on that field', async () => {
    h.console.ctx.db.prepare("DELETE FROM settings WHERE key = 'alerts'").run();
    const res = await post('/system/alerts', full((s) => {
      s.sms.aliyun.access_key_secret = '';
    }), 'en-US');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: 'Enter the secret', data: { field: 'sms.aliyun.access_key_secret' } });
    const robot = await post('/system/alerts', full((s) => {
      s.methods = ['wechat'];
      s.wechat.webhook = `${peer.url}/cgi-bin/webhook/send`;
    }), 'zh-CN');
    expect(robot.body).toMatchObject({ msg: 'Webhook 地址须包含 key 参数', data: { field: 'wechat.webhook' } });
    expect(getSetting(h.console.ctx.db, 'alerts').settings.enabled).toBe(false);
  });

  // Every field with a bad value: HTTP 400, the message in the caller's language, the field named, nothing saved.
  const bad: [string, (s: AlertSettingsInput) => void, string, 'alert_interval_invalid' | string][] = [
    ['interval', (s) => void (s.interval = 61), 'interval', 'alert_interval_invalid'],
    ['interval negative', (s) => void (s.interval = -1), 'interval', 'alert_interval_invalid'],
    ['interval fraction', (s) => void (s.interval = 1.5), 'interval', 'alert_interval_invalid'],
    ['no method while on', (s) => void (s.methods = []), 'methods', 'alert_method_not_set'],
    ['unknown method', (s) => void (s.methods = ['fax' as never]), 'methods.0', 'alert_method_invalid'],
    ['smtp host', (s) => void (s.email.host = 'bad host!'), 'email.host', 'alert_smtp_host_invalid'],
    ['smtp host missing', (s) => void (s.email.host = ''), 'email.host', 'alert_smtp_host_required'],
    ['smtp port', (s) => void (s.email.port = 70000), 'email.port', 'port_invalid'],
    ['smtp security', (s) => void (s.email.security = 'ssl3' as never), 'email.security', 'alert_smtp_security_invalid'],
    ['sender', (s) => void (s.email.from = 'not-an-address'), 'email.from', 'alert_email_from_invalid'],
    ['recipient', (s) => void (s.email.recipients = ['ops@example.com', 'nobody']), 'email.recipients.1', 'alert_email_invalid'],
    ['no recipient', (s) => void (s.email.recipients = []), 'email.recipients', 'alert_recipients_required'],
    ['too many recipients', (s) => void (s.email.recipients = Array.from({ length: 21 }, (_, i) => `u${i}@example.com`)), 'email.recipients', 'alert_recipients_max'],
    ['phone', (s) => void (s.sms.phones = ['12345']), 'sms.phones.0', 'alert_phone_invalid'],
    ['no phone', (s) => void (s.sms.phones = []), 'sms.phones', 'alert_phones_required'],
    ['provider', (s) => void (s.sms.provider = 'twilio' as never), 'sms.provider', 'alert_sms_provider_invalid'],
    ['remaining', (s) => void (s.sms.remaining = -5), 'sms.remaining', 'alert_sms_remaining_invalid'],
    ['aliyun endpoint', (s) => void (s.sms.aliyun.endpoint = 'ftp://x'), 'sms.aliyun.endpoint', 'alert_endpoint_invalid'],
    ['aliyun key id', (s) => void (s.sms.aliyun.access_key_id = ''), 'sms.aliyun.access_key_id', 'alert_field_required'],
    ['aliyun template param', (s) => void (s.sms.aliyun.template_param = 'a b'), 'sms.aliyun.template_param', 'alert_template_param_invalid'],
    ['tencent app id', (s) => { s.sms.provider = 'tencent'; s.sms.tencent.sdk_app_id = 'abc'; }, 'sms.tencent.sdk_app_id', 'alert_sdk_app_id_invalid'],
    ['tencent template', (s) => { s.sms.provider = 'tencent'; s.sms.tencent.template_id = 'x1'; }, 'sms.tencent.template_id', 'alert_template_id_invalid'],
    ['gateway url', (s) => { s.sms.provider = 'http'; s.sms.http.url = 'javascript:alert(1)'; }, 'sms.http.url', 'alert_url_invalid'],
    ['gateway method', (s) => { s.sms.provider = 'http'; s.sms.http.method = 'PUT' as never; }, 'sms.http.method', 'alert_http_method_invalid'],
    ['gateway header', (s) => { s.sms.provider = 'http'; s.sms.http.header_name = 'X Token'; }, 'sms.http.header_name', 'alert_header_name_invalid'],
    ['gateway header value', (s) => { s.sms.provider = 'http'; s.sms.http.header_value = 'a\r\nInjected: 1'; }, 'sms.http.header_value', 'alert_header_value_invalid'],
    ['gateway template', (s) => { s.sms.provider = 'http'; s.sms.http.template = ''; }, 'sms.http.template', 'alert_field_required'],
    ['webhook', (s) => void (s.wechat.webhook = 'qyapi.weixin.qq.com/send'), 'wechat.webhook', 'alert_webhook_invalid'],
    ['webhook with credentials', (s) => void (s.wechat.webhook = 'https://u:p@qyapi.weixin.qq.com/send?key=1'), 'wechat.webhook', 'alert_webhook_invalid'],
  ];
  for (const lang of ['zh-CN', 'en-US'] as const) {
    it.each(bad)(`refuses a bad %s (${lang})`, async (_name, mutate, field, key) => {
      const before = h.console.ctx.db.prepare("SELECT value FROM settings WHERE key = 'alerts'").get();
      const res = await post('/system/alerts', full(mutate), lang);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 2, msg: translate(lang, key as never), data: { field } });
      expect(h.console.ctx.db.prepare("SELECT value FROM settings WHERE key = 'alerts'").get()).toEqual(before);
    });
  }

  it('refuses wrong types and unknown fields without a 500', async () => {
    for (const body of [null, [], { ...full(), extra: 1 }, { ...full(), email: 'x' }, { ...full(), interval: '3' }]) {
      const res = await post('/system/alerts', body);
      expect(res.status).toBe(400);
    }
  });
});

describe('test send', () => {
  beforeEach(async () => {
    await save(full());
  });

  it('e-mail: smtp-server receives the mail with subject, body, recipients and credentials', async () => {
    smtp.mails.length = 0;
    const arrived = smtp.next();
    const res = await post('/system/alerts/test', { method: 'email' }, 'en-US');
    expect(res.body).toMatchObject({ code: 0, msg: 'Test message sent' });
    const mail = await arrived;
    expect(mail.auth).toEqual({ username: 'alerts@example.com', password: secrets.smtp });
    expect(mail.from).toBe('rampart@example.com');
    expect(mail.to).toEqual(['ops@example.com', 'sec@example.com']);
    expect(mail.subject).toMatch(/^\[.+\] Test message$/);
    expect(mail.text).toContain('the E-mail notification method works');
  });

  it('SMS by Alibaba Cloud: the peer verifies the signature; the budget goes down by one', async () => {
    const res = await post('/system/alerts/test', { method: 'sms' }, 'zh-CN');
    expect(res.body).toMatchObject({ code: 0, msg: '测试消息已发送', data: { remaining: 9 } });
    const seen = peer.requests.at(-1)!;
    expect(seen.path).toBe('/aliyun');
    expect(seen.verdict).toBe('ok');
    const params = new URLSearchParams(seen.body);
    expect(params.get('PhoneNumbers')).toBe('13800138000');
    expect(JSON.parse(params.get('TemplateParam')!).content).toContain('测试消息');
    expect((await get('/system/alerts')).body.data.sms.remaining).toBe(9);
  });

  it('SMS by Tencent Cloud and by the generic gateway', async () => {
    await save(full((s) => void (s.sms.provider = 'tencent')));
    expect((await post('/system/alerts/test', { method: 'sms' })).body.code).toBe(0);
    expect(peer.requests.at(-1)).toMatchObject({ path: '/tencent', verdict: 'ok' });
    await save(full((s) => {
      s.sms.provider = 'http';
      s.sms.phones = ['13800138000', '+85291234567'];
    }));
    expect((await post('/system/alerts/test', { method: 'sms' })).body.data.remaining).toBe(8);
    const [a, b] = peer.requests.slice(-2);
    expect(a).toMatchObject({ path: '/gateway', verdict: 'ok' });
    expect(JSON.parse(b!.body).to).toBe('+85291234567');
  });

  it('a wrong SMS secret comes back as the provider\'s refusal, localized around it', async () => {
    await save(full((s) => void (s.sms.aliyun.access_key_secret = 'wrong')));
    const res = await post('/system/alerts/test', { method: 'sms' }, 'en-US');
    expect(res.body.code).toBe(2);
    expect(res.body.msg).toMatch(/^Sending failed: Alibaba Cloud SMS: SignatureDoesNotMatch/);
    const zh = await post('/system/alerts/test', { method: 'sms' }, 'zh-CN');
    expect(zh.body.msg).toMatch(/^发送失败：Alibaba Cloud SMS: SignatureDoesNotMatch/);
  });

  it('no SMS remaining: nothing is sent and the answer says so', async () => {
    await save(full((s) => void (s.sms.remaining = 0)));
    const before = peer.requests.length;
    expect((await post('/system/alerts/test', { method: 'sms' }, 'en-US')).body).toMatchObject({ code: 2, msg: 'No SMS remaining: no SMS was sent' });
    expect(peer.requests.length).toBe(before);
  });

  it('WeCom: the robot gets {msgtype:text}; a non-zero errcode is a failure with its errmsg', async () => {
    expect((await post('/system/alerts/test', { method: 'wechat' })).body.code).toBe(0);
    const seen = peer.requests.at(-1)!;
    expect(seen.verdict).toBe('ok');
    expect(JSON.parse(seen.body)).toEqual({ msgtype: 'text', text: { content: expect.stringContaining('测试消息') } });
    peer.failNext('/cgi-bin/webhook/send', 200, { errcode: 45009, errmsg: 'api freq out of limit' });
    const res = await post('/system/alerts/test', { method: 'wechat' }, 'en-US');
    expect(res.body).toMatchObject({ code: 2, msg: 'Sending failed: WeCom: errcode 45009 api freq out of limit' });
  });

  it('"Notification method not set" when the method is not configured, in both languages', async () => {
    h.console.ctx.db.prepare("DELETE FROM settings WHERE key = 'alerts'").run();
    expect((await post('/system/alerts/test', { method: 'email' }, 'en-US')).body).toMatchObject({ code: 2, msg: 'Notification method not set' });
    expect((await post('/system/alerts/test', { method: 'wechat' }, 'zh-CN')).body).toMatchObject({ code: 2, msg: '未设置通知方式' });
    expect((await post('/system/alerts/test', { method: 'pager' }, 'en-US')).body).toMatchObject({ code: 2, msg: 'Choose a notification method', data: { field: 'method' } });
  });
});

describe('delivery of notices: interval and the queue of one', () => {
  const raise = (account: string) => h.agentClient.call('notices.raise', { kind: 'module_off', params: { account, module: 'firewall' } });
  const robotCalls = () => peer.requests.filter((r) => r.path === '/cgi-bin/webhook/send');

  beforeEach(async () => {
    resetState();
    await save(full((s) => {
      s.methods = ['wechat'];
      s.interval = 3;
      s.lang = 'en-US';
    }));
  });

  it('notices older than the first look are not sent; a new one goes at once, later ones wait (newest wins) until the interval is up', async () => {
    const d = alertDispatcher(h.console.ctx);
    await raise('old');
    await d.poll();
    const start = robotCalls().length;
    expect(robotCalls().some((r) => r.body.includes('old turned'))).toBe(false);

    await raise('first');
    await d.poll();
    expect(robotCalls()).toHaveLength(start + 1);
    expect(JSON.parse(robotCalls().at(-1)!.body).text.content).toContain('first turned Firewall off');

    h.clock.now += 30_000;
    await raise('second');
    await raise('third');
    await d.poll();
    expect(robotCalls()).toHaveLength(start + 1);
    const queue = (await get('/system/alerts/queue', 'en-US')).body.data;
    expect(queue).toMatchObject({ enabled: true, interval: 3, waiting: { title: 'Protection module turned off' } });
    expect(queue.waiting.content).toContain('third');
    expect(queue.next_at).toBe(queue.last_sent_at + 3 * 60_000);

    h.clock.now += 2 * 60_000;
    await d.tick();
    expect(robotCalls()).toHaveLength(start + 1);
    h.clock.now += 31_000;
    await d.tick();
    expect(robotCalls()).toHaveLength(start + 2);
    expect(JSON.parse(robotCalls().at(-1)!.body).text.content).toContain('third');
    expect(robotCalls().some((r) => r.body.includes('second'))).toBe(false);
    expect((await get('/system/alerts/queue')).body.data.waiting).toBeNull();
  });

  it('POST /system/alerts/queue clears the waiting message', async () => {
    const d = alertDispatcher(h.console.ctx);
    await d.poll();
    await raise('a');
    await d.poll();
    await raise('b');
    await d.poll();
    expect((await get('/system/alerts/queue')).body.data.waiting).not.toBeNull();
    const res = await post('/system/alerts/queue', { action: 'clear' }, 'en-US');
    expect(res.body).toMatchObject({ code: 0, msg: 'The waiting message was removed', data: { waiting: null } });
    const sent = robotCalls().length;
    h.clock.now += 10 * 60_000;
    await d.tick();
    expect(robotCalls()).toHaveLength(sent);
    expect((await post('/system/alerts/queue', { action: 'drop' })).status).toBe(400);
  });

  it('interval 0 sends every message at once; a service turned off sends nothing', async () => {
    const d = alertDispatcher(h.console.ctx);
    await save(full((s) => {
      s.methods = ['wechat'];
      s.interval = 0;
    }));
    await d.poll();
    const sent = robotCalls().length;
    await raise('x1');
    await raise('x2');
    await raise('x3');
    await d.poll();
    expect(robotCalls()).toHaveLength(sent + 3);
    expect(JSON.parse(robotCalls().at(-1)!.body).text.content).toContain('x3');
    // The first administrator reads Chinese (auto language).
    expect(JSON.parse(robotCalls().at(-1)!.body).text.content).toContain('关闭了防火墙');

    await save(full((s) => {
      s.enabled = false;
      s.methods = ['wechat'];
    }));
    await raise('x4');
    await d.poll();
    expect(robotCalls()).toHaveLength(sent + 3);
  });

  it('the background loop finds new notices and sends them by itself', async () => {
    await save(full((s) => {
      s.methods = ['wechat'];
      s.interval = 0;
    }));
    const d = alertDispatcher(h.console.ctx);
    await d.poll();
    const stop = d.start(50);
    try {
      await raise('looped');
      await expect.poll(() => robotCalls().some((r) => r.body.includes('looped')), { timeout: 5000 }).toBe(true);
    } finally {
      stop();
    }
  });

  it('the loop looks at once when it starts, so a notice raised in its first seconds is new, not old', async () => {
    await save(full((s) => {
      s.methods = ['wechat'];
      s.interval = 0;
    }));
    const d = alertDispatcher(h.console.ctx);
    await raise('before start'); // older than the first look: never sent
    const stop = d.start(60_000); // no second look within this test: only the first one can set the cursor
    try {
      await expect.poll(() => getSetting(h.console.ctx.db, 'alert_state').cursor, { timeout: 3000 }).not.toBeNull();
      await raise('early');
      await d.poll();
      expect(robotCalls().some((r) => r.body.includes('early'))).toBe(true);
      expect(robotCalls().some((r) => r.body.includes('before start'))).toBe(false);
    } finally {
      stop();
    }
  });

  it('a failed delivery becomes an alert.delivery_failed event, readable in both languages', async () => {
    const d = alertDispatcher(h.console.ctx);
    await d.poll();
    peer.failNext('/cgi-bin/webhook/send', 200, { errcode: 93000, errmsg: 'invalid webhook url' });
    await raise('boom');
    await d.poll();
    await h.console.ctx.events.flush();
    const en = (await get('/log/system?period=today&keyword=WeCom', 'en-US')).body.data.list as { content: string; level: string }[];
    expect(en.find((r) => r.content.includes('could not be sent by WeCom'))?.content).toContain('errcode 93000 invalid webhook url');
    const zh = (await get('/log/system?period=today&keyword=WeCom', 'zh-CN')).body.data.list as { content: string }[];
    expect(zh.some((r) => r.content.includes('通过WeCom发送失败'))).toBe(true);
  });
});

describe('verification channels (sign-in codes)', () => {
  it('lists every configured recipient masked and sends a code to one of them only', async () => {
    await save(full((s) => {
      s.enabled = false;
      s.methods = [];
      s.sms.phones = ['13800138000', '+85291234567'];
    }));
    const channels = verificationChannels(h.console.ctx);
    expect(channels.list()).toEqual([
      { id: 'sms:0', channel: 'sms', masked: '138****8000' },
      { id: 'sms:1', channel: 'sms', masked: '+852****4567' },
      { id: 'wechat:0', channel: 'wechat', masked: 'WeCom' },
      { id: 'email:0', channel: 'email', masked: 'o***@example.com' },
      { id: 'email:1', channel: 'email', masked: 's***@example.com' },
    ]);
    const arrived = smtp.next();
    await channels.send('email:1', { subject: 'Sign-in code', body: 'Your code is 314159' });
    const mail = await arrived;
    expect(mail.to).toEqual(['sec@example.com']);
    expect(mail.text).toContain('314159');
    await channels.send('sms:1', { subject: 'Code', body: '314159' });
    expect(new URLSearchParams(peer.requests.at(-1)!.body).get('PhoneNumbers')).toBe('+85291234567');
    await expect(channels.send('sms:9', { subject: 'x', body: 'y' })).rejects.toThrow();
  });

  it('lists nothing when no method is configured', async () => {
    h.console.ctx.db.prepare("DELETE FROM settings WHERE key = 'alerts'").run();
    expect(verificationChannels(h.console.ctx).list()).toEqual([]);
  });
});
