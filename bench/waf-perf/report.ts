/**
 * The figures of a waf-perf run: per request mix, each leg's means over the rounds set against the
 * leg straight to nginx, and the gateway with its engine on set against Apache + ModSecurity.
 * Pure: run.ts measures, this only computes and formats (a markdown table, pasted as is into the
 * README).
 */
import type { ServerUsage } from './procfs.ts';
import type { WrkResult } from './wrk.ts';

export interface LegRun {
  mix: string;
  leg: string;
  round: number;
  result: WrkResult;
  usage: ServerUsage;
}

export interface LegRow {
  leg: string;
  rps: number;
  ratioToBase: number;
  /** Each round's ratio to the base leg of the same round and mix: the spread on a noisy machine. */
  ratioPerRound: number[];
  p50Ms: number;
  p99Ms: number;
  p99AddedMs: number;
  errors: number;
  workers: number;
  rssMiB: number;
  rssPeakMiB: number;
  pssMiB: number;
  mainRssMiB: number;
  /** CPU time of the server's processes (main + workers; for the proxies, not the origin's) per request. */
  cpuUsPerRequest: number;
}

export interface MixSummary {
  mix: string;
  rows: LegRow[];
  /** Requests per second of the engine-on leg over the Apache leg's; null when either is missing. */
  engineVsApache: number | null;
  /** CPU per request of the Apache leg over the engine-on leg's. */
  engineVsApacheCpu: number | null;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

export function summarize(runs: LegRun[], baseLeg: string, engineLeg: string, apacheLeg: string): { mixes: MixSummary[]; engineVsApache: number | null; engineVsApacheCpu: number | null } {
  const mixNames = [...new Set(runs.map((r) => r.mix))];
  const mixes = mixNames.map((mix): MixSummary => {
    const ofMix = runs.filter((r) => r.mix === mix);
    const legNames = [...new Set(ofMix.map((r) => r.leg))];
    const base = ofMix.filter((r) => r.leg === baseLeg);
    const baseRps = mean(base.map((r) => r.result.rps));
    const baseP99 = mean(base.map((r) => r.result.p99Ms));
    const rows = legNames.map((leg): LegRow => {
      const rs = ofMix.filter((r) => r.leg === leg);
      const p99Ms = mean(rs.map((r) => r.result.p99Ms));
      const rps = mean(rs.map((r) => r.result.rps));
      return {
        leg,
        rps,
        ratioToBase: rps / baseRps,
        ratioPerRound: rs.map((r) => r.result.rps / (base.find((b) => b.round === r.round)?.result.rps ?? Number.NaN)),
        p50Ms: mean(rs.map((r) => r.result.p50Ms)),
        p99Ms,
        p99AddedMs: p99Ms - baseP99,
        errors: rs.reduce((s, r) => s + r.result.errors, 0),
        workers: Math.max(...rs.map((r) => r.usage.workers)),
        rssMiB: mean(rs.map((r) => r.usage.rssMeanMiB)),
        rssPeakMiB: Math.max(...rs.map((r) => r.usage.rssPeakMiB)),
        pssMiB: mean(rs.map((r) => r.usage.pssMeanMiB)),
        mainRssMiB: mean(rs.map((r) => r.usage.mainRssMiB)),
        cpuUsPerRequest: (rs.reduce((s, r) => s + r.usage.cpuSeconds, 0) * 1e6) / rs.reduce((s, r) => s + r.result.requests, 0),
      };
    });
    const engine = rows.find((r) => r.leg === engineLeg);
    const apache = rows.find((r) => r.leg === apacheLeg);
    return {
      mix,
      rows,
      engineVsApache: engine && apache ? engine.rps / apache.rps : null,
      engineVsApacheCpu: engine && apache ? apache.cpuUsPerRequest / engine.cpuUsPerRequest : null,
    };
  });
  return { mixes, engineVsApache: geometricMean(mixes.map((m) => m.engineVsApache)), engineVsApacheCpu: geometricMean(mixes.map((m) => m.engineVsApacheCpu)) };
}

/** The mixes' ratios multiply: no mix weighs more for having higher rates. */
function geometricMean(values: (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  return xs.length ? Math.exp(mean(xs.map(Math.log))) : null;
}

export function formatTable(rows: LegRow[], withRounds: boolean): string {
  const header = ['leg', 'req/s', '× nginx', ...(withRounds ? ['× per round'] : []), 'p50 ms', 'p99 ms', 'p99 added ms', 'errors', 'CPU µs/req', 'workers', 'RSS MiB/worker', 'peak RSS', 'PSS MiB/worker', 'main RSS MiB'];
  const lines = rows.map((r) => [
    r.leg,
    String(Math.round(r.rps)),
    r.ratioToBase.toFixed(3),
    ...(withRounds ? [r.ratioPerRound.map((x) => x.toFixed(3)).join(' ')] : []),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.p99AddedMs >= 0 ? `+${r.p99AddedMs.toFixed(2)}` : r.p99AddedMs.toFixed(2),
    String(r.errors),
    r.cpuUsPerRequest.toFixed(0),
    String(r.workers),
    r.rssMiB.toFixed(1),
    r.rssPeakMiB.toFixed(1),
    r.pssMiB.toFixed(1),
    r.mainRssMiB.toFixed(1),
  ]);
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [row(header), row(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...lines.map(row)].join('\n');
}
