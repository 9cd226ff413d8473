import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import PostalMime from 'postal-mime';

/**
 * Real peers on loopback for the notification senders: an SMTP server (smtp-server) whose mails
 * are parsed with postal-mime, and an HTTP server that plays Alibaba Cloud SMS, Tencent Cloud SMS,
 * a generic SMS gateway and the WeCom robot — checking signatures by recomputing them with the
 * shared secret (its own code, not the sender's) and checking the request shapes.
 */

export interface ReceivedMail {
  auth: { username: string; password: string } | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
  secure: boolean;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail that arrives. */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { user?: string; password?: string; secure?: boolean; key?: string; cert?: string; starttls?: boolean } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: ((m: ReceivedMail) => void)[] = [];
  const serverOptions: SMTPServerOptions = {
    secure: options.secure ?? false,
    ...(options.key ? { key: options.key, cert: options.cert } : {}),
    hideSTARTTLS: !options.starttls,
    allowInsecureAuth: true,
    authOptional: !options.user,
    disabledCommands: options.user ? [] : ['AUTH'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) callback(null, { user: { username: auth.username, password: auth.password ?? '' } });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void PostalMime.parse(Buffer.concat(chunks)).then((parsed) => {
          const mail: ReceivedMail = {
            auth: (session.user as { username: string; password: string } | undefined) ?? null,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            secure: session.secure,
          };
          mails.push(mail);
          waiters.splice(0).forEach((w) => w(mail));
          callback();
        }, (error: Error) => callback(error));
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    next(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived')), timeoutMs);
        waiters.push((m: ReceivedMail) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface PeerRequest {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  query: URLSearchParams;
  body: string;
  /** What the peer made of it: ok, or why it refused (bad signature, bad shape). */
  verdict: string;
}

export interface ProviderPeer {
  url: string;
  requests: PeerRequest[];
  /** Forces the next answers of a path (e.g. a WeCom errcode, an HTTP 500). */
  failNext(path: string, status: number, body: unknown): void;
  close(): Promise<void>;
}

export interface PeerSecrets {
  aliyun?: { accessKeyId: string; secret: string };
  tencent?: { secretId: string; secretKey: string };
  wecomKey?: string;
  gatewayHeader?: { name: string; value: string };
}

// Percent-encoding per RFC 3986 written independently of the sender (byte by byte over UTF-8).
function rfc3986(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function verifyAliyun(method: string, params: URLSearchParams, secrets: PeerSecrets['aliyun']): string {
  if (!secrets) return 'no aliyun secret';
  for (const name of ['AccessKeyId', 'Action', 'Format', 'PhoneNumbers', 'SignName', 'TemplateCode', 'TemplateParam', 'SignatureMethod', 'SignatureNonce', 'SignatureVersion', 'Timestamp', 'Version', 'Signature']) {
    if (!params.get(name)) return `missing ${name}`;
  }
  if (params.get('Action') !== 'SendSms' || params.get('Version') !== '2017-05-25' || params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0') return 'wrong fixed params';
  if (params.get('AccessKeyId') !== secrets.accessKeyId) return 'InvalidAccessKeyId.NotFound';
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.get('Timestamp') ?? '')) return 'bad Timestamp';
  try {
    JSON.parse(params.get('TemplateParam') ?? '');
  } catch {
    return 'TemplateParam is not JSON';
  }
  const pairs = [...params.entries()].filter(([k]) => k !== 'Signature').sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const canonical = pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
  const expected = createHmac('sha1', `${secrets.secret}&`).update(`${method}&%2F&${rfc3986(canonical)}`).digest('base64');
  return expected === params.get('Signature') ? 'ok' : 'SignatureDoesNotMatch';
}

function verifyTencent(headers: IncomingMessage['headers'], body: string, secrets: PeerSecrets['tencent']): string {
  if (!secrets) return 'no tencent secret';
  const auth = String(headers['authorization'] ?? '');
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'bad Authorization';
  const [, id, date, signature] = m;
  if (id !== secrets.secretId) return 'AuthFailure.SecretIdNotFound';
  if (headers['x-tc-action'] !== 'SendSms' || headers['x-tc-version'] !== '2021-01-11' || !headers['x-tc-region']) return 'bad X-TC headers';
  const timestamp = Number(headers['x-tc-timestamp']);
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return 'date does not match timestamp';
  let parsed: { PhoneNumberSet?: unknown; SmsSdkAppId?: unknown; SignName?: unknown; TemplateId?: unknown; TemplateParamSet?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 'body is not JSON';
  }
  if (!Array.isArray(parsed.PhoneNumberSet) || !parsed.PhoneNumberSet.every((p) => typeof p === 'string' && p.startsWith('+'))) return 'bad PhoneNumberSet';
  if (typeof parsed.SmsSdkAppId !== 'string' || typeof parsed.TemplateId !== 'string' || !Array.isArray(parsed.TemplateParamSet)) return 'bad body';
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\ncontent-type:${String(headers['content-type'])}\nhost:${String(headers['host'])}\n\ncontent-type;host\n${hash(body)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/sms/tc3_request\n${hash(canonical)}`;
  const h = (k: string | Buffer, d: string) => createHmac('sha256', k).update(d).digest();
  const key = h(h(h(`TC3${secrets.secretKey}`, date ?? ''), 'sms'), 'tc3_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? 'ok' : 'AuthFailure.SignatureFailure';
}

function verifyWecom(query: URLSearchParams, headers: IncomingMessage['headers'], body: string, key: string | undefined): string {
  if (!key || query.get('key') !== key) return 'invalid webhook url';
  if (!String(headers['content-type'] ?? '').startsWith('application/json')) return 'not json';
  try {
    const parsed = JSON.parse(body) as { msgtype?: unknown; text?: { content?: unknown } };
    if (parsed.msgtype !== 'text' || typeof parsed.text?.content !== 'string' || parsed.text.content === '') return 'bad shape';
    if (Object.keys(parsed).length !== 2) return 'unexpected fields';
  } catch {
    return 'not json';
  }
  return 'ok';
}

/** Paths: /aliyun, /tencent, /gateway, /cgi-bin/webhook/send (WeCom). */
export async function startProviderPeer(secrets: PeerSecrets): Promise<ProviderPeer> {
  const requests: PeerRequest[] = [];
  const forced = new Map<string, { status: number; body: unknown }[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = (status: number, payload: unknown, verdict: string) => {
        requests.push({ path: url.pathname, method: req.method ?? '', headers: req.headers, query: url.searchParams, body, verdict });
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
      };
      const force = forced.get(url.pathname)?.shift();
      if (force) return answer(force.status, force.body, 'forced');
      switch (url.pathname) {
        case '/aliyun': {
          const params = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
          const verdict = verifyAliyun(req.method ?? '', params, secrets.aliyun);
          return verdict === 'ok'
            ? answer(200, { Code: 'OK', Message: 'OK', RequestId: 'r1', BizId: 'b1' }, verdict)
            : answer(400, { Code: verdict, Message: `Specified signature does not match (${verdict})`, RequestId: 'r1' }, verdict);
        }
        case '/tencent': {
          const verdict = verifyTencent(req.headers, body, secrets.tencent);
          if (verdict !== 'ok') return answer(200, { Response: { Error: { Code: verdict, Message: 'The provided credentials could not be validated.' }, RequestId: 'r2' } }, verdict);
          const phones = (JSON.parse(body) as { PhoneNumberSet: string[] }).PhoneNumberSet;
          return answer(200, { Response: { SendStatusSet: phones.map((p) => ({ PhoneNumber: p, Code: 'Ok', Message: 'send success' })), RequestId: 'r2' } }, verdict);
        }
        case '/gateway': {
          const h = secrets.gatewayHeader;
          const verdict = h && req.headers[h.name.toLowerCase()] !== h.value ? 'bad token' : 'ok';
          return answer(verdict === 'ok' ? 200 : 401, { ok: verdict === 'ok' }, verdict);
        }
        case '/cgi-bin/webhook/send': {
          const verdict = verifyWecom(url.searchParams, req.headers, body, secrets.wecomKey);
          return verdict === 'ok'
            ? answer(200, { errcode: 0, errmsg: 'ok' }, verdict)
            : answer(200, { errcode: verdict === 'invalid webhook url' ? 93000 : 40008, errmsg: verdict }, verdict);
        }
        default:
          return answer(404, { error: 'not found' }, 'not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(path, status, body) {
      forced.set(path, [...(forced.get(path) ?? []), { status, body }]);
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
