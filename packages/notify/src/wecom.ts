import { DeliveryError, parseJson, type HttpReply, type HttpRequest } from './http.ts';

/**
 * WeCom (企业微信) group robot: POST {msgtype: 'text', text: {content}} to the webhook URL, which
 * carries the robot's key. The answer is {errcode, errmsg}; errcode 0 is success. WeCom caps a
 * text message at 2048 bytes.
 */
export const wecomMaxBytes = 2048;

export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(`${out}${ch}…`, 'utf8') > maxBytes) break;
    out += ch;
  }
  return `${out}…`;
}

export function buildWecomRequest(webhook: string, content: string): HttpRequest {
  return {
    method: 'POST',
    url: webhook,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ msgtype: 'text', text: { content: truncateUtf8(content, wecomMaxBytes) } }),
  };
}

export function checkWecomReply(reply: HttpReply): void {
  const body = parseJson(reply, 'WeCom') as { errcode?: unknown; errmsg?: unknown };
  if (reply.status === 200 && body.errcode === 0) return;
  throw new DeliveryError(`WeCom: errcode ${String(body.errcode ?? `HTTP ${reply.status}`)} ${String(body.errmsg ?? '')}`.trim());
}

/** The webhook URL split into its key (the secret) and the rest (shown to the administrator). */
export function splitWebhook(webhook: string): { base: string; key: string } {
  const url = new URL(webhook);
  const key = url.searchParams.get('key') ?? '';
  url.searchParams.delete('key');
  return { base: url.toString(), key };
}

export function joinWebhook(base: string, key: string): string {
  const url = new URL(base);
  if (key) url.searchParams.set('key', key);
  return url.toString();
}
