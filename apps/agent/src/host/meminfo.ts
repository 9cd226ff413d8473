export interface MemoryUsage {
  total: number;
  used: number;
  available: number;
}

/** Reads the kB fields of /proc/meminfo as bytes, keyed by name. */
export function parseMeminfoFields(text: string): Map<string, number> {
  const fields = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9_()]+):\s+(\d+)(?:\s+kB)?\s*$/.exec(line);
    if (!match) continue;
    const value = Number(match[2]);
    fields.set(match[1]!, line.trimEnd().endsWith('kB') ? value * 1024 : value);
  }
  return fields;
}

/**
 * Memory in bytes: total = MemTotal, available = MemAvailable, used = total − available.
 * Kernels before 3.14 lack MemAvailable; there MemFree + Buffers + Cached is the usual estimate.
 */
export function parseMeminfo(text: string): MemoryUsage {
  const fields = parseMeminfoFields(text);
  const total = fields.get('MemTotal');
  if (total === undefined) throw new Error('/proc/meminfo has no MemTotal');
  const available =
    fields.get('MemAvailable') ??
    (fields.get('MemFree') ?? 0) + (fields.get('Buffers') ?? 0) + (fields.get('Cached') ?? 0);
  const clamped = Math.min(total, Math.max(0, available));
  return { total, available: clamped, used: total - clamped };
}
