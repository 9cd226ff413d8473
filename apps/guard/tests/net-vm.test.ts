import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardHelloSchema, guardNetDenialSchema, type GuardNetDenial } from '@rampart/contracts';

/*
 * The network programs beside the BPF LSM backend under Debian 12's own kernel (6.1): tests/vm/run.sh
 * boots it in qemu (TCG) with tests/vm/net-init.sh as /init. There the VM is the whole machine, so
 * the helper attaches to the cgroup v2 root by default, as in production; pins and restarts included.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Check {
  name: string;
  actor: 'restricted' | 'free';
  expect: string;
  got: string;
}

let skipped = '';
let output = '';
const checks: Check[] = [];
const events: GuardNetDenial[] = [];

const lines = (prefix: string): string[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith(`${prefix} `))
    .map((line) => line.slice(prefix.length + 1));

beforeAll(() => {
  const run = spawnSync('bash', [path.join(guardDir, 'tests/vm/run.sh')], {
    encoding: 'utf8',
    timeout: 280_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, GUARD_VM_INIT: 'net-init.sh' },
  });
  output = `${run.stdout ?? ''}`;
  if (run.status === 3) {
    skipped = output.split('\n').find((line) => line.startsWith('SKIP')) ?? 'SKIP the VM cannot run here';
    return;
  }
  if (run.status !== 0) throw new Error(`VM run failed (${run.status ?? run.signal}):\n${output.slice(-4000)}\n${run.stderr ?? ''}`);
  for (const line of lines('NCHECK')) checks.push(JSON.parse(line) as Check);
  for (const line of lines('EVENT')) events.push(guardNetDenialSchema.parse(JSON.parse(line)));
});

const expectCheck = (name: string, actor: Check['actor'], want: string) => {
  const check = checks.find((c) => c.name === name && c.actor === actor);
  expect(check, `${name} by ${actor} in:\n${output.slice(-3000)}`).toMatchObject({ expect: want, got: want });
};

describe('network denial beside BPF LSM under Debian 12 kernel 6.1', () => {
  it('runs both the lsm backend and the network programs, pinned', (ctx) => {
    if (skipped) ctx.skip(skipped);
    const hello = JSON.parse(lines('HELLO')[0] ?? '{}') as { hello?: unknown };
    expect(guardHelloSchema.parse(hello.hello)).toMatchObject({ backend: 'lsm', net: true, net_cause: '', pinned: true });
    expect(hello.hello).toMatchObject({ net_pinned: true });
  });

  it('denies the restricted executable TCP and UDP over IPv4 and IPv6, except to its allowed peer', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectCheck('tcp4', 'restricted', 'EPERM');
    expectCheck('tcp6', 'restricted', 'EPERM');
    expectCheck('udp4', 'restricted', 'EPERM');
    expectCheck('udp6', 'restricted', 'EPERM');
    expectCheck('tcp4-allowed', 'restricted', 'ECONNREFUSED'); // reached the (closed) port
  });

  it('leaves an unrestricted executable alone', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectCheck('tcp4', 'free', 'ECONNREFUSED');
    expectCheck('tcp6', 'free', 'ECONNREFUSED');
    expectCheck('udp4', 'free', 'ok');
  });

  it('keeps denying after the helper is killed and restarted, and stops after --unload', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectCheck('pinned-after-kill', 'restricted', 'EPERM');
    expectCheck('restarted', 'restricted', 'EPERM');
    const hello2 = JSON.parse(lines('HELLO2')[0] ?? '{}') as { hello?: unknown };
    expect(guardHelloSchema.parse(hello2.hello)).toMatchObject({ net: true });
    expectCheck('unloaded', 'restricted', 'ECONNREFUSED');
  });

  it('reports each denial with protocol, family, peer, port, executable and rule', (ctx) => {
    if (skipped) ctx.skip(skipped);
    for (const [proto, family, peer] of [['tcp', 4, '127.0.0.1'], ['tcp', 6, '::1'], ['udp', 4, '127.0.0.1'], ['udp', 6, '::1']] as const)
      expect(events).toContainEqual(expect.objectContaining({ proto, family, peer, port: 9, rule: 'process:5', exe: '/t/restricted', comm: 'restricted' }));
  });
});
