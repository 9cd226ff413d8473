import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardDenialSchema, type GuardDenial } from '@rampart/contracts';
import { denialEvent, planGuard } from '@rampart/guard';

/*
 * User protection's lock, enforced for real by BPF LSM: tests/vm/run.sh boots Debian 12's kernel
 * with tests/vm/account-init.sh as /init (its own boot, so the tamper checks in init.sh stay apart).
 * The VM's /etc/passwd, shadow, group and gshadow carry the account slots; a write-and-rename over
 * /etc/passwd, Debian's useradd and busybox's account tool are denied and the files are unchanged;
 * without the slots (the timed unlock) both tools go through.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Debian's own useradd (package passwd), copied into the VM with its libraries. */
const useradd = existsSync('/usr/sbin/useradd') ? '/usr/sbin/useradd' : '';

interface Check {
  name: string;
  op: string;
  path: string;
  expect: number;
  got: number | null;
}
interface Result {
  name: string;
  expect_ok: boolean;
  code: number;
  output: string;
}

let skipped = '';
let output = '';
const lines = (prefix: string): string[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith(`${prefix} `))
    .map((line) => line.slice(prefix.length + 1));
const checks = () => lines('CHECK').map((line) => JSON.parse(line) as Check);
const results = () => lines('RESULT').map((line) => JSON.parse(line) as Result);
const events = (): GuardDenial[] => lines('EVENT').map((line) => guardDenialSchema.parse(JSON.parse(line)));

beforeAll(() => {
  const run = spawnSync('bash', [path.join(guardDir, 'tests/vm/run.sh')], { encoding: 'utf8', timeout: 280_000, maxBuffer: 64 << 20, env: { ...process.env, GUARD_VM_INIT: 'account-init.sh', GUARD_VM_EXTRA_BINS: useradd } });
  output = `${run.stdout ?? ''}`;
  if (run.status === 3) {
    skipped = output.split('\n').find((line) => line.startsWith('SKIP')) ?? 'SKIP the VM cannot run here';
    return;
  }
  if (run.status !== 0) throw new Error(`VM run failed (${run.status ?? run.signal}):\n${output.slice(-4000)}\n${run.stderr ?? ''}`);
}, 300_000);

describe('user protection under Debian 12 kernel 6.1 (BPF LSM)', () => {
  it('runs (or says why not)', () => {
    if (skipped) console.warn(`account VM test skipped: ${skipped}`);
    expect(skipped || output).toMatch(skipped ? /^SKIP/ : /HELPER rampart-guard: backend lsm/);
  });

  it('the VM plan’s slot is the one the planner makes for an account rule', ({ skip }) => {
    if (skipped) skip();
    const { plan } = planGuard({
      tamper: [],
      naming: [],
      sources: [{ module: 'account', enabled: true, rules: [{ id: 'passwd', path: '/etc/passwd', sub_path: '*', process: '*', exempt: [], level: 1, ops: ['w', 'd', 'n', 't'], notify: true }] }],
      resolved: { '/etc/passwd': { dev: 1, ino: 2, dir: false } },
      exes: {},
      selfPaths: [],
      trustedPids: [],
      enforce: true,
      generation: 1,
      backendOps: ['r', 'x', 'd', 'c', 'n', 'w', 't'],
    });
    expect(JSON.parse(lines('SLOT')[0]!)).toEqual(plan.sets[0]!.slots[0]);
  });

  it('locked: rename over /etc/passwd (useradd’s last step), write, truncate, delete, touch are EPERM; reads and an unlocked copy are not', ({ skip }) => {
    if (skipped) skip();
    const byName = new Map(checks().map((c) => [c.name, c]));
    for (const name of ['account-rename-over-passwd', 'account-write-passwd', 'account-trunc-shadow', 'account-unlink-group', 'account-touch-gshadow']) {
      expect(byName.get(name), name).toMatchObject({ expect: 1, got: 1 });
    }
    expect(byName.get('account-read-passwd')).toMatchObject({ got: 0 });
    expect(byName.get('account-rename-over-copy')).toMatchObject({ got: 0 });
  });

  it('busybox’s account tool and mv over /etc/passwd fail, and the four files are unchanged', ({ skip }) => {
    if (skipped) skip();
    const byName = new Map(results().map((r) => [r.name, r]));
    expect(byName.get('account-passwd-tool-locked')!.code).not.toBe(0);
    expect(byName.get('account-passwd-tool-locked')!.output).toMatch(/Operation not permitted/);
    expect(byName.get('account-mv-over-locked')!.code).not.toBe(0);
    expect(lines('UNCHANGED')).toEqual(['true']);
    expect(lines('MALLORY')).toEqual(['0']);
  });

  it('Debian’s useradd is refused while locked (a user-creation event) and adds its user once unlocked', ({ skip }) => {
    if (skipped || !useradd) skip();
    const byName = new Map(results().map((r) => [r.name, r]));
    expect(byName.get('account-useradd-locked')).toMatchObject({ code: 1, output: expect.stringContaining('cannot open /etc/passwd') });
    const denial = events().find((d) => d.comm === 'useradd');
    expect(denial).toMatchObject({ op: 'w', rule: 'account:passwd', path: '/etc/passwd' });
    expect(denialEvent(denial!).kind).toBe('account.user_create_denied');
    expect(byName.get('account-useradd-unlocked')).toMatchObject({ code: 0 });
    expect(lines('BOB')).toEqual(['1']);
  });

  it('each denial is an account event: replacing /etc/passwd is a refused user creation', ({ skip }) => {
    if (skipped) skip();
    const denials = events();
    const mv = denials.find((d) => d.comm === 'mv');
    expect(mv).toMatchObject({ op: 'd', rule: 'account:passwd', path: '/etc/passwd' });
    expect(denialEvent(mv!)).toMatchObject({ kind: 'account.user_create_denied', module: 'account' });
    const write = denials.find((d) => d.op === 'w' && d.rule === 'account:passwd' && d.comm === 'probe')!;
    expect(denialEvent(write)).toMatchObject({ kind: 'account.file_denied', module: 'account' });
    expect(new Set(denials.map((d) => d.rule))).toEqual(new Set(['account:passwd', 'account:shadow', 'account:group', 'account:gshadow']));
  });

  it('unlocked (a plan without the account slots): the same tool changes the password file', ({ skip }) => {
    if (skipped) skip();
    expect(JSON.parse(lines('APPLY')[0]!)).toMatchObject({ ok: true, applied: { generation: 2, objects: 0 } });
    expect(results().find((r) => r.name === 'account-passwd-tool-unlocked')).toMatchObject({ code: 0 });
    // passwd -d emptied alice's hash
    expect(lines('ALICE')).toEqual(['']);
  });
});
