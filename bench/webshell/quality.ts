/**
 * Detection quality: the share of the corpus's PHP, JSP and ASP/ASPX shells flagged (risk high or
 * medium), per half, and the false positives on Debian's web applications, with every miss and
 * every false positive listed. Run by hand: `node bench/webshell/quality.ts [--show-held-out]`.
 *
 * Halves: files whose SHA-256 starts with 0-7 are the developed half (rules and weights were tuned
 * looking at these); 8-f are held out, counted but their misses are listed only with
 * --show-held-out, so the held-out figure stays an estimate for unseen shells.
 *
 * What is counted: the languages a web server runs (PHP, JSP/JSPX, ASP/ASA, ASPX/ASHX/ASMX). Not
 * counted, written down in README.md: Perl, Python, shell, PowerShell, CGI and Java sources (not
 * run by a PHP/Java/ASP web server as a page), ColdFusion (no ColdFusion server on Debian), and
 * files with no server-side code at all (HTML or client-side script only; nothing to run).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isFlaggedRisk, type WebshellFileResult } from '@rampart/contracts';
import { scanTree } from '../../packages/webshell/src/index.ts';
import { benignDir, corpusDir, killTypes } from './sets.ts';

type Lang = 'php' | 'jsp' | 'asp' | 'other';
const showHeldOut = process.argv.includes('--show-held-out');

/** The language the corpus file is written in, from its name (`x.php.txt` is PHP) and, for bare .txt, its content. */
export function corpusLanguage(path: string, head: string): Lang | 'none' {
  const name = path.toLowerCase().replace(/(\.txt)+$/, '');
  const ext = name.slice(name.lastIndexOf('.') + 1);
  if (['php', 'php3', 'php4', 'php5', 'phtml', 'inc'].includes(ext)) return 'php';
  if (['jsp', 'jspx'].includes(ext)) return 'jsp';
  if (['asp', 'asa', 'aspx', 'ashx', 'asmx', 'cer'].includes(ext)) return 'asp';
  if (['pl', 'py', 'cgi', 'sh', 'ps1', 'java', 'cfm'].includes(ext)) return 'other';
  if (/<\?php|<\?\s/.test(head)) return 'php';
  if (/<%@\s*page[^%]*java|request\.getParameter/i.test(head)) return 'jsp';
  if (/<%/.test(head)) return 'asp';
  return 'other';
}

/** No server-side code: nothing for a web server to run, so nothing to detect. */
const hasServerCode = (text: string): boolean => /<\?|<%|runat\s*=\s*["']?server/i.test(text);

async function scanAll(root: string, extensions: string[]): Promise<WebshellFileResult[]> {
  const results: WebshellFileResult[] = [];
  const started = performance.now();
  await scanTree({ roots: [root], sizeLimitKb: 4096, extensions, workers: 2, timeBudgetMs: 5000, onResult: (r) => results.push(r) });
  console.log(`scanned ${results.length} files under ${root} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return results;
}

const why = (r: WebshellFileResult): string => r.status === 'unscanned' ? `unscanned:${r.unscannedReason}` : r.findings.map((f) => `${f.rule ?? f.reason}:${f.risk}`).join(',') || 'no findings';

const corpus = corpusDir();
const benign = benignDir();
const malicious = await scanAll(corpus, []);
const rows = new Map<string, { total: number; hit: number }>();
const misses: string[] = [];
const excluded: string[] = [];
for (const result of malicious) {
  const bytes = readFileSync(result.path);
  const text = bytes.toString('latin1');
  const half = /^[0-7]/.test(createHash('sha256').update(bytes).digest('hex')) ? 'developed' : 'held-out';
  const lang = corpusLanguage(result.path, text.slice(0, 65536));
  const rel = relative(corpus, result.path);
  if (lang === 'none') continue;
  if (lang !== 'other' && !hasServerCode(text)) { excluded.push(`${half} ${lang} no server-side code: ${rel}`); continue; }
  const key = `${half} ${lang}`;
  const row = rows.get(key) ?? { total: 0, hit: 0 };
  row.total += 1;
  const hit = isFlaggedRisk(result.risk);
  if (hit) row.hit += 1;
  else if (lang !== 'other' && (half === 'developed' || showHeldOut)) misses.push(`${key} MISS ${rel} [${why(result)}]`);
  rows.set(key, row);
}
const benignResults = await scanAll(benign, killTypes);
const falsePositives = benignResults.filter((r) => isFlaggedRisk(r.risk));

console.log('\n== detection (flagged = risk high or medium) ==');
for (const key of [...rows.keys()].sort()) {
  const row = rows.get(key) as { total: number; hit: number };
  console.log(`${key.padEnd(16)} ${String(row.hit).padStart(4)} / ${String(row.total).padEnd(4)} ${(100 * row.hit / row.total).toFixed(1)} %`);
}
for (const half of ['developed', 'held-out']) {
  const web = ['php', 'jsp', 'asp'].map((lang) => rows.get(`${half} ${lang}`) ?? { total: 0, hit: 0 });
  const total = web.reduce((s, r) => s + r.total, 0);
  const hit = web.reduce((s, r) => s + r.hit, 0);
  console.log(`${half} php+jsp+asp: ${hit} / ${total} ${(100 * hit / Math.max(1, total)).toFixed(1)} %`);
}
console.log(`\n== benign: ${benignResults.length} files (${killTypes.join(' ')}), false positives: ${falsePositives.length}, unscanned: ${benignResults.filter((r) => r.status === 'unscanned').length} ==`);
for (const fp of falsePositives) console.log(`FP ${relative(benign, fp.path)} [${why(fp)}] ${fp.findings[0]?.evidence ?? ''}`);
for (const r of benignResults.filter((x) => x.status === 'unscanned')) console.log(`UNSCANNED ${relative(benign, r.path)} ${r.unscannedReason}`);
console.log(`\n== misses (${misses.length}${showHeldOut ? '' : ', developed half only'}) ==`);
for (const line of misses.sort()) console.log(line);
console.log(`\n== excluded (${excluded.length}) ==`);
for (const line of excluded.sort()) console.log(line);
