import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSecretField, panelFieldLabel } from '@rampart/contracts';
import { auditSpecs } from '../src/http/audit-actions.ts';
import { startHarness, type Harness } from './support/harness.ts';

/*
 * The event log names every field an administrative action can change in the reader's language
 * (issue 27): each leaf of each recorded route's body schema has words in both languages, so no
 * record reads `attempts_per_hour` or `port_scan.seconds`.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ agent: false });
});
afterAll(() => h.close());

interface Def { type: string; shape?: Record<string, unknown>; innerType?: unknown; in?: unknown; element?: unknown; options?: unknown[] }
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def: Def } } | undefined)?._zod?.def;

/** Dotted paths of a zod schema's leaves (array items and union options walked into). */
function leaves(schema: unknown, path: string): string[] {
  const def = defOf(schema);
  if (!def) return [path];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
    case 'optional': case 'nullable': case 'default': case 'readonly': case 'catch': case 'prefault': case 'nonoptional':
      return leaves(def.innerType, path);
    case 'pipe':
      return leaves(def.in, path);
    case 'array':
      return leaves(def.element, path);
    case 'union':
      return [...new Set((def.options ?? []).flatMap((option) => leaves(option, path)))];
    default:
      return [path];
  }
}

describe('event log words for every changed field', () => {
  it('has words in both languages for each field of each recorded route\'s body', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const route of h.console.routes) {
      const spec = auditSpecs[`${route.method} ${route.url.replace(/^\/magapi/, '')}`];
      if (!spec || route.body === undefined) continue;
      const skip = new Set([...(spec.omit ?? []), ...(spec.target ? [spec.target] : [])]);
      for (const leaf of leaves(route.body, '')) {
        if (!leaf || skip.has(leaf) || skip.has(leaf.split('.')[0]!)) continue;
        if (isSecretField(leaf.split('.').at(-1)!)) continue;
        checked++;
        for (const lang of ['zh-CN', 'en-US'] as const) if (panelFieldLabel(leaf, lang) === undefined) missing.push(`${route.url} ${leaf} (${lang})`);
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(missing).toEqual([]);
  });

  it('reads nested settings as their parts joined', () => {
    expect(panelFieldLabel('port_scan.seconds', 'en-US')).toBe('port scan · window (s)');
    expect(panelFieldLabel('ssh_bruteforce.block_minutes', 'zh-CN')).toBe('SSH 暴力破解 · 封锁时长（分钟）');
    expect(panelFieldLabel('rule.files.0.level', 'en-US')).toBe('file access · level');
    expect(panelFieldLabel('no_such_field', 'en-US')).toBeUndefined();
  });
});
