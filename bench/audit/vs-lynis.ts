/**
 * Rampart's system audit beside Lynis on this machine, in one run: `lynis audit system --quick`
 * (Debian's lynis package) and Rampart's runAudit against `/`, one after the other, each timed;
 * prints both durations and their ratio (the issue's goal: Rampart ≤ 0.5× Lynis), where Rampart's
 * time goes (per collector), and maps every Lynis warning and suggestion from
 * /var/log/lynis-report.dat to the Rampart checks that cover it, listing each one not covered
 * with the reason (out of scope, or not yet). Run by hand as root:
 *   node_modules/.bin/node bench/audit/vs-lynis.ts [--order rampart-first]
 * `--dry` runs neither: it loads the catalogue and the Lynis map and checks every check the map names exists.
 * Both only read the system (Lynis writes its log and report under /var/log). Printed, not asserted.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { allChecks, runAudit, systemExecutor } from '../../packages/audit/src/index.ts';
import { coverageOf, mappedCheckIds } from './lynis-map.ts';

const reportFile = '/var/log/lynis-report.dat';
const rampartFirst = process.argv.includes('--order') && process.argv[process.argv.indexOf('--order') + 1] === 'rampart-first';

function runLynis(): number {
  const started = performance.now();
  const run = spawnSync('lynis', ['audit', 'system', '--quick', '--no-colors'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error || run.status !== 0) throw new Error(`lynis failed: ${run.error?.message ?? run.stderr}`);
  return performance.now() - started;
}

async function runRampart() {
  const started = performance.now();
  const { summary, facts } = await runAudit({ root: '/', exec: systemExecutor('/') });
  return { ms: performance.now() - started, summary, timings: facts.timings };
}

if (process.argv.includes('--dry')) {
  const known = new Set(allChecks.map((check) => check.id));
  const unknown = mappedCheckIds().filter((id) => !known.has(id));
  console.log(`dry run: ${allChecks.length} checks in the catalogue; the Lynis map names ${mappedCheckIds().length}, unknown: ${unknown.length ? unknown.join(', ') : 'none'}`);
  process.exit(unknown.length ? 1 : 0);
}

let lynisMs: number;
let rampart: Awaited<ReturnType<typeof runRampart>>;
if (rampartFirst) {
  rampart = await runRampart();
  lynisMs = runLynis();
} else {
  lynisMs = runLynis();
  rampart = await runRampart();
}

/** `warning[]=ID|text|details|solution|` and `suggestion[]=...` lines. */
const items = readFileSync(reportFile, 'utf8')
  .split('\n')
  .map((line) => /^(warning|suggestion)\[\]=([^|]*)\|([^|]*)\|([^|]*)\|/.exec(line))
  .filter((m) => m !== null)
  .map((m) => ({ kind: m[1] as string, id: m[2] as string, text: m[3] as string, details: m[4] as string }));
const lynisTests = /^tests_executed=(.*)$/m.exec(readFileSync(reportFile, 'utf8'))?.[1]?.split('|').filter(Boolean).length ?? 0;

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`date ${new Date().toISOString()}  order ${rampartFirst ? 'rampart, lynis' : 'lynis, rampart'}`);
console.log(`lynis audit system --quick: ${s(lynisMs)} (${lynisTests} tests executed)`);
console.log(`rampart runAudit:           ${s(rampart.ms)} (${allChecks.length} checks: ${JSON.stringify(rampart.summary.counts)}, score ${rampart.summary.score})`);
console.log(`ratio rampart / lynis:      ${(rampart.ms / lynisMs).toFixed(2)}`);
console.log(`rampart collectors (ms):    ${Object.entries(rampart.timings).filter(([, ms]) => (ms ?? 0) >= 100).map(([k, ms]) => `${k} ${ms}`).join(', ')}`);

const outcomes = new Map(rampart.summary.results.map((r) => [r.id, r.outcome]));
let covered = 0;
const missing: string[] = [];
console.log(`\nLynis findings: ${items.filter((i) => i.kind === 'warning').length} warnings, ${items.filter((i) => i.kind === 'suggestion').length} suggestions`);
for (const item of items) {
  const coverage = coverageOf(item.id, item.details, item.text);
  const label = `${item.kind === 'warning' ? 'W' : 'S'} ${item.id} ${item.text}${item.details && item.details !== '-' ? ` [${item.details}]` : ''}`;
  if (coverage.kind === 'covered') {
    covered++;
    const unknown = coverage.checks.filter((id) => !outcomes.has(id));
    if (unknown.length > 0) throw new Error(`lynis-map names unknown checks: ${unknown.join(', ')}`);
    console.log(`  covered  ${label}\n           → ${coverage.checks.map((id) => `${id} (${outcomes.get(id)})`).join(', ')}`);
  } else missing.push(`  ${coverage.kind === 'out_of_scope' ? 'out of scope' : 'not yet     '} ${label}\n           (${coverage.reason})`);
}
console.log(`\ncovered ${covered} of ${items.length}; not covered, with reasons:`);
for (const line of missing) console.log(line);
