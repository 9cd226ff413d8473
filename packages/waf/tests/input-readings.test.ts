import { describe, expect, it } from 'vitest';
import { decodedVariants } from '../src/decode/variants.ts';
import { inspect } from '../src/inspect.ts';
import { bodyInputs, requestLineInputs } from '../src/inputs.ts';
import type { BlockMode, WafRequest } from '../src/types.ts';

/**
 * How the engine reads inputs before its detectors run: a payload whose own `=` split it into a
 * parameter name and value is seen whole once more, a value form-encoded twice reads its second
 * `+` as a space, and a header holding form-encoded text gets the form reading too. Each reading
 * is checked end to end (the real detectors decide) with attacks and with the legitimate
 * requests that come closest: form field names, JSON, cookies and tokens with `+`, URLs in headers.
 */
const clientHeaders: [string, string][] = [['Host', 'example.test'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0'], ['Accept', '*/*']];

function get(target: string, headers: [string, string][] = []): WafRequest {
  return { method: 'GET', target, headers: [...clientHeaders, ...headers], clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: 0 };
}

function post(contentType: string, body: string): WafRequest {
  return { ...get('/account'), method: 'POST', headers: [...clientHeaders, ['Content-Type', contentType]], body: new TextEncoder().encode(body) };
}

const form = (body: string): WafRequest => post('application/x-www-form-urlencoded', body);
const modes: BlockMode[] = ['loose', 'strict'];

describe('a pair whose name carries a payload', () => {
  it('is inspected whole, in the query and in a form body', () => {
    const raw = '%27guest%27%2C+%272%27=%272%27';
    expect(requestLineInputs(get(`/list?${raw}`))).toContainEqual({ location: 'query', name: '', value: raw });
    expect(bodyInputs(form(`page=2&${raw}`))).toContainEqual({ location: 'body', name: '', value: raw });
  });
  it('is inspected whole even when padding pairs fill the input budget', () => {
    const raw = '%27guest%27%2C+%272%27=%272%27';
    const padded = `/list?a=1&${raw}&${'pad=1&'.repeat(1500)}z=1`;
    expect(requestLineInputs(get(padded))).toContainEqual({ location: 'query', name: '', value: raw });
  });
  it('lets the SQL detector see a comparison that spans the split', () => {
    expect(inspect(form('%27guest%27%2C+%272%27=%272%27'), { mode: 'strict' })).toMatchObject({ action: 'block', kind: 'sqli', location: 'body', name: '' });
    expect(inspect(get('/list?%27guest%27%2C+%272%27=%272%27'), { mode: 'strict' })).toMatchObject({ action: 'block', kind: 'sqli', location: 'query' });
  });
  it('is not added for the names real forms and binders write', () => {
    const body = 'user%5Bname%5D=Ann+O%27Neil&Items%5B0%5D.Name=Pen&filter.price-max=10&_method=PUT&q=a%3Db';
    expect(bodyInputs(form(body)).filter((i) => i.name === '')).toEqual([]);
    expect(requestLineInputs(get(`/search?${body}`)).filter((i) => i.location === 'query' && i.name === '')).toEqual([]);
  });
  it('passes hand-made forms whose names hold blanks, in both modes', () => {
    const request = form('First+Name=Ann&Last+Name=O%27Neil&Comment=It%27s+fine%2C+1%3D1+in+maths+%28see+p.+2%29');
    expect(bodyInputs(request)).toContainEqual({ location: 'body', name: '', value: 'Last+Name=O%27Neil' });
    for (const mode of modes) expect(inspect(request, { mode }).action).toBe('pass');
  });
});

describe('a value form-encoded twice', () => {
  const twice = 'q=SELECT%2B%2560name%2560%2BFROM%2B%2560users%2560%2BWHERE%2B%2560id%2560%2B%253D%2B%25271%2527%2BUNION%2BSELECT%2Bpassword%2BFROM%2Busers';
  it('reads the `+` of its second layer as a space', () => {
    expect(decodedVariants('SELECT%2B%2560name%2560%2BFROM%2B%2560users%2560', 'body')).toContain('SELECT `name` FROM `users`');
    expect(inspect(form(twice), { mode: 'loose' })).toMatchObject({ action: 'block', kind: 'sqli', name: 'q' });
  });
  it('keeps a `+` that was encoded as a plus (`%252B`) and gives one reading per layer', () => {
    expect(decodedVariants('c%252B%252B%2Bvector', 'query')).toEqual(['c%252B%252B%2Bvector', 'c%2B%2B+vector', 'c++ vector']);
  });
  it('passes double-encoded redirects and prices in both modes', () => {
    const request = form('redirect=%252Fsearch%253Fq%253Dred%252Bshoes%2526page%253D2&note=50%2525+off+%28today%29');
    for (const mode of modes) expect(inspect(request, { mode }).action).toBe('pass');
  });
});

describe('a header holding form-encoded text', () => {
  it('gets the form reading as one more, the plain percent-decoding kept', () => {
    const variants = decodedVariants('42%29+AND+7%3D7', 'header');
    expect(variants).toContain('42)+AND+7=7');
    expect(variants).toContain('42) AND 7=7');
  });
  it('lets the SQL detector parse a payload sent that way', () => {
    const filter = '7%27%29+OR+JSON_EXTRACT%28%27%7B%22k%22%3A+1%7D%27%2C+%27%24.k%27%29+%3D+1+AND+%28%27ab%27+LIKE+%27ab';
    for (const mode of modes) expect(inspect(get('/', [['X-Api-Filter', filter]]), { mode })).toMatchObject({ action: 'block', kind: 'sqli', location: 'header' });
    expect(inspect(get('/', [['X-Api-Filter', '42%29+AND+7%3D7++AND+JSON_DEPTH%28%27%7B%7D%27%29+%21%3D+3']]), { mode: 'loose' })).toMatchObject({ action: 'block', kind: 'sqli' });
  });
  it('gives no reading to base64, tokens or text with blanks', () => {
    expect(decodedVariants('YWJj+ZGVm/Z2hp==', 'header')).toEqual(['YWJj+ZGVm/Z2hp==']);
    expect(decodedVariants('a+b %28c%29', 'header')).not.toContain('a b (c)');
  });
  it('passes URLs, tokens and cookies with `+` in both modes', () => {
    const headers: [string, string][] = [
      ['Referer', 'https://shop.example/search?q=c%2B%2B+vector+erase&sort=price%3Aasc'],
      ['X-Return-To', '/search?q=Ben+%26+Jerry%27s+ice+cream+%28pint%29'],
      ['X-Search', 'select+a+plan+%28or+not%29'],
      ['Authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.ab+cd/ef%3D'],
      ['Cookie', 'session=YWJj+ZGVm/Z2hp%3D%3D; pref=lang%3Den+US'],
    ];
    for (const mode of modes) expect(inspect(get('/', headers), { mode }).action).toBe('pass');
  });
  it('passes JSON whose strings hold `+` and `=`', () => {
    const request = post('application/json', '{"q":"a+b=c","note":"1+1=2 (math)","token":"YWJj+ZGVm%3D"}');
    for (const mode of modes) expect(inspect(request, { mode }).action).toBe('pass');
  });
});
