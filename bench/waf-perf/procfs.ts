/**
 * Memory and CPU time of a server's processes, read from /proc while the load runs. The workers are
 * the children of the server's main process (nginx master, gateway primary, Apache parent), found by
 * their parent pid in /proc/<pid>/stat: /proc/<pid>/task/<tid>/children needs a kernel option this
 * machine lacks.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The parent pid from the text of /proc/<pid>/stat (the command name may hold spaces and parens). */
export function parentPidFromStat(stat: string): number {
  const afterName = stat.slice(stat.lastIndexOf(')') + 2);
  return Number(afterName.split(' ')[1]);
}

/** User + system CPU time (fields 14 and 15 of /proc/<pid>/stat), in clock ticks. */
export function cpuTicksFromStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return Number(fields[11]) + Number(fields[12]);
}

const ticksPerSecond = (() => {
  try { return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; } catch { return 100; }
})();

function cpuTicksOf(pid: number): number | null {
  try { return cpuTicksFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return null; }
}

export function childPids(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (parentPidFromStat(readFileSync(`/proc/${entry}/stat`, 'utf8')) === parent) children.push(Number(entry));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return children;
}

export interface Memory {
  rssKiB: number;
  /**
   * Proportional set size: shared pages divided among the processes sharing them. Apache's children
   * share the rules the parent compiled before forking; RSS counts them in full in every child.
   */
  pssKiB: number;
}

/** The `Rss:` and `Pss:` lines of /proc/<pid>/smaps_rollup, in KiB. */
export function memoryFromRollup(text: string): Memory {
  const kib = (field: string) => Number(/^\s*(\d+)/.exec(text.split('\n').find((l) => l.startsWith(field))?.slice(field.length) ?? '')?.[1] ?? Number.NaN);
  return { rssKiB: kib('Rss:'), pssKiB: kib('Pss:') };
}

export function memoryOf(pid: number): Memory | null {
  try {
    return memoryFromRollup(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  } catch {
    return null;
  }
}

export interface ServerUsage {
  /** Worker processes seen during the samples. */
  workers: number;
  /** Mean over samples and workers, and the largest single reading, in MiB. */
  rssMeanMiB: number;
  rssPeakMiB: number;
  pssMeanMiB: number;
  /** The main process (master, primary, parent), mean over the samples. */
  mainRssMiB: number;
  /**
   * CPU seconds the main process and its workers used during the leg. Unlike requests per second it
   * hardly depends on what else the machine runs: it is the work each request costs the server.
   */
  cpuSeconds: number;
}

/**
 * Samples the main process and its children every `everyMs` until the returned function is called,
 * which gives the summary. Children are listed again on every sample, so a worker restarted during
 * the run is counted too.
 */
export function watchServer(mainPid: number, everyMs = 1000): () => ServerUsage {
  const processTicks = () => new Map([mainPid, ...childPids(mainPid)].map((pid) => [pid, cpuTicksOf(pid) ?? 0]));
  const ticksAtStart = processTicks();
  const workerReadings: Memory[] = [];
  const mainReadings: Memory[] = [];
  const seen = new Set<number>();
  const sample = () => {
    const main = memoryOf(mainPid);
    if (main) mainReadings.push(main);
    for (const pid of childPids(mainPid)) {
      const m = memoryOf(pid);
      if (!m) continue;
      seen.add(pid);
      workerReadings.push(m);
    }
  };
  // The first sample a moment after the load starts: the workers are warm by then.
  const timer = setInterval(sample, everyMs);
  return () => {
    clearInterval(timer);
    if (workerReadings.length === 0) sample();
    let ticks = 0;
    for (const [pid, now] of processTicks()) ticks += now - (ticksAtStart.get(pid) ?? 0);
    const mean = (ms: Memory[], f: (m: Memory) => number) => ms.reduce((s, m) => s + f(m), 0) / Math.max(1, ms.length) / 1024;
    return {
      workers: seen.size,
      rssMeanMiB: mean(workerReadings, (m) => m.rssKiB),
      rssPeakMiB: Math.max(0, ...workerReadings.map((m) => m.rssKiB)) / 1024,
      pssMeanMiB: mean(workerReadings, (m) => m.pssKiB),
      mainRssMiB: mean(mainReadings, (m) => m.rssKiB),
      cpuSeconds: ticks / ticksPerSecond,
    };
  };
}
