/** The first line of /proc/stat: jiffies spent idle (idle + iowait) and in total, since boot. */
export interface CpuTimes {
  idle: number;
  total: number;
}

export function parseCpuTimes(text: string): CpuTimes {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no cpu line');
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest is already counted in user).
  const total = fields.slice(0, 8).reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { idle, total };
}

/** Busy share between two readings, 0-100; 0 when no time passed. */
export function cpuPercent(previous: CpuTimes, current: CpuTimes): number {
  const total = current.total - previous.total;
  if (total <= 0) return 0;
  const busy = total - (current.idle - previous.idle);
  return Math.min(100, Math.max(0, (busy / total) * 100));
}
