import { inspectPhases } from '../packages/waf/src/inspect.ts';
import type { WafRequest } from '../packages/waf/src/types.ts';
const req = (type: string, body: string): WafRequest => ({ method: 'POST', target: '/', headers: [['Host', 'example.com'], ['Content-Type', type]], clientIp: '192.0.2.1', body: new TextEncoder().encode(body), bodyTruncated: false, now: 0 });
const pieces = ['a', ' ', '<', '<a', '<a ', '</', '"', "'", '\\', '%', '%2', '%25', '&#', '&#x', '\\u', '\\x', '(', ')', '((', '${', '{{', '{', '[', '/*', '*/', '--', '-- ', ';', '|', '`', '$(', '$', '.', '../', '..\\', '/', '//', 'a=', '&', '=', 'or ', 'select ', 'union ', 'and 1=1 ', 'script', 'on', 'onload=', 'javascript:', 'eval(', 'cat ', '/etc/passwd ', 'e', 'a(', 'a.', 'a.b(', '@', '#', '!', '^', '~', '+', '0x', '0', '1 ', "'a'", '"a"', 'a\n', '\n', '\r\n', '\t', '<!--', '<![CDATA[', '<?', '<%', '%>', '{%', '#{', '@{', 'T(', 'new ', 'Function', 'constructor', '__proto__', '[0]', 'a[', 'a]', ':', '::', 'char(', 'concat(', 'sleep(', 'if(', 'case ', 'when ', 'exec ', 'xp_', 'waitfor ', 'benchmark(', '\u00e9', '\u4e2d', '\ud83d\ude00', 'A'.repeat(7) + '=', '+/', 'zz ', 'x y', 'ab cd ef ', '1,', '1)', "1')", '")', "';", '";'];
const results: [number, string][] = [];
for (const piece of pieces) {
  const value = piece.repeat(Math.floor(250_000 / piece.length));
  for (const [shape, r] of [
    ['json', req('application/json', JSON.stringify({ v: value }))],
    ['form', req('application/x-www-form-urlencoded', 'v=' + encodeURIComponent(value))],
    ['xml', req('text/xml', `<r><v>${value.replace(/[<&]/g, ' ')}</v></r>`)],
    ['text', req('text/plain', value)],
  ] as [string, WafRequest][]) {
    const t = performance.now();
    inspectPhases(r, { mode: 'strict' }, [1, 2, 3]);
    results.push([performance.now() - t, `${shape} ${JSON.stringify(piece)}`]);
  }
}
results.sort((a, b) => b[0] - a[0]);
for (const [ms, name] of results.slice(0, 25)) console.log(ms.toFixed(0).padStart(6), name);
console.log('median', results[Math.floor(results.length / 2)]![0].toFixed(0));
