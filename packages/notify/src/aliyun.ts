import { createHmac, randomUUID } from 'node:crypto';
import { DeliveryError, parseJson, type HttpReply, type HttpRequest } from './http.ts';

/**
 * Alibaba Cloud SMS (Dysmsapi SendSms, API version 2017-05-25), signed with the RPC-style
 * signature v1.0 documented by Alibaba Cloud:
 *   CanonicalizedQueryString = the parameters (all but Signature) sorted by name, each
 *     percentEncode(name) + '=' + percentEncode(value), joined with '&';
 *   StringToSign = HTTPMethod + '&' + percentEncode('/') + '&' + percentEncode(CanonicalizedQueryString);
 *   Signature = Base64(HMAC-SHA1(AccessKeySecret + '&', StringToSign)).
 * percentEncode is RFC 3986: everything but A-Z a-z 0-9 - _ . ~ is %XX (UTF-8, upper-case hex).
 */
export interface AliyunSmsConfig {
  endpoint: string;
  region: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** The template variable the text fills. */
  templateParam: string;
}

export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function canonicalizedQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'Signature')
    // Byte order of the (ASCII) names, as the documentation asks; not locale order.
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k] ?? '')}`)
    .join('&');
}

export function aliyunStringToSign(method: 'GET' | 'POST', params: Record<string, string>): string {
  return `${method}&${percentEncode('/')}&${percentEncode(canonicalizedQuery(params))}`;
}

export function aliyunSignature(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  return createHmac('sha1', `${accessKeySecret}&`).update(aliyunStringToSign(method, params), 'utf8').digest('base64');
}

/** ISO 8601 UTC without milliseconds, as the API wants it (2017-07-12T02:42:19Z). */
export function aliyunTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The SendSms call as a form POST (the numbers stay out of URLs and access logs). */
export function buildAliyunSendSms(
  config: AliyunSmsConfig,
  phones: readonly string[],
  text: string,
  options: { now: number; nonce?: string },
): HttpRequest {
  const params: Record<string, string> = {
    AccessKeyId: config.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: phones.join(','),
    RegionId: config.region || 'cn-hangzhou',
    SignName: config.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: options.nonce ?? randomUUID(),
    SignatureVersion: '1.0',
    TemplateCode: config.templateCode,
    TemplateParam: JSON.stringify({ [config.templateParam]: text }),
    Timestamp: aliyunTimestamp(options.now),
    Version: '2017-05-25',
  };
  const signature = aliyunSignature('POST', params, config.accessKeySecret);
  return {
    method: 'POST',
    url: config.endpoint,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `${canonicalizedQuery(params)}&Signature=${percentEncode(signature)}`,
  };
}

/** Code "OK" is success; anything else is the provider's refusal, with its code and message. */
export function checkAliyunReply(reply: HttpReply): void {
  const body = parseJson(reply, 'Alibaba Cloud SMS') as { Code?: unknown; Message?: unknown };
  if (reply.status === 200 && body.Code === 'OK') return;
  throw new DeliveryError(`Alibaba Cloud SMS: ${String(body.Code ?? `HTTP ${reply.status}`)} ${String(body.Message ?? '')}`.trim());
}
