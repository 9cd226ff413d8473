import { createHash, createHmac } from 'node:crypto';
import { DeliveryError, parseJson, type HttpReply, type HttpRequest } from './http.ts';

/**
 * Tencent Cloud SMS (SendSms, API version 2021-01-11), signed with TC3-HMAC-SHA256 as Tencent
 * Cloud documents it:
 *   CanonicalRequest = Method \n / \n (query) \n content-type:…\nhost:…\n \n content-type;host \n hex(SHA256(body));
 *   StringToSign = TC3-HMAC-SHA256 \n timestamp \n date/service/tc3_request \n hex(SHA256(CanonicalRequest));
 *   key = HMAC(HMAC(HMAC('TC3' + SecretKey, date), service), 'tc3_request');
 *   Signature = hex(HMAC-SHA256(key, StringToSign)).
 */
export interface TencentSmsConfig {
  endpoint: string;
  region: string;
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
}

export const tencentContentType = 'application/json; charset=utf-8';

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  /** Seconds since the epoch. */
  timestamp: number;
  payload: string;
  contentType?: string;
}

export function tc3CanonicalRequest(input: Pick<Tc3Input, 'host' | 'payload' | 'contentType'>): string {
  return ['POST', '/', '', `content-type:${input.contentType ?? tencentContentType}\nhost:${input.host}\n`, 'content-type;host', sha256(input.payload)].join('\n');
}

export function tc3Sign(input: Tc3Input): { date: string; signature: string; authorization: string } {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256(tc3CanonicalRequest(input))].join('\n');
  const key = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return { date, signature, authorization: `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}` };
}

/** Numbers in E.164: mainland numbers get +86. */
export function e164(phone: string): string {
  return phone.startsWith('+') ? phone : `+86${phone}`;
}

export function buildTencentSendSms(config: TencentSmsConfig, phones: readonly string[], text: string, options: { now: number }): HttpRequest {
  const payload = JSON.stringify({
    PhoneNumberSet: phones.map(e164),
    SmsSdkAppId: config.sdkAppId,
    SignName: config.signName,
    TemplateId: config.templateId,
    TemplateParamSet: [text],
  });
  const timestamp = Math.floor(options.now / 1000);
  const { authorization } = tc3Sign({ secretId: config.secretId, secretKey: config.secretKey, service: 'sms', host: new URL(config.endpoint).host, timestamp, payload });
  return {
    method: 'POST',
    url: config.endpoint,
    headers: {
      Authorization: authorization,
      'Content-Type': tencentContentType,
      'X-TC-Action': 'SendSms',
      'X-TC-Timestamp': String(timestamp),
      'X-TC-Version': '2021-01-11',
      'X-TC-Region': config.region || 'ap-guangzhou',
    },
    body: payload,
  };
}

interface TencentReply {
  Response?: { Error?: { Code?: string; Message?: string }; SendStatusSet?: { Code?: string; Message?: string; PhoneNumber?: string }[] };
}

/** An API error, or any number whose status is not "Ok", fails the delivery. */
export function checkTencentReply(reply: HttpReply): void {
  const body = (parseJson(reply, 'Tencent Cloud SMS') as TencentReply).Response;
  if (!body) throw new DeliveryError(`Tencent Cloud SMS answered HTTP ${reply.status} without a Response`);
  if (body.Error) throw new DeliveryError(`Tencent Cloud SMS: ${body.Error.Code ?? ''} ${body.Error.Message ?? ''}`.trim());
  const failed = (body.SendStatusSet ?? []).find((s) => s.Code !== 'Ok');
  if (failed) throw new DeliveryError(`Tencent Cloud SMS: ${failed.Code ?? ''} ${failed.Message ?? ''}`.trim());
  if (reply.status !== 200) throw new DeliveryError(`Tencent Cloud SMS answered HTTP ${reply.status}`);
}
