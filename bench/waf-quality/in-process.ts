/**
 * The quality benchmark without sockets: the same requests as `run.ts` (gotestwaf sets, CRS
 * regression stages, the generated legitimate set), parsed from their wire bytes into `WafRequest`s
 * and handed to the engine's `inspect()` directly, in loose and strict mode. Seconds instead of
 * minutes, so detector changes can be measured as they are made.
 *
 *   node bench/waf-quality/in-process.ts [--mode loose,strict] [--top 15] [--misses set-prefix] [--fp set-prefix] [--show 10]
 *        [--id id1,id2 (print these requests and their verdicts)] [--out blocked.json] [--against blocked.json] [--engine other/packages/waf/src/index.ts]
 *
 * `--fp legit/code-posts` prints the first `--show` blocked legitimate requests of that set (rule,
 * location, evidence); `--misses gotestwaf` the first passed attacks. The wire parsing follows what
 * Node's HTTP parser hands the gateway (raw target, raw header pairs, de-chunked body); requests it
 * would refuse (no request line, no header end) count as passed, as a 400 does in `run.ts`.
 * `--out blocked.json` saves the ids blocked per mode; `--against blocked.json` prints the requests
 * whose verdict changed since that run (detector work: what a change gained and lost).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Decision, InspectOptions, WafRequest } from '@rampart/waf';
import { pathToFileURL } from 'node:url';
import type { BenchRequest } from './bench-request.ts';
import { corporaDir } from './corpora.ts';
import { loadCrsRegression } from './crs-regression.ts';
import { loadGotestwaf } from './gotestwaf.ts';
import { generateLegit } from './legit/index.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const modes = (option('mode') ?? 'loose,strict').split(',') as ('loose' | 'strict')[];
const top = Number(option('top') ?? 15);
// `--engine path/to/index.ts`: another copy of the engine (say, the last commit's) to compare with.
const engine = option('engine');
const { inspect } = (await import(engine ? pathToFileURL(engine).href : '@rampart/waf')) as {
  inspect: (request: WafRequest, options: InspectOptions) => Decision;
};
const show = Number(option('show') ?? 10);

/** De-chunks a chunked body; a malformed tail ends the body where it breaks (as a lenient reader would). */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The wire bytes as the gateway's `wafRequest()` would see them; null where Node would answer 400. */
export function parseWire(wire: Buffer): WafRequest | null {
  const end = wire.indexOf('\r\n\r\n');
  if (end < 0) return null;
  // Node decodes the head as latin1 (bytes), the engine re-reads UTF-8 where it matters.
  const lines = wire.subarray(0, end).toString('latin1').split('\r\n');
  const requestLine = /^(\S+) (\S+) HTTP\/1\.[01]$/.exec(lines[0] ?? '');
  if (!requestLine) return null;
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  const header = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  let body: Buffer | null = wire.subarray(end + 4);
  if (/chunked/i.test(header('transfer-encoding') ?? '')) body = dechunk(body);
  else {
    const length = Number(header('content-length') ?? 0);
    body = body.subarray(0, Number.isFinite(length) ? length : 0);
  }
  return {
    method: requestLine[1]!,
    target: requestLine[2]!,
    headers,
    clientIp: '127.0.0.1',
    body: body.length > 0 ? body : null,
    bodyTruncated: false,
    now: Date.now(),
  };
}

const corpora = corporaDir();
const requests: BenchRequest[] = [];
if (corpora) requests.push(...loadGotestwaf(corpora).requests, ...loadCrsRegression(corpora).requests);
else console.warn('corpora missing (set RAMPART_CORPORA): only the generated legitimate set is measured');
requests.push(...generateLegit());
const parsed = requests.map((r) => parseWire(r.wire));

const groups: [string, (r: BenchRequest) => boolean][] = [
  ['gotestwaf attacks (owasp, owasp-api, community)', (r) => r.set.startsWith('gotestwaf/') && r.expect === 'attack'],
  ['gotestwaf false-pos, FP', (r) => r.set === 'gotestwaf/false-pos'],
  ['CRS attacks', (r) => r.set.startsWith('crs/') && r.expect === 'attack'],
  ['CRS must-pass, FP', (r) => r.set.startsWith('crs/') && r.expect === 'legit'],
  ['legit, FP', (r) => r.set.startsWith('legit/')],
  ...['wordpress', 'api', 'forms', 'code-posts', 'search', 'uploads', 'browsing'].map(
    (s) => [`  legit/${s}`, (r: BenchRequest) => r.set === `legit/${s}`] as [string, (r: BenchRequest) => boolean],
  ),
];

const describe = (d: Decision) =>
  d.action === 'block' ? `${d.rule} @${d.location}:${d.name ?? ''} ${JSON.stringify(d.evidence ?? '').slice(0, 140)}` : d.action;

const saved: Record<string, string[]> = {};
const against = option('against');
const before = against && existsSync(against) ? (JSON.parse(readFileSync(against, 'utf8')) as Record<string, string[]>) : null;

for (const mode of modes) {
  const started = performance.now();
  const decisions = parsed.map((req) => (req ? inspect(req, { mode }) : ({ action: 'pass' } as Decision)));
  const ms = performance.now() - started;
  console.log(`\n== ${mode}: ${requests.length} requests in ${(ms / 1000).toFixed(1)} s (${((1000 * ms) / requests.length).toFixed(0)} µs each)`);
  for (const [label, pick] of groups) {
    let n = 0;
    let blocked = 0;
    requests.forEach((r, i) => {
      if (!pick(r)) return;
      n++;
      if (decisions[i]!.action === 'block') blocked++;
    });
    console.log(`${label.padEnd(50)} ${String(blocked).padStart(5)} / ${String(n).padStart(5)} blocked  ${((100 * blocked) / Math.max(n, 1)).toFixed(2).padStart(6)} %`);
  }
  const rules = new Map<string, number>();
  requests.forEach((r, i) => {
    const d = decisions[i]!;
    if (r.expect === 'legit' && d.action === 'block') rules.set(`${r.set.split('/')[0]} ${d.rule}`, (rules.get(`${r.set.split('/')[0]} ${d.rule}`) ?? 0) + 1);
  });
  console.log('rules behind false positives:');
  for (const [rule, n] of [...rules].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${String(n).padStart(5)}  ${rule}`);
  const blockedIds = requests.filter((_r, i) => decisions[i]!.action === 'block').map((r) => `${r.set} ${r.id}`);
  saved[mode] = blockedIds;
  if (before?.[mode]) {
    const was = new Set(before[mode]);
    const now = new Set(blockedIds);
    const lost = [...was].filter((id) => !now.has(id));
    const gained = [...now].filter((id) => !was.has(id));
    console.log(`since ${against}: ${lost.length} no longer blocked, ${gained.length} newly blocked`);
    for (const id of lost.slice(0, 40)) console.log(`  - ${id}`);
    for (const id of gained.slice(0, 40)) console.log(`  + ${id}`);
  }
  const ids = option('id')?.split(',') ?? [];
  requests.forEach((r, i) => {
    if (!ids.includes(r.id)) return;
    console.log(`--- ${r.set} ${r.id}: ${describe(decisions[i]!)}\n${r.wire.toString('utf8').slice(0, 1500)}`);
  });
  const fp = option('fp');
  if (fp) {
    console.log(`first blocked legitimate requests of ${fp}:`);
    requests
      .map((r, i) => [r, decisions[i]!] as const)
      .filter(([r, d]) => r.set.startsWith(fp) && r.expect === 'legit' && d.action === 'block')
      .slice(0, show)
      .forEach(([r, d]) => console.log(`  ${r.id}: ${describe(d)}`));
  }
  const misses = option('misses');
  if (misses) {
    console.log(`first passed attacks of ${misses}:`);
    requests
      .map((r, i) => [r, decisions[i]!] as const)
      .filter(([r, d]) => r.set.startsWith(misses) && r.expect === 'attack' && d.action !== 'block')
      .slice(0, show)
      .forEach(([r]) => console.log(`  ${r.id}`));
  }
}
const out = option('out');
if (out) writeFileSync(out, JSON.stringify(saved));
