import { describe, expect, it } from 'vitest';
import { bodyInputs, headerInputs, requestInputs, requestLineInputs } from '../src/inputs.ts';
import type { WafRequest } from '../src/types.ts';

function req(partial: Partial<WafRequest> & { bodyText?: string }): WafRequest {
  const { bodyText, ...rest } = partial;
  return {
    method: 'GET',
    target: '/',
    headers: [],
    clientIp: '192.0.2.1',
    body: bodyText === undefined ? null : new TextEncoder().encode(bodyText),
    bodyTruncated: false,
    now: 0,
    ...rest,
  };
}

describe('request line', () => {
  it('gives the path, its segments (raw and decoded) and the query pairs', () => {
    const inputs = requestLineInputs(req({ target: '/shop/a%2Fb/item?q=red+shoes&id=1&id=2&flag' }));
    expect(inputs).toContainEqual({ location: 'path', name: '', value: '/shop/a%2Fb/item' });
    expect(inputs).toContainEqual({ location: 'path', name: 'segment', value: 'a%2Fb' });
    expect(inputs).toContainEqual({ location: 'path', name: 'segment', value: 'b' });
    expect(inputs).toContainEqual({ location: 'query', name: 'q', value: 'red+shoes' });
    expect(inputs.filter((i) => i.location === 'query' && i.name === 'id').map((i) => i.value)).toEqual(['1', '2']);
    expect(inputs).toContainEqual({ location: 'query_name', name: 'flag', value: 'flag' });
  });
  it('adds the whole query when an entity split a value into pieces', () => {
    const inputs = requestLineInputs(req({ target: '/?a=&lt;svg/onload&equals;alert(1)&gt;' }));
    expect(inputs).toContainEqual({ location: 'query', name: '', value: 'a=&lt;svg/onload&equals;alert(1)&gt;' });
  });
});

describe('headers', () => {
  it('gives headers and cookies one by one, skipping structural headers', () => {
    const inputs = headerInputs(req({ headers: [['User-Agent', 'curl/8'], ['Content-Length', '5'], ['Cookie', 'sid=abc; pref=x']] }));
    expect(inputs).toEqual([
      { location: 'header', name: 'User-Agent', value: 'curl/8' },
      { location: 'cookie_name', name: 'sid', value: 'sid' },
      { location: 'cookie', name: 'sid', value: 'abc' },
      { location: 'cookie_name', name: 'pref', value: 'pref' },
      { location: 'cookie', name: 'pref', value: 'x' },
    ]);
  });
});

describe('body', () => {
  it('reads urlencoded, JSON, multipart and XML bodies by their header', () => {
    expect(bodyInputs(req({ headers: [['Content-Type', 'application/x-www-form-urlencoded']], bodyText: 'a=1&b=x%20y' }))).toContainEqual({ location: 'body', name: 'b', value: 'x%20y' });
    expect(bodyInputs(req({ headers: [['content-type', 'application/json; charset=utf-8']], bodyText: '{"user":{"bio":"hi"}}' }))).toContainEqual({ location: 'body', name: 'user.bio', value: 'hi' });
    const multipart = '--b1\r\nContent-Disposition: form-data; name="f"; filename="a.php"\r\n\r\n<?php ?>\r\n--b1--\r\n';
    const parts = bodyInputs(req({ headers: [['Content-Type', 'multipart/form-data; boundary=b1']], bodyText: multipart }));
    expect(parts).toContainEqual({ location: 'file_name', name: 'f', value: 'a.php' });
    expect(parts).toContainEqual({ location: 'file_content', name: 'a.php', value: '<?php ?>' });
    const xml = bodyInputs(req({ headers: [['Content-Type', 'text/xml']], bodyText: '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a k="v">t</a>' }));
    expect(xml).toContainEqual({ location: 'xml', name: '!ENTITY', value: '<!ENTITY x SYSTEM "file:///etc/passwd">' });
    expect(xml).toContainEqual({ location: 'xml', name: 'a@k', value: 'v' });
  });
  it('sniffs the body when the header lies or is missing', () => {
    expect(bodyInputs(req({ headers: [['Content-Type', 'text/plain']], bodyText: '{"q":"x"}' }))).toContainEqual({ location: 'body', name: 'q', value: 'x' });
    expect(bodyInputs(req({ headers: [['Content-Type', 'application/json']], bodyText: 'q=1' }))).toContainEqual({ location: 'body', name: 'q', value: '1' });
    const multipart = '--zz\r\nContent-Disposition: form-data; name="m"\r\n\r\nv\r\n--zz--\r\n';
    expect(bodyInputs(req({ bodyText: multipart }))).toContainEqual({ location: 'body', name: 'm', value: 'v' });
  });
  it('falls back to the raw body, and reads at most maxBodyBytes', () => {
    expect(bodyInputs(req({ headers: [['Content-Type', 'application/json']], bodyText: "' or 1=1 --" }))).toEqual([{ location: 'raw_body', name: '', value: "' or 1=1 --" }]);
    const limited = bodyInputs(req({ bodyText: 'hello world' }), { maxInputs: 10, maxBodyBytes: 5, maxFileHead: 10, maxJsonDepth: 5 });
    expect(limited).toEqual([{ location: 'raw_body', name: '', value: 'hello' }]);
  });
});

describe('requestInputs', () => {
  it('caps the number of inputs', () => {
    const target = '/?' + Array.from({ length: 500 }, (_, i) => `p${i}=v`).join('&');
    expect(requestInputs(req({ target }), { maxInputs: 100, maxBodyBytes: 1000, maxFileHead: 10, maxJsonDepth: 5 })).toHaveLength(100);
  });
});
