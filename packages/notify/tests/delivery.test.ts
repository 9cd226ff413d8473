import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliveryError, buildAliyunSendSms, buildGatewayRequest, buildTencentSendSms, buildWecomRequest, checkAliyunReply, checkGatewayReply,
  checkTencentReply, checkWecomReply, sendHttp, sendMail, type MailTransportFactory,
} from '../src/index.ts';
import { startProviderPeer, startSmtpSink, type ProviderPeer } from './peers.ts';

const createTransport: MailTransportFactory = (options) => nodemailer.createTransport(options);

describe('SMS and WeCom against a verifying HTTP peer on loopback', () => {
  let peer: ProviderPeer;
  beforeAll(async () => {
    peer = await startProviderPeer({
      aliyun: { accessKeyId: 'LTAI5t', secret: 'ali-secret' },
      tencent: { secretId: 'AKIDtest', secretKey: 'tc-secret' },
      wecomKey: 'robot-key',
      gatewayHeader: { name: 'X-Token', value: 'gw-token' },
    });
  });
  afterAll(() => peer.close());

  const aliyun = () => ({ endpoint: `${peer.url}/aliyun`, region: 'cn-hangzhou', accessKeyId: 'LTAI5t', accessKeySecret: 'ali-secret', signName: '安全告警', templateCode: 'SMS_1', templateParam: 'content' });

  it('Alibaba Cloud: the peer recomputes the signature and accepts it', async () => {
    const request = buildAliyunSendSms(aliyun(), ['13800138000'], '检测到攻击 (a*b) ~!', { now: Date.now() });
    checkAliyunReply(await sendHttp(request));
    const seen = peer.requests.at(-1);
    expect(seen?.verdict).toBe('ok');
    expect(new URLSearchParams(seen?.body).get('PhoneNumbers')).toBe('13800138000');
  });

  it('Alibaba Cloud: a wrong secret is refused by the peer and fails the delivery', async () => {
    const request = buildAliyunSendSms({ ...aliyun(), accessKeySecret: 'wrong' }, ['13800138000'], 'x', { now: Date.now() });
    const reply = await sendHttp(request);
    expect(peer.requests.at(-1)?.verdict).toBe('SignatureDoesNotMatch');
    expect(() => checkAliyunReply(reply)).toThrow(/SignatureDoesNotMatch/);
  });

  it('Tencent Cloud: the peer recomputes TC3 over the host it received and accepts it; a wrong key is refused', async () => {
    const config = { endpoint: `${peer.url}/tencent`, region: 'ap-guangzhou', secretId: 'AKIDtest', secretKey: 'tc-secret', sdkAppId: '1400000001', signName: '签名', templateId: '42' };
    checkTencentReply(await sendHttp(buildTencentSendSms(config, ['13800138000'], '告警', { now: Date.now() })));
    expect(peer.requests.at(-1)?.verdict).toBe('ok');
    const bad = await sendHttp(buildTencentSendSms({ ...config, secretKey: 'nope' }, ['13800138000'], '告警', { now: Date.now() }));
    expect(peer.requests.at(-1)?.verdict).toBe('AuthFailure.SignatureFailure');
    expect(() => checkTencentReply(bad)).toThrow(/AuthFailure.SignatureFailure/);
  });

  it('generic gateway: the header and the filled template arrive', async () => {
    const config = { url: `${peer.url}/gateway`, method: 'POST' as const, template: '{"to":"{phone}","text":"{text}"}', headerName: 'X-Token', headerValue: 'gw-token' };
    checkGatewayReply(await sendHttp(buildGatewayRequest(config, '13800138000', 'hi "there"')), config.url);
    expect(JSON.parse(peer.requests.at(-1)?.body ?? '')).toEqual({ to: '13800138000', text: 'hi "there"' });
    const bad = await sendHttp(buildGatewayRequest({ ...config, headerValue: 'x' }, '13800138000', 'x'));
    expect(() => checkGatewayReply(bad, config.url)).toThrow(/HTTP 401/);
  });

  it('WeCom: shape and key checked; a non-zero errcode fails with its errmsg', async () => {
    checkWecomReply(await sendHttp(buildWecomRequest(`${peer.url}/cgi-bin/webhook/send?key=robot-key`, '告警内容')));
    expect(peer.requests.at(-1)?.verdict).toBe('ok');
    const bad = await sendHttp(buildWecomRequest(`${peer.url}/cgi-bin/webhook/send?key=other`, 'x'));
    expect(() => checkWecomReply(bad)).toThrow('WeCom: errcode 93000 invalid webhook url');
  });

  it('an unreachable endpoint or a slow one is a DeliveryError naming the host only', async () => {
    const closed = await startProviderPeer({});
    const url = `${closed.url}/cgi-bin/webhook/send?key=very-secret`;
    await closed.close();
    const error = await sendHttp(buildWecomRequest(url, 'x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(String(error)).toMatch(/cannot reach 127\.0\.0\.1:\d+/);
    expect(String(error)).not.toContain('very-secret');
    const slow = await sendHttp(buildWecomRequest(url, 'x'), () => new Promise((_r, reject) => setTimeout(() => reject(Object.assign(new Error('t'), { name: 'TimeoutError' })), 5)), 50).catch((e: unknown) => e);
    expect(String(slow)).toMatch(/no answer from/);
  });
});

describe('e-mail against smtp-server on loopback', () => {
  const base = { host: '127.0.0.1', user: 'alerts', password: 'mail-pass', from: 'rampart@example.com', recipients: ['ops@example.com', 'sec@example.com'] };

  it('plain SMTP with AUTH: the server receives subject, body, recipients and the credentials', async () => {
    const sink = await startSmtpSink({ user: 'alerts', password: 'mail-pass' });
    try {
      const arrived = sink.next();
      await sendMail({ ...base, port: sink.port, security: 'none' }, '【Rampart】检测到攻击', 'Line one\n第二行', createTransport);
      const mail = await arrived;
      expect(mail).toMatchObject({ auth: { username: 'alerts', password: 'mail-pass' }, from: 'rampart@example.com', to: ['ops@example.com', 'sec@example.com'], subject: '【Rampart】检测到攻击', secure: false });
      expect(mail.text.trim()).toBe('Line one\n第二行');
    } finally {
      await sink.close();
    }
  });

  it('a wrong password fails with the server\'s refusal, without the password in the message', async () => {
    const sink = await startSmtpSink({ user: 'alerts', password: 'mail-pass' });
    try {
      const error = await sendMail({ ...base, password: 'wrong-pass', port: sink.port, security: 'none' }, 's', 't', createTransport).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeliveryError);
      expect(String(error)).toMatch(/Invalid username or password|Invalid login/);
      expect(String(error)).not.toContain('wrong-pass');
      expect(sink.mails).toHaveLength(0);
    } finally {
      await sink.close();
    }
  });

  describe('with TLS (a self-signed certificate made by openssl)', () => {
    let dir: string;
    let key: string;
    let cert: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'notify-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
      key = readFileSync(join(dir, 'k.pem'), 'utf8');
      cert = readFileSync(join(dir, 'c.pem'), 'utf8');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('STARTTLS upgrades the connection before AUTH; an untrusted certificate is refused', async () => {
      const sink = await startSmtpSink({ user: 'alerts', password: 'mail-pass', starttls: true, key, cert });
      try {
        const arrived = sink.next();
        await sendMail({ ...base, port: sink.port, security: 'starttls' }, 'starttls', 'body', createTransport, { ca: cert });
        expect((await arrived).secure).toBe(true);
        await expect(sendMail({ ...base, port: sink.port, security: 'starttls' }, 's', 't', createTransport)).rejects.toThrow(/certificate/i);
      } finally {
        await sink.close();
      }
    });

    it('SSL/TLS from the first byte', async () => {
      const sink = await startSmtpSink({ user: 'alerts', password: 'mail-pass', secure: true, key, cert });
      try {
        const arrived = sink.next();
        await sendMail({ ...base, port: sink.port, security: 'tls' }, 'tls', 'body', createTransport, { ca: cert });
        expect(await arrived).toMatchObject({ secure: true, subject: 'tls' });
      } finally {
        await sink.close();
      }
    });

    it('STARTTLS required but the server does not offer it: fails', async () => {
      const sink = await startSmtpSink({ user: 'alerts', password: 'mail-pass' });
      try {
        await expect(sendMail({ ...base, port: sink.port, security: 'starttls' }, 's', 't', createTransport)).rejects.toThrow(DeliveryError);
        expect(sink.mails).toHaveLength(0);
      } finally {
        await sink.close();
      }
    });
  });
});
