/**
 * `node bench/waf-perf/self-check.ts`: known-answer checks of the parts of the bench that compute
 * (benches are not in the vitest projects): wrk's report, /proc parsing, the wrk scripts, the
 * summary. Needs no root, no servers; exits 1 on a failure and prints what was computed.
 */
import { requestMixes, wrkScript } from './mixes.ts';
import { cpuTicksFromStat, memoryFromRollup, parentPidFromStat } from './procfs.ts';
import { summarize, type LegRun } from './report.ts';
import { parseWrk } from './wrk.ts';

const wrkReport = `Running 10s test @ http://127.0.0.1:8080/
  2 threads and 64 connections
  Latency Distribution
     50%  850.00us
     75%    1.20ms
     90%    2.00ms
     99%    1.02s
  120000 requests in 10.00s, 500.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:  12000.50
Transfer/sec:     50.00MB`;

const usage = (cpuSeconds: number) => ({ workers: 2, rssMeanMiB: 100, rssPeakMiB: 110, pssMeanMiB: 80, mainRssMiB: 50, cpuSeconds });
const run = (leg: string, round: number, rps: number, p99Ms: number): LegRun => ({
  mix: 'GET page', leg, round, usage: usage(rps / 100), result: { rps, requests: rps * 10, p50Ms: 1, p99Ms, errors: 0 },
});
const summary = summarize(
  [run('nginx alone', 0, 1000, 2), run('engine', 0, 500, 5), run('apache', 0, 100, 50), run('nginx alone', 1, 3000, 4), run('engine', 1, 1500, 7), run('apache', 1, 300, 70)],
  'nginx alone', 'engine', 'apache',
);
const engineRow = summary.mixes[0]!.rows.find((r) => r.leg === 'engine')!;
const formScript = wrkScript(requestMixes.find((m) => m.name === 'POST form')!);

const cases: [string, () => unknown, unknown][] = [
  ['wrk: requests/s', () => parseWrk(wrkReport).rps, 12000.5],
  ['wrk: p50 in µs → ms', () => parseWrk(wrkReport).p50Ms, 0.85],
  ['wrk: p99 in s → ms', () => parseWrk(wrkReport).p99Ms, 1020],
  ['wrk: socket errors + non-2xx', () => parseWrk(wrkReport).errors, 12],
  ['wrk: completed requests', () => parseWrk(wrkReport).requests, 120000],
  ['stat: user + system ticks', () => cpuTicksFromStat('4242 (node ) x) S 17 4242 4242 0 -1 4194560 1 0 0 0 250 31 0 0 20 0'), 281],
  ['stat: parent pid behind a name with ") "', () => parentPidFromStat('4242 (node ) x) S 17 4242 4242 0 -1'), 17],
  ['smaps_rollup: Rss and Pss', () => memoryFromRollup('55d0-7ffe ---p 00000000 00:00 0 [rollup]\nRss:              164240 kB\nPss:              110000 kB\nPss_Anon: 1 kB\n'), { rssKiB: 164240, pssKiB: 110000 }],
  ['wrk script: method, body as a long string', () => formScript.includes('wrk.method = [=[POST]=]') && formScript.includes('wrk.body = [=[name=Ada+Lovelace&'), true],
  ['every mix sends the same browser headers', () => new Set(requestMixes.map((m) => m.headers.Cookie)).size, 1],
  ['summary: ratio of the means', () => engineRow.ratioToBase, 0.5],
  ['summary: ratio per round', () => engineRow.ratioPerRound, [0.5, 0.5]],
  ['summary: p99 added over nginx', () => engineRow.p99AddedMs, 3],
  ['summary: engine vs apache', () => summary.engineVsApache, 5],
  ['summary: CPU µs per request', () => engineRow.cpuUsPerRequest, 1000],
];

let failed = 0;
for (const [name, compute, want] of cases) {
  const got = compute();
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`);
}
console.log(`${cases.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
