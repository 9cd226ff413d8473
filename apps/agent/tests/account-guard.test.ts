import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { startTestAgent, type TestAgent } from './helpers.ts';

/*
 * User protection on this host's fallback, end to end as root: the real helper (fanotify) locks a
 * COPY of an account database under /tmp (never the host's /etc/passwd). A write-open of the copied
 * passwd is denied and is an `account.file_denied` event; Debian's useradd (run with --prefix on the
 * copy) opens passwd O_RDWR before its write-and-rename, so it is stopped too; a bare copy renamed
 * over it is NOT stopped by fanotify, which is what the status says; unlocking lets both through.
 *
 * As in tamper-guard.test.ts, the helper runs in a private mount namespace whose test tree is a bind
 * mount of itself, so its marks never reach the host's filesystems; the writers enter it with nsenter.
 */

const helperBin = path.resolve(import.meta.dirname, '../../guard/build/rampart-guard');
const skip = process.geteuid?.() !== 0 ? 'not running as root' : !existsSync(helperBin) ? 'apps/guard/build/rampart-guard is not built (make -C apps/guard)' : null;
if (skip) console.warn(`account end-to-end test skipped: ${skip}`);

describe.skipIf(skip !== null)(`user protection with the real helper (fanotify)${skip ? ` — skipped: ${skip}` : ''}`, () => {
  let tree: string;
  let agent: TestAgent;
  let client: AgentClient;
  const passwd = () => path.join(tree, 'etc/passwd');
  const original = 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/bash\n';
  const runIn = (script: string) => spawnSync('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', '/bin/sh', '-c', script], { encoding: 'utf8', timeout: 10_000 });

  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'rampart-account-e2e-'));
    await mkdir(path.join(tree, 'etc'), { recursive: true });
    await writeFile(passwd(), original);
    await writeFile(path.join(tree, 'etc/shadow'), 'root:*:19000:0:99999:7:::\n');
    await writeFile(path.join(tree, 'etc/group'), 'root:x:0:\nsudo:x:27:alice\n');
    await writeFile(path.join(tree, 'etc/gshadow'), 'root:*::\n');
    const wrapper = path.join(tree, 'guard-ns.sh');
    await writeFile(wrapper, `#!/bin/sh\nexec unshare -m --propagation private /bin/sh -c 'mount --bind "$0" "$0" && exec "$@"' '${tree}' '${helperBin}' "$@" --pin-dir '${path.join(tree, 'pins')}'\n`);
    await chmod(wrapper, 0o755);
    agent = await startTestAgent({
      guard: { spawn: true, background: false, binary: wrapper, args: ['--backend', 'fanotify'], client: { backoff: { minMs: 50, maxMs: 500 } } },
      account: { etcDir: path.join(tree, 'etc'), sshdDropinDir: path.join(tree, 'sshd_config.d'), timers: false },
    });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await client.call('module.switch', { modules: ['account'], status: 1 });
    await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' });
    for (let i = 0; i < 100; i += 1) {
      if ((await client.call('account.status', {})).files[0]!.state === 'partial') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await agent?.dispose();
    await rm(tree, { recursive: true, force: true });
  });

  it('a write-open of the locked passwd copy gets EPERM and is an account event; the status is honest about rename', async () => {
    const status = await client.call('account.status', {});
    expect(status).toMatchObject({ backend: 'fanotify', user_create_blocked: false, notes: ['account_fanotify_rename'] });
    expect(status.files[0]).toMatchObject({ file: 'passwd', path: passwd(), locked: true, state: 'partial' });

    const denied = runIn(`echo 'mallory:x:0:0::/root:/bin/sh' >> '${passwd()}'`);
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/Operation not permitted/);
    expect(await readFile(passwd(), 'utf8')).toBe(original);

    let events: { kind: string; module: string; params: Record<string, string | number> }[] = [];
    for (let i = 0; i < 50 && !events.length; i += 1) {
      events = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind.startsWith('account.') && e.kind.endsWith('_denied'));
      if (!events.length) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(events[0]).toMatchObject({ kind: 'account.file_denied', module: 'account', params: { op: 'w', rule: 'account:passwd', path: passwd() } });

    // The fallback's limit, tested so the status's note stays true: a copy renamed over it goes through.
    const replaced = runIn(`cp '${passwd()}' '${passwd()}+' && echo 'eve:x:1001:1001::/home/eve:/bin/sh' >> '${passwd()}+' && mv '${passwd()}+' '${passwd()}'`);
    expect(replaced.status).toBe(0);
    expect(await readFile(passwd(), 'utf8')).toContain('eve:');
  });

  it('the real useradd (--prefix on the copy) is stopped: it opens passwd for writing before its rename; a refused user creation event', async () => {
    await agent.guard.tick();
    const before = await readFile(passwd(), 'utf8');
    const refused = runIn(`/usr/sbin/useradd --prefix '${tree}' -M -N -g 0 mallory`);
    expect(refused.status).not.toBe(0);
    expect(await readFile(passwd(), 'utf8')).toBe(before);
    let kinds: string[] = [];
    for (let i = 0; i < 50 && !kinds.includes('account.user_create_denied'); i += 1) {
      kinds = (await client.call('events.query', { limit: 50 })).list.map((e) => e.kind);
      if (!kinds.includes('account.user_create_denied')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(kinds).toContain('account.user_create_denied');
  });

  it('unlocked for a while, the write goes through', async () => {
    // the rename above gave passwd a new inode: the agent re-resolves on its next check
    await agent.guard.tick();
    expect(runIn(`echo 'x' >> '${passwd()}'`).status).not.toBe(0);
    await client.call('account.unlock', { minutes: 5, account: 'admin' });
    const allowed = runIn(`echo 'bob:x:1002:1002::/home/bob:/bin/sh' >> '${passwd()}'`);
    expect(allowed.status).toBe(0);
    expect(await readFile(passwd(), 'utf8')).toContain('bob:');
    // and the administrator's useradd works while unlocked
    expect(runIn(`/usr/sbin/useradd --prefix '${tree}' -M -N -g 0 carol`).status).toBe(0);
    expect(await readFile(passwd(), 'utf8')).toContain('carol:');
  });
});
