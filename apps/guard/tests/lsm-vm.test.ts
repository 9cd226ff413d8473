import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardDenialSchema, guardHelloSchema, type GuardDenial } from '@rampart/contracts';

/*
 * The BPF LSM backend, enforced for real: tests/vm/run.sh boots Debian 12's kernel (6.1) in qemu
 * (TCG) with the helper in an initramfs; its /init (tests/vm/init.sh) applies a plan and attempts
 * each operation from a restricted and an exempt executable, printing the errno each got.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EPERM = 1;

interface Check {
  name: string;
  actor: 'restricted' | 'exempt' | 'trusted';
  op: string;
  path: string;
  expect: number;
  got: number | null;
}

let skipped = '';
let output = '';
const checks: Check[] = [];
const events: GuardDenial[] = [];
const eventsAfterRestart: GuardDenial[] = [];

const lines = (prefix: string): string[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith(`${prefix} `))
    .map((line) => line.slice(prefix.length + 1));

beforeAll(() => {
  const run = spawnSync('bash', [path.join(guardDir, 'tests/vm/run.sh')], { encoding: 'utf8', timeout: 280_000, maxBuffer: 64 << 20 });
  output = `${run.stdout ?? ''}`;
  if (run.status === 3) {
    skipped = output.split('\n').find((line) => line.startsWith('SKIP')) ?? 'SKIP the VM cannot run here';
    return;
  }
  if (run.status !== 0) throw new Error(`VM run failed (${run.status ?? run.signal}):\n${output.slice(-4000)}\n${run.stderr ?? ''}`);
  for (const line of lines('CHECK')) checks.push(JSON.parse(line) as Check);
  for (const line of lines('EVENT')) events.push(guardDenialSchema.parse(JSON.parse(line)));
  for (const line of lines('EVENT2')) eventsAfterRestart.push(guardDenialSchema.parse(JSON.parse(line)));
});

const find = (name: string, actor: Check['actor']): Check => {
  const check = checks.find((c) => c.name === name && c.actor === actor);
  if (!check) throw new Error(`no check ${name}/${actor} in the VM output:\n${output.slice(-3000)}`);
  return check;
};

/** Asserts that the check ran and got the errno expected (0 allowed, 1 EPERM denied). */
const expectErrno = (name: string, actor: Check['actor'], errno: number): void => {
  expect(find(name, actor), `${name} by ${actor}`).toMatchObject({ expect: errno, got: errno });
};

describe('BPF LSM backend under Debian 12 kernel 6.1', () => {
  it('boots the 6.1 kernel with bpf among its LSMs and loads the programs', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expect(output).toMatch(/INFO kernel 6\.1\.\S+ lsm \S*bpf/);
    expect(output).toContain('HELPER rampart-guard: backend lsm');
    expect(output).toContain('HELPER rampart-guard: applied generation 7');
  });

  const denied = ['w-write', 'w-trunc', 'r-read', 'c-creat', 'c-mkdir', 'd-unlink', 'd-rmdir', 'n-rename-out', 'n-rename-in-over', 't-touch', 'w-chmod', 'w-chown', 'x-exec'];

  it('denies every operation to the restricted executable under a protected tree, at any depth', (ctx) => {
    if (skipped) ctx.skip(skipped);
    for (const name of [...denied, 'w-deep']) expectErrno(name, 'restricted', EPERM);
  });

  it('allows the same operations to the exempt executable', (ctx) => {
    if (skipped) ctx.skip(skipped);
    for (const name of denied) expectErrno(name, 'exempt', 0);
  });

  it('allows the restricted executable outside the protected tree', (ctx) => {
    if (skipped) ctx.skip(skipped);
    for (const name of ['w-write-outside', 'c-creat-outside', 'c-mkdir-outside', 'd-unlink-outside', 'd-rmdir-outside', 'n-rename-outside', 't-touch-outside', 'x-exec-outside']) {
      expectErrno(name, 'restricted', 0);
    }
  });

  it('lets an allow slot placed first open a sub-directory', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('open-write', 'restricted', 0);
    expectErrno('open-creat', 'restricted', 0);
  });

  it('denies only the operations a set covers (exec, not read)', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('x-only-exec', 'restricted', EPERM);
    expectErrno('x-only-read', 'restricted', 0);
    expectErrno('x-only-exec', 'exempt', 0);
  });

  it("denies the start of a program by its name wherever it is on the filesystem (a slot at the filesystem's root), to every process but the exempt one", (ctx) => {
    if (skipped) return ctx.skip();
    expectErrno('x-name-start', 'restricted', EPERM);
    expectErrno('x-name-start-deep', 'restricted', EPERM);
    expectErrno('x-name-start', 'exempt', 0);
    expectErrno('x-name-start-other', 'restricted', 0);
    expectErrno('x-name-start-read', 'restricted', 0);
    expect(events.some((e) => e.rule === 'process:9:start' && e.op === 'x' && e.path.endsWith('my-xmrig'))).toBe(true);
  });

  it('enforces naming rules: *.php, malformed names, dir-only and every name kind', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('name-suffix-php', 'restricted', EPERM);
    expectErrno('name-suffix-php', 'exempt', EPERM);
    expectErrno('name-malformed-php-jpg', 'restricted', EPERM);
    expectErrno('name-malformed-asp-semicolon', 'restricted', EPERM);
    expectErrno('name-malformed-trailing-space', 'restricted', EPERM);
    expectErrno('name-malformed-trailing-dot', 'restricted', EPERM);
    // the same script extensions as the fanotify decider (src/malformed-name.h), not only php/asp/jsp
    expectErrno('name-malformed-php5-jpg', 'restricted', EPERM);
    expectErrno('name-malformed-php-semicolon', 'restricted', EPERM);
    expectErrno('name-malformed-control', 'restricted', EPERM);
    expectErrno('name-malformed-invalid-utf8', 'restricted', EPERM);
    expectErrno('name-malformed-cut-utf8', 'restricted', EPERM);
    expectErrno('name-malformed-surrogate', 'restricted', EPERM);
    expectErrno('name-script-ext-last', 'restricted', 0);
    // continuation bytes are read as such in the kernel too (see name_malformed in guard.bpf.c)
    expectErrno('name-valid-utf8', 'restricted', 0);
    expectErrno('name-plain-jpg', 'restricted', 0);
    expectErrno('name-dir-prefix', 'restricted', EPERM);
    expectErrno('name-dir-plain', 'restricted', 0);
    expectErrno('name-file-prefix-not-dir', 'restricted', 0);
    expectErrno('name-contains', 'restricted', EPERM);
    expectErrno('name-exact', 'restricted', EPERM);
    expectErrno('name-exact-other', 'restricted', 0);
    expectErrno('name-prefix-suffix', 'restricted', EPERM);
    expectErrno('name-rename-in', 'restricted', EPERM);
    expectErrno('name-rename-in-plain', 'restricted', 0);
  });

  it('never denies a trusted pid, even of a restricted executable', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('trusted-write', 'trusted', 0);
  });

  it('reports each denial with its op, rule, path, process and executable', (ctx) => {
    if (skipped) ctx.skip(skipped);
    const has = (op: string, rule: string, where: string, exe = '/vm/restricted/probe'): void => {
      expect(events, `${op} ${rule} ${where}`).toContainEqual(expect.objectContaining({ op, rule, path: where, exe, comm: 'probe', uid: 0, notify: true }));
    };
    has('w', 'tamper:1', '/t/prot/f');
    has('r', 'tamper:1', '/t/prot/f');
    has('t', 'tamper:1', '/t/prot/f');
    has('c', 'tamper:1', '/t/prot/new');
    has('c', 'tamper:1', '/t/prot/newd');
    has('d', 'tamper:1', '/t/prot/del1');
    has('d', 'tamper:1', '/t/prot/rmd1');
    has('n', 'tamper:1', '/t/prot/mv1');
    has('c', 'tamper:1', '/t/prot/f2'); // rename in over f2: the new name is refused first
    has('w', 'tamper:1', '/t/prot/a/b/c/deep');
    has('x', 'tamper:3', '/t/noexec/run.sh');
    has('c', 'name:1', '/t/up/x.php');
    has('c', 'name:1', '/t/up/y.php', '/vm/exempt/probe');
    has('c', 'name:1', '/t/up/a.php.jpg');
    has('c', 'name:1', '/t/up/a.php5.jpg');
    has('c', 'name:2', '/t/up/tmpdir');
    has('c', 'name:1', '/t/up/z.php');
    expect(events.every((e) => e.pid > 1 && e.time > 1_600_000_000_000)).toBe(true);
    // Nothing allowed was reported (under /t/free only the programs started by name are denied).
    const startByName = (e: GuardDenial) => e.rule === 'process:9:start' && e.op === 'x';
    expect(events.filter((e) => e.path === '/t/up/a.jpg' || (e.path.startsWith('/t/free') && !startByName(e)) || e.path.startsWith('/t/prot/open'))).toEqual([]);
    expect(events.filter(startByName).map((e) => e.path).sort()).toEqual(['/t/free/deep/er/my-xmrig', '/t/free/xmrig']);
  });

  it('folds a looping process into few events that count every denial', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('loop-write', 'restricted', EPERM);
    const loop = events.filter((e) => e.path === '/t/prot/loopf');
    expect(loop.length).toBeGreaterThanOrEqual(1);
    expect(loop.length).toBeLessThanOrEqual(3);
    expect(loop.reduce((sum, e) => sum + e.repeats, 0)).toBe(50);
  });

  it('keeps enforcing after the helper is killed, and a restarted helper reports the pinned generation', (ctx) => {
    if (skipped) ctx.skip(skipped);
    expectErrno('pinned-after-kill', 'restricted', EPERM);
    expectErrno('pinned-after-kill', 'exempt', 0);
    expect(output).toMatch(/INFO pins .*link_guard_file_open.*map_objects/);
    const hello = JSON.parse(lines('HELLO')[0] ?? '{}') as { ok: boolean; hello: unknown };
    expect(hello.ok).toBe(true);
    expect(guardHelloSchema.parse(hello.hello)).toMatchObject({ backend: 'lsm', generation: 7, pinned: true, cause: '', ops: ['r', 'x', 'd', 'c', 'n', 'w', 't'] });
    expectErrno('restarted-write', 'restricted', EPERM);
    // The denial made while no helper ran waits in the pinned ring buffer for the next one.
    expect(eventsAfterRestart.filter((e) => e.op === 'w' && e.rule === 'tamper:1').length).toBeGreaterThanOrEqual(2);
  });

  it('applies plans over the socket: enforce off, on again, and refuses a malformed plan', (ctx) => {
    if (skipped) ctx.skip(skipped);
    const applies = lines('APPLY').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(applies[0]).toEqual({ id: 2, ok: true, applied: { generation: 8, objects: 5, sets: 5, exes: 3 } });
    expectErrno('enforce-off-write', 'restricted', 0);
    expect(applies[1]).toMatchObject({ id: 3, ok: true, applied: { generation: 9 } });
    expectErrno('enforce-on-write', 'restricted', EPERM);
    expect(applies[2]).toMatchObject({ id: 4, ok: false });
    expect(String(applies[2]?.error)).toContain('plan.enforce');
  });
});
