import { describe, expect, it } from 'vitest';
import {
  checkFileType,
  checkHeaderRules,
  checkHotlink,
  checkLimits,
  checkMethod,
  checkUploads,
  evaluateRequestPolicy,
  factsFromRequest,
  noTimedLists,
  type CompiledPolicy,
  type RequestFacts,
} from '../../src/policy/index.ts';
import { facts, noon, policyWith, withHeader } from './support.ts';

/** The request passes with the default policy and not with `policy`: the setting is what changed it. */
function changedBy(policy: CompiledPolicy, request: RequestFacts, check: (p: CompiledPolicy, f: RequestFacts) => unknown) {
  expect(check(policyWith(), request)).toBeNull();
  expect(evaluateRequestPolicy(policyWith(), request, noTimedLists)).toBeNull();
  const decision = check(policy, request);
  expect(decision).not.toBeNull();
  expect(evaluateRequestPolicy(policy, request, noTimedLists)).toEqual(decision);
  return decision;
}

describe('request tab', () => {
  it('denied methods (any case as sent)', () => {
    const policy = policyWith((s) => void (s.request.denied_methods = ['PUT', 'DELETE']));
    expect(changedBy(policy, facts({ method: 'put' }), checkMethod)).toMatchObject({ action: 'block', rule: 'request.method' });
    expect(checkMethod(policy, facts({ method: 'GET' }))).toBeNull();
    // The defaults refuse TRACE and CONNECT.
    expect(checkMethod(policyWith(), facts({ method: 'TRACE' }))).toMatchObject({ rule: 'request.method' });
  });

  it('URL length: more than the limit is refused, the limit itself passes, 0 is unlimited', () => {
    const target = `/${'a'.repeat(99)}`; // 100 bytes
    const at = policyWith((s) => void (s.request.limits.url_bytes = 100));
    const below = policyWith((s) => void (s.request.limits.url_bytes = 99));
    expect(checkLimits(at, facts({ target }))).toBeNull();
    expect(changedBy(below, facts({ target }), checkLimits)).toMatchObject({ rule: 'request.url_length' });
    expect(checkLimits(policyWith((s) => void (s.request.limits.url_bytes = 0)), facts({ target: `/${'a'.repeat(100_000)}` }))).toBeNull();
  });

  it('header length counts every line as on the wire', () => {
    const request = facts({ headers: [['Host', 'h'], ['X', 'y'.repeat(50)]] }); // 4+1+4 + 1+50+4 = 64
    expect(checkLimits(policyWith((s) => void (s.request.limits.header_bytes = 64)), request)).toBeNull();
    expect(changedBy(policyWith((s) => void (s.request.limits.header_bytes = 63)), request, checkLimits)).toMatchObject({ rule: 'request.header_length' });
  });

  it('POST size', () => {
    const request = facts({ method: 'POST', bodyBytes: 2049 });
    expect(checkLimits(policyWith((s) => void (s.request.limits.post_bytes = 2049)), request)).toBeNull();
    expect(changedBy(policyWith((s) => void (s.request.limits.post_bytes = 2048)), request, checkLimits)).toMatchObject({ rule: 'request.post_size' });
  });

  it('header limit rules: a named header, or * for each header; disabled rules do nothing', () => {
    const request = withHeader(facts(), 'Cookie', 'a'.repeat(300));
    const rule = (header: string, max: number, enabled = true) => policyWith((s) => void (s.request.header_rules = [{ id: 1, enabled, header, max_bytes: max }]));
    expect(changedBy(rule('cookie', 299), request, checkHeaderRules)).toMatchObject({ rule: 'request.header_rule', evidence: 'cookie' });
    expect(checkHeaderRules(rule('cookie', 300), request)).toBeNull();
    expect(checkHeaderRules(rule('user-agent', 10), withHeader(facts(), 'User-Agent', 'short'))).toBeNull();
    expect(checkHeaderRules(rule('*', 100), request)).toMatchObject({ evidence: 'cookie' });
    expect(checkHeaderRules(rule('*', 100, false), request)).toBeNull();
  });

  it('upload types: list with the empty token, blank (no upload), * (all)', () => {
    const upload = (types: string) => policyWith((s) => void (s.request.upload = { enabled: true, types }));
    const shell = facts({ method: 'POST', uploads: ['photo.jpg', 'shell.php'] });
    expect(changedBy(upload('jpg,png'), shell, checkUploads)).toMatchObject({ rule: 'request.upload_type', evidence: 'shell.php' });
    expect(checkUploads(upload('jpg,png'), facts({ uploads: ['A.JPG', 'b.png'] }))).toBeNull();
    expect(checkUploads(upload('jpg,png'), facts({ uploads: ['README'] }))).not.toBeNull();
    expect(checkUploads(upload('jpg,png,'), facts({ uploads: ['README'] }))).toBeNull();
    expect(checkUploads(upload(''), facts({ uploads: ['a.jpg'] }))).not.toBeNull();
    expect(checkUploads(upload(''), facts({ method: 'POST', uploads: [] }))).toBeNull();
    expect(checkUploads(upload('*'), shell)).toBeNull();
    expect(checkUploads(upload('jpg'), facts({ uploads: ['..\\..\\x.php'] }))).not.toBeNull();
  });

  it('file types: deny mode and allow mode, root only or all folders', () => {
    const rule = (mode: 'allow' | 'deny', scope: 'root' | 'all', extensions: string[]) =>
      policyWith((s) => void (s.request.file_types = { enabled: true, mode, scope, extensions }));
    expect(changedBy(rule('deny', 'all', ['bak']), facts({ path: '/backup/db.BAK' }), checkFileType)).toMatchObject({ rule: 'request.file_type', evidence: 'bak' });
    expect(checkFileType(rule('deny', 'root', ['bak']), facts({ path: '/backup/db.bak' }))).toBeNull();
    expect(checkFileType(rule('deny', 'root', ['bak']), facts({ path: '/db.bak' }))).not.toBeNull();
    const allow = rule('allow', 'all', ['html', 'css', 'js', 'php']);
    expect(checkFileType(allow, facts({ path: '/a/index.php' }))).toBeNull();
    expect(checkFileType(allow, facts({ path: '/a/dump.sql' }))).toMatchObject({ evidence: 'sql' });
    expect(checkFileType(allow, facts({ path: '/api/users' }))).toBeNull(); // routes have no extension
  });
});

describe('protect tab: hotlinking', () => {
  const hotlink = (empty: 'allow' | 'deny') =>
    policyWith((s) => void (s.protect.hotlink = { enabled: true, extensions: ['jpg', 'png'], referers: ['partner.example', '*.cdn.example'], empty_referer: empty }));
  const image = facts({ path: '/img/logo.png', target: '/img/logo.png' });

  it('a foreign referer is refused; the site itself and the whitelist are not', () => {
    expect(changedBy(hotlink('allow'), withHeader(image, 'Referer', 'https://thief.example/page'), checkHotlink)).toMatchObject({ rule: 'protect.hotlink' });
    expect(checkHotlink(hotlink('allow'), withHeader(image, 'Referer', 'https://www.example.com/page'))).toBeNull();
    expect(checkHotlink(hotlink('allow'), withHeader(image, 'Referer', 'https://blog.partner.example/'))).toBeNull();
    expect(checkHotlink(hotlink('allow'), withHeader(image, 'Referer', 'https://img.cdn.example/'))).toBeNull();
    expect(checkHotlink(hotlink('allow'), withHeader(image, 'Referer', 'https://cdn.example/'))).not.toBeNull();
    expect(checkHotlink(hotlink('allow'), withHeader(image, 'Referer', 'https://partner.example.evil.example/'))).not.toBeNull();
    expect(checkHotlink(hotlink('allow'), withHeader({ ...image, path: '/page.html' }, 'Referer', 'https://thief.example/'))).toBeNull();
  });

  it('an empty referer follows its setting', () => {
    expect(checkHotlink(hotlink('allow'), image)).toBeNull();
    expect(checkHotlink(hotlink('deny'), image)).toMatchObject({ rule: 'protect.hotlink' });
  });
});

describe('sql and attack tabs: which detectors run', () => {
  it('each switch removes its kind; file inclusion needs local or remote', () => {
    expect([...policyWith().attackKinds]).toContain('xss');
    expect(policyWith((s) => void (s.sql.sqli = false)).attackKinds.has('sqli')).toBe(false);
    expect(policyWith((s) => void (s.attack.kinds.xss = false)).attackKinds.has('xss')).toBe(false);
    expect(policyWith((s) => void (s.attack.file_inclusion = { local: false, remote: true })).attackKinds.has('file_inclusion')).toBe(true);
    expect(policyWith((s) => void (s.attack.file_inclusion = { local: false, remote: false })).attackKinds.has('file_inclusion')).toBe(false);
  });
});

describe('factsFromRequest', () => {
  it('splits and decodes the target, reads Content-Length, never throws on bad escapes', () => {
    const f = factsFromRequest(
      { method: 'POST', target: '/a%20b/%E4%BD%A0?q=%27or%201=1&bad=%E4', headers: [['Content-Length', '12']], clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: noon },
      { areas: [], minuteOfDay: 0 },
    );
    expect(f.path).toBe('/a b/你');
    expect(f.query).toBe("q='or 1=1&bad=%E4");
    expect(f.bodyBytes).toBe(12);
  });

  it('reads the query as a form for the keyword libraries: + is a space, %2B a plus; the lists keep + as sent', () => {
    const f = factsFromRequest(
      { method: 'GET', target: '/s+p?q=free+money&c=c%2B%2B&bad=%E4+x', headers: [], clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: noon },
      { areas: [], minuteOfDay: 0 },
    );
    expect(f.formQuery).toBe('q=free money&c=c++&bad=%E4 x');
    expect(f.query).toBe('q=free+money&c=c++&bad=%E4+x');
    expect(f.path).toBe('/s+p'); // a path has no form encoding
  });
});
