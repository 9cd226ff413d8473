import { describe, expect, it } from 'vitest';
import {
  DeliveryError, buildGatewayRequest, buildMail, buildWecomRequest, checkAliyunReply, checkGatewayReply, checkTencentReply, checkWecomReply,
  joinWebhook, smsText, splitWebhook, truncateUtf8,
} from '../src/index.ts';

const reply = (status: number, body: unknown) => ({ status, text: typeof body === 'string' ? body : JSON.stringify(body) });

describe('generic SMS gateway', () => {
  const base = { url: 'https://sms.example.com/send', headerName: 'X-Token', headerValue: 't0k' };

  it('POST with a JSON template escapes the values as JSON', () => {
    const r = buildGatewayRequest({ ...base, method: 'POST', template: '{"to":"{phone}","msg":"{text}"}' }, '13800138000', 'say "hi"\nnow');
    expect(r).toEqual({
      method: 'POST', url: base.url, headers: { 'X-Token': 't0k', 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"to":"13800138000","msg":"say \\"hi\\"\\nnow"}',
    });
    expect(JSON.parse(r.body ?? '')).toEqual({ to: '13800138000', msg: 'say "hi"\nnow' });
  });

  it('POST with a form template URL-encodes; GET puts the template in the query', () => {
    expect(buildGatewayRequest({ ...base, method: 'POST', template: 'mobile={phone}&content={text}' }, '+85291234567', '告警 a&b').body)
      .toBe('mobile=%2B85291234567&content=%E5%91%8A%E8%AD%A6%20a%26b');
    const get = buildGatewayRequest({ ...base, url: 'https://sms.example.com/send?user=u', method: 'GET', template: 'to={phone}&text={text}', headerName: '', headerValue: '' }, '13800138000', 'a b');
    expect(get).toEqual({ method: 'GET', url: 'https://sms.example.com/send?user=u&to=13800138000&text=a%20b', headers: {} });
  });

  it('2xx is accepted; anything else fails with the status', () => {
    expect(() => checkGatewayReply(reply(204, ''), base.url)).not.toThrow();
    expect(() => checkGatewayReply(reply(500, 'down'), base.url)).toThrow(/HTTP 500: down/);
  });
});

describe('WeCom group robot', () => {
  it('posts {msgtype:text, text:{content}} and caps the content at 2048 bytes', () => {
    const r = buildWecomRequest('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc', '告警');
    expect(r.method).toBe('POST');
    expect(JSON.parse(r.body ?? '')).toEqual({ msgtype: 'text', text: { content: '告警' } });
    const long = JSON.parse(buildWecomRequest('https://x.test/?key=k', '字'.repeat(2000)).body ?? '') as { text: { content: string } };
    expect(Buffer.byteLength(long.text.content)).toBeLessThanOrEqual(2048);
    expect(long.text.content.endsWith('…')).toBe(true);
    expect(truncateUtf8('abc', 10)).toBe('abc');
  });

  it('errcode 0 is success; another errcode fails with its errmsg', () => {
    expect(() => checkWecomReply(reply(200, { errcode: 0, errmsg: 'ok' }))).not.toThrow();
    expect(() => checkWecomReply(reply(200, { errcode: 93000, errmsg: 'invalid webhook url' }))).toThrow('WeCom: errcode 93000 invalid webhook url');
    expect(() => checkWecomReply(reply(502, '<html>'))).toThrow(DeliveryError);
  });

  it('splits the key (the secret) off the webhook URL and puts it back', () => {
    expect(splitWebhook('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6&debug=1')).toEqual({
      base: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?debug=1', key: '693a91f6',
    });
    expect(joinWebhook('https://qyapi.weixin.qq.com/cgi-bin/webhook/send', 'k1')).toBe('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k1');
  });
});

describe('provider replies', () => {
  it('Alibaba Cloud: Code OK, else code and message', () => {
    expect(() => checkAliyunReply(reply(200, { Code: 'OK', Message: 'OK' }))).not.toThrow();
    expect(() => checkAliyunReply(reply(200, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控' }))).toThrow('Alibaba Cloud SMS: isv.BUSINESS_LIMIT_CONTROL 触发分钟级流控');
  });

  it('Tencent Cloud: an Error, or a number not Ok, fails', () => {
    expect(() => checkTencentReply(reply(200, { Response: { SendStatusSet: [{ Code: 'Ok' }] } }))).not.toThrow();
    expect(() => checkTencentReply(reply(200, { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad' } } }))).toThrow(/AuthFailure.SignatureFailure/);
    expect(() => checkTencentReply(reply(200, { Response: { SendStatusSet: [{ Code: 'Ok' }, { Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily' }] } }))).toThrow(/PhoneNumberDailyLimit/);
  });
});

describe('mail and SMS text', () => {
  it('maps the three securities onto the transport options', () => {
    const config = { host: 'smtp.example.com', port: 465, security: 'tls' as const, user: 'u', password: 'p', from: 'a@example.com', recipients: ['x@example.com', 'y@example.com'] };
    expect(buildMail(config, 'S', 'T').transport).toMatchObject({ secure: true, requireTLS: false, ignoreTLS: false, auth: { user: 'u', pass: 'p' } });
    expect(buildMail({ ...config, security: 'starttls' }, 'S', 'T').transport).toMatchObject({ secure: false, requireTLS: true, ignoreTLS: false });
    const plain = buildMail({ ...config, security: 'none', user: '' }, 'S', 'T');
    expect(plain.transport).toMatchObject({ secure: false, requireTLS: false, ignoreTLS: true });
    expect(plain.transport.auth).toBeUndefined();
    expect(plain.message).toEqual({ from: 'a@example.com', to: 'x@example.com, y@example.com', subject: 'S', text: 'T' });
  });

  it('an SMS carries the title and the start of the content', () => {
    expect(smsText('Attack', 'short')).toBe('Attack: short');
    const long = smsText('检测到攻击', '字'.repeat(100));
    expect([...long]).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
  });
});
