/**
 * Runs W2's detectors directly on gotestwaf's payloads, per attack class, and on its false-positive
 * texts. Payloads are taken as the application sees them after the transport decoding the gateway
 * does (gotestwaf's encoders are undone by the engine core, whose job is tested elsewhere): a Plain
 * payload placed in the URL is percent-decoded once, as a server decodes a path or query.
 * Prints per-class figures; the floors are the measured figures minus a small margin.
 */
import { describe, expect, it } from 'vitest';
import type { Detector, DetectorHit, InputLocation } from '../../src/types.ts';
import { detectCmdi } from '../../src/detect/cmdi/index.ts';
import { detectCrlf } from '../../src/detect/crlf/index.ts';
import { detectFileInclusion } from '../../src/detect/inclusion/index.ts';
import { detectJavaDeserialization, detectJndi } from '../../src/detect/java/index.ts';
import { detectLdap } from '../../src/detect/ldap/index.ts';
import { detectMailInjection } from '../../src/detect/mail/index.ts';
import { detectNosql } from '../../src/detect/nosql/index.ts';
import { detectSsi } from '../../src/detect/ssi/index.ts';
import { detectSsti } from '../../src/detect/ssti/index.ts';
import { detectPathTraversal } from '../../src/detect/traversal/index.ts';
import { detectWebshell } from '../../src/detect/webshell/index.ts';
import { detectXxe } from '../../src/detect/xxe/index.ts';
import { join } from 'node:path';
import { corporaRoot } from '../support/corpora.ts';
import { loadGotestwafSet, type GotestwafCase } from '../support/gotestwaf.ts';

const allDetectors: Record<string, Detector> = {
  cmdi: detectCmdi,
  traversal: detectPathTraversal,
  inclusion: detectFileInclusion,
  ssti: detectSsti,
  xxe: detectXxe,
  java: detectJavaDeserialization,
  jndi: detectJndi,
  webshell: detectWebshell,
  crlf: detectCrlf,
  ssi: detectSsi,
  ldap: detectLdap,
  nosql: detectNosql,
  mail: detectMailInjection,
};

/** gotestwaf file name → the class it belongs to and the detectors that own that class. */
const classes: readonly { cls: string; files: RegExp; detectors: string[]; floorLoose: number; floorStrict: number }[] = [
  { cls: 'rce', files: /^(?:owasp\/rce|community\/community-(?:\d+kb-)?rce)/, detectors: ['cmdi'], floorLoose: 0.95, floorStrict: 0.95 },
  { cls: 'shell-injection', files: /^owasp\/shell-injection$/, detectors: ['cmdi'], floorLoose: 0.93, floorStrict: 0.93 },
  { cls: 'path-traversal', files: /^(?:owasp\/path-traversal|community\/community-lfi)/, detectors: ['traversal', 'inclusion'], floorLoose: 0.95, floorStrict: 0.95 },
  { cls: 'sst-injection', files: /^owasp\/sst-injection$/, detectors: ['ssti'], floorLoose: 0.9, floorStrict: 0.9 },
  { cls: 'xxe', files: /^(?:owasp\/xml-injection|community\/community-xxe)$/, detectors: ['xxe'], floorLoose: 0.75, floorStrict: 0.88 },
  { cls: 'crlf', files: /^owasp\/crlf$/, detectors: ['crlf'], floorLoose: 0.85, floorStrict: 0.85 },
  { cls: 'ss-include', files: /^owasp\/ss-include$/, detectors: ['ssi'], floorLoose: 0.9, floorStrict: 0.9 },
  { cls: 'ldap-injection', files: /^owasp\/ldap-injection$/, detectors: ['ldap'], floorLoose: 0.9, floorStrict: 0.9 },
  { cls: 'nosql-injection', files: /^owasp\/nosql-injection$/, detectors: ['nosql'], floorLoose: 0.95, floorStrict: 0.95 },
  { cls: 'mail-injection', files: /^owasp\/mail-injection$/, detectors: ['mail'], floorLoose: 0.9, floorStrict: 0.9 },
];

const placeholderLocation: Record<string, InputLocation> = {
  URLPath: 'path',
  URLParam: 'query',
  Header: 'header',
  UserAgent: 'header',
  HTMLForm: 'body',
  HTMLMultipartForm: 'body',
  JSONRequest: 'body',
  JSONBody: 'raw_body',
  XMLBody: 'xml',
  SOAPBody: 'xml',
  RawRequest: 'body',
};

/** One percent-decoding as a server applies to a URL (bytes read as UTF-8, malformed bytes kept as latin-1). */
function percentDecodeOnce(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = Uint8Array.from(run.slice(1).split('%').map((h) => parseInt(h, 16)));
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return String.fromCharCode(...bytes);
    }
  });
}

function applicationView(payload: string, encoder: string, location: InputLocation): string {
  return encoder === 'Plain' && (location === 'path' || location === 'query') ? percentDecodeOnce(payload) : payload;
}

function firstHit(names: string[], value: string, location: InputLocation): DetectorHit | null {
  let best: DetectorHit | null = null;
  for (const n of names) {
    const h = allDetectors[n]!(value, location);
    if (h?.severity === 2) return h;
    best ??= h;
  }
  return best;
}

const root = corporaRoot();
const dir = root === null ? null : join(root, 'waf/gotestwaf/testcases');

/** 'owasp/shell-injection' for owasp/shell-injection.yml */
function caseId(c: GotestwafCase): string {
  return `${c.set}/${c.file.replace(/\.ya?ml$/, '')}`;
}

function placeholderName(p: GotestwafCase['placeholders'][number]): string {
  return typeof p === 'string' ? p : p.name;
}

describe.skipIf(dir === null)('gotestwaf corpus (W2 detectors)', () => {
  if (dir === null) console.warn('gotestwaf corpus not found (RAMPART_CORPORA, ../shared/corpora, /work/shared/corpora): skipped');
  const cases: GotestwafCase[] = dir ? [...loadGotestwafSet(dir, 'owasp'), ...loadGotestwafSet(dir, 'community')] : [];

  for (const c of classes) {
    it(`detects ${c.cls}`, () => {
      const files = cases.filter((k) => c.files.test(caseId(k)));
      expect(files.length).toBeGreaterThan(0);
      let total = 0;
      let loose = 0;
      let strict = 0;
      const missed: string[] = [];
      for (const file of files) {
        const encoder = file.encoders.includes('Plain') ? 'Plain' : (file.encoders[0] ?? 'Plain');
        for (const payload of file.payloads) {
          for (const placeholder of file.placeholders.map(placeholderName)) {
            const location = placeholderLocation[placeholder] ?? 'body';
            const value = applicationView(payload, encoder, location);
            const h = firstHit(c.detectors, value, location);
            total++;
            if (h) strict++;
            if (h?.severity === 2) loose++;
            else missed.push(`${placeholder}(${h ? 'sev1' : 'none'}): ${payload.slice(0, 70).replace(/\s+/g, ' ')}`);
          }
        }
      }
      console.log(
        `[gotestwaf] ${c.cls.padEnd(16)} ${c.detectors.join('+').padEnd(18)} loose ${loose}/${total} (${pct(loose, total)})  strict ${strict}/${total} (${pct(strict, total)})` +
          (missed.length ? `\n    missed (loose): ${[...new Set(missed)].slice(0, 6).join('\n                    ')}` : ''),
      );
      expect(loose / total).toBeGreaterThanOrEqual(c.floorLoose);
      expect(strict / total).toBeGreaterThanOrEqual(c.floorStrict);
    });
  }

  it('passes the false-positive texts', () => {
    const texts = loadGotestwafSet(dir!, 'false-pos');
    let total = 0;
    let loose = 0;
    let strict = 0;
    const flagged: string[] = [];
    for (const file of texts) {
      for (const payload of file.payloads) {
        for (const placeholder of file.placeholders.map(placeholderName)) {
          const location = placeholderLocation[placeholder] ?? 'body';
          for (const [name, detector] of Object.entries(allDetectors)) {
            const h = detector(payload, location);
            if (!h) continue;
            flagged.push(`${name} sev${h.severity} ${location}: ${payload.slice(0, 60)}`);
          }
          total++;
          const hits = Object.values(allDetectors).map((d) => d(payload, location)).filter((h) => h !== null);
          if (hits.length) strict++;
          if (hits.some((h) => h.severity === 2)) loose++;
        }
      }
    }
    console.log(
      `[gotestwaf] false-pos texts: loose ${loose}/${total} (${pct(loose, total)})  strict ${strict}/${total} (${pct(strict, total)})` +
        (flagged.length ? `\n    ${[...new Set(flagged)].join('\n    ')}` : ''),
    );
    expect(loose).toBe(0);
    expect(strict / total).toBeLessThanOrEqual(0.03);
  });
});

function pct(n: number, d: number): string {
  return `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
}
