import { describe, expect, it } from 'vitest';
import { detectors } from '../src/detect/index.ts';
import { inspect, inspectPhases, inspectResponseHead } from '../src/inspect.ts';
import type { Detector, WafRequest } from '../src/types.ts';

/** What every browser sends; without them the request-level checks would record the request. */
const clientHeaders: [string, string][] = [['Host', 'example.test'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0'], ['Accept', '*/*']];

function get(target: string, headers: [string, string][] = []): WafRequest {
  return { method: 'GET', target, headers: [...clientHeaders, ...headers], clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: 0 };
}

function post(contentType: string, body: string): WafRequest {
  return { ...get('/submit'), method: 'POST', headers: [...clientHeaders, ['Content-Type', contentType]], body: new TextEncoder().encode(body) };
}

describe('inspect', () => {
  it('registers the SQL injection and XSS detectors', () => {
    expect(detectors.map((d) => d.kind)).toEqual(expect.arrayContaining(['sqli', 'xss']));
  });

  it('blocks a clear attack in loose mode and records where it was', () => {
    const decision = inspect(get("/items?id=1'%20or%20'1'='1"), { mode: 'loose', kinds: ['sqli'] });
    expect(decision).toMatchObject({ action: 'block', kind: 'sqli', rule: 'sqli.boolean', location: 'query', name: 'id' });
    if (decision.action === 'block') expect(decision.evidence).toContain("or '1'='1");
  });

  it('finds attacks in every part of the request, after their encodings', () => {
    const sqli = { mode: 'loose', kinds: ['sqli', 'xss'] } as const;
    expect(inspect(get('/a/1%20union%20select%201,2,3--'), sqli)).toMatchObject({ action: 'block', location: 'path' });
    expect(inspect(get('/', [['X-Forwarded-Host', '<script>alert(1)</script>']]), sqli)).toMatchObject({ action: 'block', location: 'header', kind: 'xss' });
    expect(inspect(get('/', [['Cookie', 'sid=1; pref=%253Csvg%2520onload%253Dalert(1)%253E']]), sqli)).toMatchObject({ action: 'block', location: 'cookie', name: 'pref' });
    expect(inspect(post('application/json', '{"user":{"bio":"\\u003cimg src=x onerror=alert(1)\\u003e"}}'), sqli)).toMatchObject({ action: 'block', location: 'body', name: 'user.bio' });
    const b64 = Buffer.from("' UNION SELECT password FROM users--").toString('base64').replace(/=+$/, '');
    expect(inspect(post('application/x-www-form-urlencoded', `q=${b64}`), sqli)).toMatchObject({ action: 'block', kind: 'sqli' });
    expect(inspect(post('text/xml', '<a><b>1 or 1=1--</b></a>'), sqli)).toMatchObject({ action: 'block', location: 'xml', name: 'b' });
  });

  it('strict blocks suspicious values that loose only records', () => {
    const request = get('/?cmt=Use%20alert(1)%20to%20test');
    expect(inspect(request, { mode: 'loose', kinds: ['xss'] })).toMatchObject({ action: 'record', rule: 'xss.js_call' });
    expect(inspect(request, { mode: 'strict', kinds: ['xss'] })).toMatchObject({ action: 'block', rule: 'xss.js_call' });
  });

  it('runs only the enabled kinds', () => {
    expect(inspect(get("/?q=' or 1=1--"), { mode: 'strict', kinds: ['xss'] })).toEqual({ action: 'pass' });
  });

  it('passes benign requests', () => {
    const request = get('/search?q=select+the+best+option+from+our+union&page=2', [['Cookie', 'sid=6f1c2a9e0b7d4c3a']]);
    expect(inspect(request, { mode: 'strict', kinds: ['sqli', 'xss'] })).toEqual({ action: 'pass' });
  });

  it('inspects phases separately (head before the body arrives)', () => {
    const request = post('application/x-www-form-urlencoded', 'c=<script>alert(1)</script>');
    expect(inspectPhases(request, { mode: 'loose' }, [1, 2])).toEqual({ action: 'pass' });
    expect(inspectPhases(request, { mode: 'loose' }, [3])).toMatchObject({ action: 'block', kind: 'xss' });
  });

  it('respects the input limit', () => {
    const target = '/?' + Array.from({ length: 50 }, (_, i) => `p${i}=x`).join('&') + "&id=' or 1=1--";
    expect(inspect(get(target), { mode: 'loose', kinds: ['sqli'], limits: { maxInputs: 20 } })).toEqual({ action: 'pass' });
    expect(inspect(get(target), { mode: 'loose', kinds: ['sqli'] })).toMatchObject({ action: 'block' });
  });

  it('survives a detector that throws', () => {
    const broken: Detector = () => {
      throw new Error('bug');
    };
    expect(inspect(get('/?a=1'), { mode: 'strict', detectors: [{ kind: 'sqli', detector: broken }] })).toEqual({ action: 'pass' });
  });

  it('has a phase 4 hook that passes for now', () => {
    expect(inspectResponseHead(get('/'), { status: 200, headers: [] }, { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});

describe('what the pipeline tells detectors', () => {
  it('passes the parameter name: a remote URL in an include-like parameter is inclusion, elsewhere a link', () => {
    const only = { mode: 'strict', kinds: ['file_inclusion'] } as const;
    // (`page=` alone is also every analytics beacon's page URL, issue 25: `file=` names an include only.)
    expect(inspect(get('/index.php?file=http://evil.example/x'), only)).toMatchObject({ action: 'block', kind: 'file_inclusion', name: 'file' });
    expect(inspect(get('/profile?homepage=http://evil.example/x'), only)).toEqual({ action: 'pass' });
  });

  it('reads multipart field names as browsers send them: backslashes raw, so a UNC path reaches the detectors whole', () => {
    const body = '--b1\r\nContent-Disposition: form-data; name="\\\\203.0.113.9\\c$\\windows\\win.ini"\r\n\r\nx\r\n--b1--\r\n';
    const decision = inspect(post('multipart/form-data; boundary=b1', body), { mode: 'loose', kinds: ['path_traversal'] });
    expect(decision).toMatchObject({ action: 'block', kind: 'path_traversal', location: 'body_name' });
    if (decision.action === 'block') expect(decision.name).toBe('\\\\203.0.113.9\\c$\\windows\\win.ini');
  });
});
