import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { planReinforcement } from '../src/index.ts';
import { collectOpenDeleted } from '../src/facts/open-deleted.ts';
import { factsOf, makeRoot, removeRoots } from './fixture-root.ts';
import { judgeIn } from './judge-helper.ts';

/** The checks added for the Lynis suggestions the bench found uncovered (issue #23). */
afterAll(removeRoots);

const dpkgStatus = (...names: string[]) => names.map((n) => `Package: ${n}\nStatus: install ok installed\nVersion: 1\n`).join('\n');

describe('Lynis gap checks', () => {
  it('want libpam-tmpdir and needrestart installed (DEB-0280, DEB-0831)', async () => {
    const ids = ['packages.libpam_tmpdir', 'packages.needrestart'];
    const fixed = await judgeIn({ '/var/lib/dpkg/status': dpkgStatus('bash', 'libpam-tmpdir', 'needrestart') }, ids);
    expect(fixed['packages.libpam_tmpdir']).toMatchObject({ outcome: 'pass', evidence: [{ found: 'libpam-tmpdir installed' }] });
    expect(fixed['packages.needrestart']?.outcome).toBe('pass');
    const bare = await judgeIn({ '/var/lib/dpkg/status': dpkgStatus('bash') }, ids);
    expect(bare['packages.libpam_tmpdir']).toMatchObject({ outcome: 'fail', fixable: false, evidence: [{ found: 'libpam-tmpdir not installed', expected: 'libpam-tmpdir installed' }] });
    expect(bare['packages.needrestart']).toMatchObject({ outcome: 'fail', evidence: [{ found: 'needrestart not installed' }] });
  });

  it('want the hashing cost of the method in use set in login.defs, and fix it in place (AUTH-9230)', async () => {
    const id = 'pam.hash_rounds';
    const yescrypt = await judgeIn({ '/etc/login.defs': 'ENCRYPT_METHOD YESCRYPT\nYESCRYPT_COST_FACTOR 7\n' }, [id]);
    expect(yescrypt[id]).toMatchObject({ outcome: 'pass', evidence: [{ file: '/etc/login.defs', line: 2, found: 'YESCRYPT_COST_FACTOR 7' }] });
    const sha = await judgeIn({ '/etc/login.defs': 'ENCRYPT_METHOD SHA512\nSHA_CRYPT_MIN_ROUNDS 5000\nSHA_CRYPT_MAX_ROUNDS 1000\n' }, [id]);
    expect(sha[id]).toMatchObject({ outcome: 'fail', evidence: [{ found: 'SHA_CRYPT_MIN_ROUNDS 5000' }, { line: 3, found: 'SHA_CRYPT_MAX_ROUNDS 1000', expected: 'SHA_CRYPT_MIN_ROUNDS / SHA_CRYPT_MAX_ROUNDS >= 5000' }] });
    const bareText = '# login.defs\nENCRYPT_METHOD YESCRYPT\n';
    const bare = await judgeIn({ '/etc/login.defs': bareText }, [id]);
    expect(bare[id]).toMatchObject({ outcome: 'fail', fixable: true, evidence: [{ found: 'ENCRYPT_METHOD YESCRYPT, YESCRYPT_COST_FACTOR not set' }] });
    expect((await judgeIn({ '/etc/login.defs': 'ENCRYPT_METHOD MD5\n' }, [id]))[id]?.outcome).toBe('not_applicable');
    // The fix is the journaled in-place login.defs edit the other login.defs checks use.
    const plan = planReinforcement(await factsOf(makeRoot({ '/etc/login.defs': bareText })), [id]);
    expect(plan.items[0]?.steps).toMatchObject([{ kind: 'write', path: '/etc/login.defs', content: expect.stringMatching(/^YESCRYPT_COST_FACTOR\s+5$/m) }]);
  });

  it('want the FireWire storage modules disabled, with a modprobe.d drop-in as fix (STRG-1846)', async () => {
    const ids = ['modules.firewire_core', 'modules.firewire_ohci'];
    const fixed = await judgeIn({ '/etc/modprobe.d/firewire.conf': 'install firewire-core /bin/true\ninstall firewire_ohci /bin/false\n' }, ids);
    expect(fixed['modules.firewire_core']).toMatchObject({ outcome: 'pass', evidence: [{ file: '/etc/modprobe.d/firewire.conf', line: 1 }] });
    expect(fixed['modules.firewire_ohci']).toMatchObject({ outcome: 'pass', evidence: [{ line: 2 }] });
    const bare = await judgeIn({}, ids);
    expect(bare['modules.firewire_ohci']).toMatchObject({ outcome: 'fail', fixable: true, evidence: [{ expected: 'install firewire-ohci /bin/false' }] });
    const plan = planReinforcement(await factsOf(makeRoot({})), ['modules.firewire_core']);
    expect(plan.items[0]?.steps[0]).toMatchObject({ kind: 'write', content: expect.stringContaining('install firewire-core /bin/false\nblacklist firewire-core\n') });
  });

  // A /proc written as files: the fd links carry the kernel's own ` (deleted)` suffix.
  const proc = (fdTarget: string) => ({ '/proc/4242/stat': '4242 (rsyslogd) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 4 0 900 0 0\n', '/proc/4242/fd/3': { link: fdTarget }, '/proc/4242/fd/4': { link: '/memfd:pulse (deleted)' } });

  it('list processes holding deleted files open, leaving memfd out (LOGG-2190)', async () => {
    const id = 'logging.deleted_open_files';
    expect((await judgeIn(proc('/var/log/syslog'), [id]))[id]).toMatchObject({ outcome: 'pass', evidence: [{ note: 'no process holds a deleted file open' }] });
    const bad = await judgeIn(proc('/var/log/syslog.1 (deleted)'), [id]);
    expect(bad[id]).toMatchObject({ outcome: 'fail', fixable: false, evidence: [{ file: '/var/log/syslog.1', found: 'rsyslogd (pid 4242, fd 3)', expected: 'closed' }] });
    expect((await judgeIn({}, [id]))[id]?.outcome).toBe('not_applicable');
  });

  it('find a real process that holds a deleted file open in the live /proc', async () => {
    const file = `/tmp/rampart-deleted-${process.pid}-${Date.now()}.log`;
    const script = `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(file)},'w');fs.unlinkSync(${JSON.stringify(file)});console.log('ready');setTimeout(()=>fs.closeSync(fd),20000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const held = (collectOpenDeleted('/') ?? []).filter((f) => f.pid === child.pid);
      expect(held).toEqual([expect.objectContaining({ path: file, name: expect.any(String) })]);
    } finally {
      child.kill();
    }
  });
});
