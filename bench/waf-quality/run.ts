/**
 * WAF quality benchmark, run by hand (as root, after `bash bench/waf-quality/setup.sh`):
 *
 *   node bench/waf-quality/run.ts [--rampart loose,strict] [--gateway http://127.0.0.1:8080] [--target name=URL ...]
 *        [--no-peer] [--no-tuned-peer] [--no-origin] [--origin-port N] [--concurrency 16] [--block-status 403]
 *        [--misses 10] [--out results.json] [--self-check]
 *
 * Replays, in one run and against every target side by side: gotestwaf's cases (owasp, owasp-api,
 * community = attacks; false-pos = legitimate), CRS's regression tests in status mode, and a
 * generated legitimate set of 10,500 requests of real-world shape. Targets: the Rampart gateway
 * (`--rampart loose,strict` starts apps/gateway here in front of the bench's origin, one instance
 * per block mode; or `--gateway`, any URL; it should forward to an origin that answers 200 — `--origin-port` pins the
 * bench's nginx so the gateway can be pointed at it), Apache + mod_security2 + CRS PL1 (started here
 * in front of the bench's nginx) as Debian packages it and once more with CRS's WordPress exclusions
 * and the REST verbs allowed (what its crs-setup.conf offers for such sites), and the nginx origin
 * alone as the baseline (everything passes).
 * A request counts as blocked when the answer is 403. All traffic stays on loopback.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { BenchRequest } from './bench-request.ts';
import { sendAll, TargetClient, type Outcome } from './client.ts';
import { corporaDir } from './corpora.ts';
import { crsRuleLevels } from './crs-paranoia.ts';
import { loadCrsRegression } from './crs-regression.ts';
import { loadGotestwaf, type Skipped } from './gotestwaf.ts';
import { generateLegit, legitMix } from './legit/index.ts';
import { loadRecorded } from './recorded.ts';
import { blockingRules, logSize, readFrom } from './modsec-log.ts';
import { combined, pct, printTable, type Row } from './report.ts';
import { knownAnswers } from './self-check.ts';
import { startApacheModsecurity, startOriginNginx, startRampartGateway, type Running } from './servers.ts';

/* Arguments. */
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const options = (name: string): string[] => argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1] ? [argv[i + 1]!] : []));
const concurrency = Number(option('concurrency') ?? 16);
const blockStatuses = new Set((option('block-status') ?? '403').split(',').map(Number));
const missesToShow = Number(option('misses') ?? 0);

/* The request sets. */
const corpora = corporaDir();
if (!corpora) {
  console.error('The corpora are missing: set RAMPART_CORPORA to the folder holding waf/gotestwaf and waf/crs-regression (expected ../shared/corpora next to the repository).');
  process.exit(2);
}
const started = performance.now();
const gotestwaf = loadGotestwaf(corpora);
const crs = loadCrsRegression(corpora);
const legit = generateLegit();
const recorded = loadRecorded();
const requests: BenchRequest[] = [...gotestwaf.requests, ...crs.requests, ...legit, ...recorded];
const skipped: Skipped[] = [...gotestwaf.skipped, ...crs.skipped];
console.log(`built ${requests.length} requests in ${((performance.now() - started) / 1000).toFixed(1)} s from ${corpora}; ${skipped.length} corpus cases skipped`);

/* Self-check: the loaders build exactly the cases the corpora hold (counted independently from the
   YAML: payloads × encoders × placeholders; go-ftw stages), and the generated set is deterministic. */
const count = (pick: (r: BenchRequest) => boolean) => requests.filter(pick).length;
const expected: [string, number, number][] = [
  ['gotestwaf/owasp', 502, count((r) => r.set === 'gotestwaf/owasp')],
  ['gotestwaf/owasp-api (2 gRPC skipped)', 18, count((r) => r.set === 'gotestwaf/owasp-api')],
  ['gotestwaf/community', 159, count((r) => r.set === 'gotestwaf/community')],
  ['gotestwaf/false-pos', 141, count((r) => r.set === 'gotestwaf/false-pos')],
  ['crs attack stages (expect_ids)', 3943, count((r) => r.set.startsWith('crs/') && r.expect === 'attack')],
  ['crs must-pass stages (no_expect_ids only)', 979, count((r) => r.set.startsWith('crs/') && r.expect === 'legit')],
  ['crs skipped (RESPONSE-* 95, status/regex only 34)', 129, crs.skipped.length],
  ...Object.entries(legitMix).map(([k, v]) => [`legit/${k}`, v, count((r) => r.set === `legit/${k}`)] as [string, number, number]),
];
const legitHash = createHash('sha256').update(Buffer.concat(legit.map((r) => r.wire))).digest('hex').slice(0, 16);
if (flag('self-check')) {
  let bad = 0;
  for (const [what, want, got] of expected) {
    const ok = want === got;
    if (!ok) bad++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what.padEnd(50)} expected ${String(want).padStart(5)}  built ${String(got).padStart(5)}`);
  }
  const again = createHash('sha256').update(Buffer.concat(generateLegit().map((r) => r.wire))).digest('hex').slice(0, 16);
  const same = again === legitHash;
  if (!same) bad++;
  console.log(`${same ? 'ok  ' : 'FAIL'} legit set deterministic (sha256 ${legitHash})`);
  for (const k of knownAnswers()) {
    if (!k.ok) bad++;
    console.log(`${k.ok ? 'ok  ' : 'FAIL'} builder: ${k.name}${k.ok ? '' : ` — built ${JSON.stringify(k.got)}`}`);
  }
  const malformed = requests.filter((r) => !/^[A-Z][A-Za-z0-9_-]* \S+ HTTP\/\d\.\d\r\n/.test(r.wire.subarray(0, 9000).toString('latin1')));
  console.log(`info ${malformed.length} requests with a non-standard request line (sent raw, on purpose: CRS protocol tests, encoded_request)`);
  process.exit(bad === 0 ? 0 : 1);
}

/* Targets. */
interface Target { name: string; host: string; port: number; server?: Running }
const servers: Running[] = [];
const stopAll = async () => { for (const s of servers.splice(0).reverse()) await s.stop().catch(() => {}); };
process.on('SIGINT', () => { void stopAll().then(() => process.exit(130)); });

const targets: Target[] = [];
function urlTarget(name: string, url: string): Target {
  const u = new URL(url);
  if (u.protocol !== 'http:') throw new Error(`${name}: only http:// targets (${url})`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) throw new Error(`${name}: loopback targets only (${url})`);
  return { name, host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 80) };
}

try {
  const origin = await startOriginNginx(option('origin-port') ? Number(option('origin-port')) : undefined);
  servers.push(origin);
  console.log(`origin: nginx on 127.0.0.1:${origin.port}`);
  const gateway = option('gateway');
  if (gateway) targets.push(urlTarget('rampart gateway', gateway));
  // --rampart loose,strict: start apps/gateway here, in front of the same origin, per block mode.
  for (const mode of (option('rampart') ?? '').split(',').filter(Boolean)) {
    if (mode !== 'loose' && mode !== 'strict') throw new Error(`--rampart takes loose and/or strict, not ${mode}`);
    const gw = await startRampartGateway(origin.port, mode, Number(option('rampart-workers') ?? 1));
    servers.push(gw);
    console.log(`rampart gateway (${mode}) on 127.0.0.1:${gw.port}`);
    targets.push({ name: `rampart gateway ${mode}`, host: '127.0.0.1', port: gw.port, server: gw });
  }
  for (const spec of options('target')) {
    const [name, url] = spec.includes('=') ? [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)] : [spec, spec];
    targets.push(urlTarget(name!, url!));
  }
  if (!flag('no-peer')) {
    const apache = await startApacheModsecurity(origin.port);
    servers.push(apache);
    console.log(`peer: Apache + mod_security2 + CRS (PL1) on 127.0.0.1:${apache.port}`);
    targets.push({ name: 'apache+modsec CRS PL1', host: '127.0.0.1', port: apache.port, server: apache });
    if (!flag('no-tuned-peer')) {
      const tuned = await startApacheModsecurity(origin.port, { wordpressExclusions: true, restMethods: true });
      servers.push(tuned);
      console.log(`peer, tuned: the same with CRS's WordPress exclusions and PUT/PATCH/DELETE allowed, on 127.0.0.1:${tuned.port}`);
      targets.push({ name: 'same, WP excl.+REST verbs', host: '127.0.0.1', port: tuned.port, server: tuned });
    }
  }
  if (!flag('no-origin')) targets.push({ name: 'nginx alone (origin)', host: '127.0.0.1', port: origin.port });
  if (targets.length === 0) throw new Error('no target: pass --gateway or drop --no-peer / --no-origin');

  /* Run: per target, set after set (so the peer's log can be cut per set), bounded concurrency. */
  const setNames = [...new Set(requests.map((r) => r.set))];
  const results: { name: string; outcomes: Outcome[]; seconds: number }[] = [];
  const peerLegitLog = new Map<string, string[]>();
  const gatewayLegitEvents = new Map<string, string[]>();
  for (const target of targets) {
    const t0 = performance.now();
    const outcomes: Outcome[] = new Array(requests.length);
    for (const set of setNames) {
      const idx = requests.flatMap((r, i) => (r.set === set ? [i] : []));
      const logFile = target.server?.logFile;
      const legitSet = set.startsWith('legit/') || set.startsWith('real/') || set === 'gotestwaf/false-pos';
      // Let the previous set's last events arrive through the pipe before counting this set's.
      if (target.server?.events && legitSet) await new Promise((r) => setTimeout(r, 300));
      const before = logFile ? logSize(logFile) : 0;
      const eventsBefore = target.server?.events?.length ?? 0;
      const got = await sendAll(new TargetClient(target.host, target.port), idx.map((i) => requests[i]!), concurrency);
      idx.forEach((i, k) => { outcomes[i] = got[k]!; });
      if (logFile && legitSet) peerLegitLog.set(target.name, [...(peerLegitLog.get(target.name) ?? []), readFrom(logFile, before)]);
      if (target.server?.events && legitSet) {
        await new Promise((r) => setTimeout(r, 300)); // the last events may still be in the pipe
        gatewayLegitEvents.set(target.name, [...(gatewayLegitEvents.get(target.name) ?? []), ...target.server.events.slice(eventsBefore)]);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    results.push({ name: target.name, outcomes, seconds });
    console.log(`${target.name}: ${requests.length} requests in ${seconds.toFixed(1)} s`);
  }

  /* Report. */
  const levels = crsRuleLevels();
  const pl1Only = (r: BenchRequest) => { const ids = crs.expectIds.get(`${r.set} ${r.id}`); return !!ids?.length && ids.every((id) => levels.get(id) === 1); };
  const crsFolders = [...new Set(crs.requests.map((r) => r.set))];
  const rows: Row[] = [
    { label: '— gotestwaf (attack sets: detection rate; false-pos: false-positive rate)', expect: 'attack', pick: () => false },
    ...['owasp', 'owasp-api', 'community'].map((s) => ({ label: `gotestwaf/${s}`, expect: 'attack' as const, pick: (r: BenchRequest) => r.set === `gotestwaf/${s}` })),
    { label: 'gotestwaf attacks, all', expect: 'attack', pick: (r) => r.set.startsWith('gotestwaf/') && r.expect === 'attack' },
    { label: 'gotestwaf/false-pos (legit)', expect: 'legit', pick: (r) => r.set === 'gotestwaf/false-pos' },
    { label: '— CRS regression, status mode (expect_ids = attack; no_expect_ids only = must pass)', expect: 'attack', pick: () => false },
    ...crsFolders.map((f) => ({ label: `${f.replace('crs/REQUEST-', 'crs ').slice(0, 34)} attack`, expect: 'attack' as const, pick: (r: BenchRequest) => r.set === f && r.expect === 'attack' })),
    { label: 'crs attacks, all', expect: 'attack', pick: (r) => r.set.startsWith('crs/') && r.expect === 'attack' },
    { label: 'crs attacks whose rules are PL1 here', expect: 'attack', pick: (r) => r.set.startsWith('crs/') && r.expect === 'attack' && pl1Only(r) },
    { label: 'crs must-pass (legit-ish)', expect: 'legit', pick: (r) => r.set.startsWith('crs/') && r.expect === 'legit' },
    { label: '— generated legitimate set (false-positive rate)', expect: 'legit', pick: () => false },
    ...Object.keys(legitMix).map((k) => ({ label: `legit/${k}`, expect: 'legit' as const, pick: (r: BenchRequest) => r.set === `legit/${k}` })),
    { label: 'legit, all generated', expect: 'legit', pick: (r) => r.set.startsWith('legit/') },
    { label: '— recorded from real software (recorded/*.ndjson, false-positive rate)', expect: 'legit', pick: () => false },
    ...[...new Set(recorded.map((r) => r.set))].map((set) => ({ label: set, expect: 'legit' as const, pick: (r: BenchRequest) => r.set === set })),
  ];
  console.log(`\nBlocked = answer ${[...blockStatuses].join('/')}. 'other' = neither blocking, 2xx nor 404 (counted as passed); 'err' = no answer.`);
  printTable(rows, requests, results, blockStatuses);

  const scopes: [string, (r: BenchRequest) => boolean][] = [
    ['gotestwaf (attacks vs false-pos)', (r) => r.set.startsWith('gotestwaf/')],
    ['all attacks vs clean legit (false-pos + generated)', (r) => r.expect === 'attack' || r.set === 'gotestwaf/false-pos' || r.set.startsWith('legit/')],
    ['all attacks vs recorded real software', (r) => r.expect === 'attack' || r.set.startsWith('real/')],
    ['everything (CRS must-pass counted as legit)', () => true],
  ];
  console.log('\nCombined: detection / false positives / accuracy');
  for (const [label, pick] of scopes) {
    console.log(`  ${label}`);
    for (const res of results) {
      const c = combined(requests, res.outcomes, pick, blockStatuses);
      console.log(`    ${res.name.padEnd(26)} detection ${pct(c.detection * c.attacks, c.attacks)} of ${c.attacks}   FP ${pct(c.falsePositive * c.legit, c.legit)} of ${c.legit}   accuracy ${pct(c.accuracy, 1)}`);
    }
  }

  // Head to head: where the peer and each other WAF under test disagree on attacks (what to work on).
  const peer = results.find((r) => r.name === 'apache+modsec CRS PL1');
  for (const res of results) {
    if (!peer || res === peer || res.name.startsWith('nginx')) continue;
    const bySet = new Map<string, [peerOnly: number, onlyThis: number]>();
    requests.forEach((r, i) => {
      if (r.expect !== 'attack') return;
      const p = blockStatuses.has(peer.outcomes[i]!.status);
      const t = blockStatuses.has(res.outcomes[i]!.status);
      if (p === t) return;
      const key = r.set.startsWith('crs/') ? r.set.replace('crs/REQUEST-', 'crs ').slice(0, 30) : r.set;
      const cell = bySet.get(key) ?? [0, 0];
      cell[p ? 0 : 1]++;
      bySet.set(key, cell);
    });
    const total = [...bySet.values()].reduce((a, [x, y]) => [a[0]! + x, a[1]! + y], [0, 0]);
    console.log(`\nAttacks blocked by ${peer.name} but passed by ${res.name}: ${total[0]}; the reverse: ${total[1]}`);
    for (const [set, [x, y]] of [...bySet].sort((a, b) => b[1][0] - a[1][0])) console.log(`  ${set.padEnd(32)} ${String(x).padStart(5)} ${String(y).padStart(5)}`);
  }

  for (const [name, texts] of peerLegitLog) {
    const { blocked, rules } = blockingRules(texts.join('\n'));
    console.log(`\n${name}: CRS rules behind its ${blocked} blocks of legitimate requests (gotestwaf false-pos, generated and recorded sets):`);
    for (const [id, r] of [...rules].sort((a, b) => b[1].count - a[1].count).slice(0, 12)) console.log(`  ${id.padEnd(7)} ${String(r.count).padStart(6)}  ${r.msg.slice(0, 90)}`);
  }

  for (const [name, lines] of gatewayLegitEvents) {
    const rules = new Map<string, { count: number; example: string }>();
    let blocks = 0;
    for (const line of lines) {
      try {
        const event = (JSON.parse(line) as { event: { type: string; decision: { rule?: string; location?: string; name?: string; evidence?: string } } }).event;
        if (event.type !== 'website.block') continue; // loose mode records what strict would block
        blocks++;
        const e = event.decision;
        const key = e.rule ?? '?';
        const r = rules.get(key) ?? { count: 0, example: `${e.location ?? ''}${e.name ? ':' + e.name : ''} ${e.evidence ?? ''}` };
        r.count++;
        rules.set(key, r);
      } catch { /* not an event line */ }
    }
    console.log(`\n${name}: engine rules behind its ${blocks} blocks of legitimate requests (gotestwaf false-pos, generated and recorded sets), with one example each:`);
    for (const [rule, r] of [...rules].sort((a, b) => b[1].count - a[1].count).slice(0, 12)) console.log(`  ${rule.padEnd(28)} ${String(r.count).padStart(6)}  ${r.example.replace(/\s+/g, ' ').slice(0, 90)}`);
  }

  const bySkipReason = new Map<string, number>();
  for (const s of skipped) bySkipReason.set(`${s.set.split('/')[0]}: ${s.reason}`, (bySkipReason.get(`${s.set.split('/')[0]}: ${s.reason}`) ?? 0) + 1);
  console.log('\nNot sent:');
  for (const [reason, n] of bySkipReason) console.log(`  ${String(n).padStart(5)}  ${reason}`);
  console.log(`Legitimate set sha256 ${legitHash} (seeded; identical every run).`);

  if (missesToShow > 0) {
    for (const res of results) {
      console.log(`\n${res.name}: first ${missesToShow} misses per set (attack passed / legit blocked)`);
      for (const set of setNames) {
        const miss = requests.flatMap((r, i) => (r.set === set && (r.expect === 'attack') !== blockStatuses.has(res.outcomes[i]!.status) ? [`${r.id} → ${res.outcomes[i]!.status}${res.outcomes[i]!.error ? ' ' + res.outcomes[i]!.error : ''}`] : []));
        if (miss.length) console.log(`  ${set} (${miss.length}): ${miss.slice(0, missesToShow).join(' | ')}`);
      }
    }
  }

  const out = option('out');
  if (out) {
    writeFileSync(out, JSON.stringify({
      targets: results.map((r) => ({ name: r.name, seconds: r.seconds })),
      requests: requests.map((r, i) => ({ set: r.set, id: r.id, expect: r.expect, status: Object.fromEntries(results.map((res) => [res.name, res.outcomes[i]!.status])) })),
    }));
    console.log(`per-request outcomes written to ${out}`);
  }
} finally {
  await stopAll();
}
