/**
 * The same gotestwaf classes, but end to end through the engine's pipeline (request building,
 * body parsing, decoding variants) with only W2's detectors enabled: what the encoders
 * (Base64Flat, URL, JSUnicode…) and placeholders do to detection. Printed per file; the floor is
 * the measured figure minus a small margin.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectors } from '../../src/detect/index.ts';
import { inspect } from '../../src/inspect.ts';
import type { AttackKind } from '../../src/types.ts';
import { corporaRoot } from '../support/corpora.ts';
import { gotestwafRequests, loadGotestwafSet } from '../support/gotestwaf.ts';

const w2Kinds = new Set<AttackKind>([
  'cmdi', 'path_traversal', 'file_inclusion', 'ssti', 'xxe', 'java_deserialization', 'jndi', 'webshell_upload', 'crlf', 'ssi',
  'ldap', 'nosql', 'mail_injection',
]);
/** gotestwaf files of the classes W2 owns (SQLi, XSS and scanner user agents are W1's). */
const w2Files = /^(?:crlf|ldap-injection|mail-injection|nosql-injection|path-traversal|rce.*|shell-injection|ss-include|sst-injection|xml-injection|community-(?:\d+kb-rce|lfi.*|rce.*|xxe))\.ya?ml$/;

const root = corporaRoot();

describe.skipIf(root === null)('gotestwaf through the pipeline (W2 detectors only)', () => {
  if (root === null) console.warn('gotestwaf corpus not found: skipped');
  it('blocks the attack classes W2 owns', () => {
    const dir = join(root!, 'waf/gotestwaf/testcases');
    const cases = [...loadGotestwafSet(dir, 'owasp'), ...loadGotestwafSet(dir, 'community')].filter((c) => w2Files.test(c.file));
    const entries = detectors.filter((d) => w2Kinds.has(d.kind));
    // Several detectors may share a kind (cmdi: shell, PHP, server-side JavaScript).
    expect(new Set(entries.map((e) => e.kind)).size).toBe(w2Kinds.size);
    const byFile = new Map<string, { n: number; loose: number; strict: number }>();
    const missed: string[] = [];
    for (const r of gotestwafRequests(cases)) {
      const s = byFile.get(r.file) ?? { n: 0, loose: 0, strict: 0 };
      s.n++;
      if (inspect(r.request, { mode: 'loose', detectors: entries }).action === 'block') s.loose++;
      else missed.push(`${r.file} ${r.encoder}/${r.placeholder}: ${r.payload.slice(0, 60).replace(/\s+/g, ' ')}`);
      if (inspect(r.request, { mode: 'strict', detectors: entries }).action === 'block') s.strict++;
      byFile.set(r.file, s);
    }
    let n = 0;
    let loose = 0;
    let strict = 0;
    const lines: string[] = [];
    for (const [file, s] of [...byFile].sort()) {
      n += s.n;
      loose += s.loose;
      strict += s.strict;
      lines.push(`${file.padEnd(32)} loose ${s.loose}/${s.n}  strict ${s.strict}/${s.n}`);
    }
    console.log(
      `[gotestwaf pipeline] total loose ${loose}/${n} (${((100 * loose) / n).toFixed(1)}%)  strict ${strict}/${n} (${((100 * strict) / n).toFixed(1)}%)\n  ` +
        lines.join('\n  ') +
        (missed.length ? `\n  missed (loose):\n    ${missed.join('\n    ')}` : ''),
    );
    expect(loose / n).toBeGreaterThanOrEqual(0.97);
    expect(strict / n).toBeGreaterThanOrEqual(0.97);
  });
});
