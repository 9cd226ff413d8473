import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardDenialSchema, type GuardDenial } from '@rampart/contracts';

/*
 * The BPF LSM backend's per-directory cache under Debian 12's own kernel (6.1): tests/vm/run.sh boots
 * it in qemu (TCG) with tests/vm/dircache-init.sh as /init. A stale cache entry would be a wrong
 * decision (a protected tree moved out still denied, an unprotected one moved in still allowed), so
 * every step checks what a restricted process may do right after the tree changed under the cache.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Check {
  result: string;
  name: string;
  actor: string;
  expect: string;
  got: string;
}

let skipped = '';
let output = '';
const checks: Check[] = [];
const events: GuardDenial[] = [];

beforeAll(() => {
  const run = spawnSync('bash', [path.join(guardDir, 'tests/vm/run.sh')], {
    encoding: 'utf8',
    timeout: 280_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, GUARD_VM_INIT: 'dircache-init.sh' },
  });
  output = `${run.stdout ?? ''}`;
  if (run.status === 3) {
    skipped = output.split('\n').find((line) => line.startsWith('SKIP')) ?? 'SKIP the VM cannot run here';
    return;
  }
  if (run.status !== 0) throw new Error(`VM run failed (${run.status ?? run.signal}):\n${output.slice(-4000)}\n${run.stderr ?? ''}`);
  for (const line of output.split('\n')) {
    // The serial console may put the boot's escape codes before the first line.
    const check = /RCHECK (\S+) (\S+) (\S+) expect=(\S+) got=(\S*)/.exec(line);
    if (check) checks.push({ result: check[1]!, name: check[2]!, actor: check[3]!, expect: check[4]!, got: check[5]! });
    if (line.startsWith('EVENT ')) {
      const parsed = guardDenialSchema.safeParse(JSON.parse(line.slice(6)));
      if (parsed.success) events.push(parsed.data);
    }
  }
});

const decision = (name: string) => checks.find((c) => c.name === name)?.got;

describe('the directory cache of the BPF LSM backend under Debian 12 kernel 6.1', () => {
  it('ran every step, and every decision is the one the tree and plan call for', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expect(checks.length, output.slice(-3000)).toBe(37);
    expect(checks.filter((c) => c.result !== 'ok'), output.slice(-3000)).toEqual([]);
  });

  it('a protected directory moved out is free at once, and an unprotected one moved in is protected at once', (ctx) => {
    if (skipped) ctx.skip(skipped);
    // EPERM is 1, success 0 (the probe prints the errno)
    expect([decision('m1-before'), decision('m1-after')]).toEqual(['1', '0']);
    expect([decision('m2-before'), decision('m2-after-sub'), decision('m2-after-creat')]).toEqual(['1', '0', '0']);
    expect([decision('n1-before'), decision('n1-after'), decision('n1-after-creat')]).toEqual(['0', '1', '1']);
    expect([decision('x-before'), decision('x-after'), decision('x-after2')]).toEqual(['0', '1', '0']);
  });

  it('a new plan drops what the cache knew: objects, operations and classes', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expect([decision('free2-before'), decision('free2-on'), decision('free2-off')]).toEqual(['0', '1', '0']);
    // a write-only rule: creating a file (its open for writing included) is a create, not a modify
    expect([decision('ops-read'), decision('ops-write'), decision('ops-creat')]).toEqual(['0', '1', '0']);
    expect([decision('cls-exempt'), decision('cls-restricted'), decision('cls-both')]).toEqual(['0', '1', '0']);
  });

  it('denials found through cached walks still name the full path', (ctx) => {
    if (skipped) ctx.skip(skipped);
    const deep = events.filter((e) => e.path.startsWith('/t/prot/a/b/c/d/e/'));
    expect(deep.map((e) => e.op).sort()).toEqual(['c', 'w', 'w'].sort());
    expect(deep.every((e) => e.rule === 'tamper:1')).toBe(true);
  });
});
