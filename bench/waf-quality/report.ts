/**
 * Tallies and the side-by-side table: per set, how many requests each target blocked; detection
 * rate for attack sets, false-positive rate for legitimate ones; combined figures and accuracy.
 */
import type { BenchRequest } from './bench-request.ts';
import type { Outcome } from './client.ts';

export interface Tally { total: number; blocked: number; other: number; errors: number }

/** Blocked = the target answered with a blocking status (403 unless told otherwise). */
export function tally(requests: readonly BenchRequest[], outcomes: readonly Outcome[], pick: (r: BenchRequest) => boolean, blockStatuses: ReadonlySet<number>): Tally {
  const t: Tally = { total: 0, blocked: 0, other: 0, errors: 0 };
  requests.forEach((req, i) => {
    if (!pick(req)) return;
    const o = outcomes[i]!;
    t.total++;
    if (blockStatuses.has(o.status)) t.blocked++;
    else if (o.status <= 0) t.errors++;
    else if (!(o.status >= 200 && o.status < 300) && o.status !== 404) t.other++;
  });
  return t;
}

export const pct = (n: number, d: number) => (d === 0 ? '   —  ' : `${((100 * n) / d).toFixed(2).padStart(6)}%`);

export interface Row { label: string; expect: 'attack' | 'legit'; pick: (r: BenchRequest) => boolean }

/**
 * One line per row: the count, then per target `blocked  rate` where rate is detection (attacks) or
 * false positives (legit); `other` counts answers that were neither blocking, 2xx nor 404 (e.g. 400
 * from a parser, 413 over a body limit) — passed for the rate, listed so they are not hidden.
 */
export function printTable(rows: readonly Row[], requests: readonly BenchRequest[], results: readonly { name: string; outcomes: Outcome[] }[], blockStatuses: ReadonlySet<number>): void {
  const w = Math.max(...rows.filter((r) => !r.label.startsWith('—')).map((r) => r.label.length), 10) + 2;
  const col = 30;
  console.log(`\n${'set'.padEnd(w)}${'n'.padStart(7)}  ${results.map((r) => r.name.padEnd(col)).join('')}`);
  console.log(`${''.padEnd(w)}${''.padStart(7)}  ${results.map(() => 'blocked    rate    other/err'.padEnd(col)).join('')}`);
  for (const row of rows) {
    if (row.label.startsWith('—')) { console.log(row.label); continue; }
    const cells = results.map((res) => {
      const t = tally(requests, res.outcomes, row.pick, blockStatuses);
      return `${String(t.blocked).padStart(7)} ${pct(t.blocked, t.total)} ${`${t.other}/${t.errors}`.padStart(10)}   `.padEnd(col);
    });
    const n = requests.filter(row.pick).length;
    console.log(`${row.label.padEnd(w)}${String(n).padStart(7)}  ${cells.join('')}`);
  }
}

export interface Combined { detection: number; falsePositive: number; accuracy: number; attacks: number; legit: number }

export function combined(requests: readonly BenchRequest[], outcomes: readonly Outcome[], pick: (r: BenchRequest) => boolean, blockStatuses: ReadonlySet<number>): Combined {
  const a = tally(requests, outcomes, (r) => pick(r) && r.expect === 'attack', blockStatuses);
  const l = tally(requests, outcomes, (r) => pick(r) && r.expect === 'legit', blockStatuses);
  return { detection: a.blocked / a.total, falsePositive: l.blocked / l.total, accuracy: (a.blocked + (l.total - l.blocked)) / (a.total + l.total), attacks: a.total, legit: l.total };
}
