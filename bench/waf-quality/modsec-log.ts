/**
 * Which CRS rules made the peer block: reads the part of Apache's error log written while a group
 * of requests ran, groups ModSecurity's lines by unique_id, and counts the rules that contributed to
 * each blocked request (the anomaly-evaluation rules themselves left out).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export function logSize(file: string): number {
  try { return statSync(file).size; } catch { return 0; }
}

export function readFrom(file: string, offset: number): string {
  const size = logSize(file);
  if (size <= offset) return '';
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString('utf8');
  } finally { closeSync(fd); }
}

const evaluationRules = new Set(['949110', '959100', '980130', '980140', '980170']);

/** Rule id → number of blocked requests it contributed to; also the number of blocked requests. */
export function blockingRules(logText: string): { blocked: number; rules: Map<string, { count: number; msg: string }> } {
  const byRequest = new Map<string, { denied: boolean; rules: Map<string, string> }>();
  for (const line of logText.split('\n')) {
    if (!line.includes('ModSecurity:')) continue;
    const uid = /\[unique_id "([^"]+)"\]/.exec(line)?.[1];
    const id = /\[id "(\d+)"\]/.exec(line)?.[1];
    if (!uid) continue;
    const entry = byRequest.get(uid) ?? { denied: false, rules: new Map() };
    if (line.includes('Access denied')) entry.denied = true;
    if (id && !evaluationRules.has(id)) entry.rules.set(id, /\[msg "([^"]*)"\]/.exec(line)?.[1] ?? '');
    byRequest.set(uid, entry);
  }
  const rules = new Map<string, { count: number; msg: string }>();
  let blocked = 0;
  for (const entry of byRequest.values()) {
    if (!entry.denied) continue;
    blocked++;
    for (const [id, msg] of entry.rules) {
      const r = rules.get(id) ?? { count: 0, msg };
      r.count++;
      rules.set(id, r);
    }
  }
  return { blocked, rules };
}
