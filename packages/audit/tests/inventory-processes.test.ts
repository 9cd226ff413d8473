import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectProcesses } from '../src/inventory/processes.ts';
import { parseProcNet } from '../src/inventory/proc-net.ts';
import { isPackaged } from '../src/inventory/dpkg-files.ts';
import { makeRoot, removeRoots } from './fixture-root.ts';

/*
 * The process audit on this machine's real /proc, with real children: a copy of /bin/sleep run from a
 * temp dir and then deleted, a shell started by a program named `nginx`, a socket this test listens
 * on. Package ownership reads this machine's own dpkg lists (root `/`, read only).
 */
const children: ChildProcess[] = [];
const dirs: string[] = [];
let server: Server | undefined;
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  server?.close();
  removeRoots();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-proc-'));
  dirs.push(dir);
  return dir;
}
function run(file: string, args: string[]): ChildProcess {
  const child = spawn(file, args, { stdio: 'ignore' });
  children.push(child);
  return child;
}
const one = (pid: number, root = '/') => collectProcesses({ root, pids: [pid], allModules: true })[0];
async function until<T>(read: () => T | undefined, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('condition not reached');
}

describe('the process audit on the real /proc', () => {
  it('lists a packaged program with its user, path, start time, parent and libraries, and no finding', async () => {
    const started = Date.now();
    const child = run('/bin/sleep', ['30']);
    const p = await until(() => one(child.pid!), (v) => v.path === '/usr/bin/sleep');
    expect(p).toMatchObject({ name: 'sleep', user: 'root', uid: 0, deleted: false, packaged: true, findings: [], listening: [] });
    expect(p.parent).toEqual({ pid: process.pid, name: path.basename(process.execPath) });
    expect(Math.abs(p.start_time - started)).toBeLessThan(2000);
    expect(p.modules.some((m) => /\/libc\.so\.6$/.test(m))).toBe(true);
    expect(p.modules_total).toBe(p.modules.length);
    // Kernel threads are not processes of the audit.
    expect(collectProcesses({ root: '/', pids: [2] })).toEqual([]);
  });

  it('flags an executable deleted while running, from a temp dir, not from a package', async () => {
    const copy = path.join(tempDir(), 'sleepy');
    copyFileSync('/bin/sleep', copy);
    const child = run(copy, ['30']);
    await until(() => one(child.pid!), (v) => v.path === copy);
    unlinkSync(copy);
    const p = one(child.pid!)!;
    expect(p).toMatchObject({ name: 'sleepy', path: copy, deleted: true, packaged: false });
    expect(p.findings).toEqual([
      { kind: 'exe_deleted', level: 'danger', detail: copy },
      { kind: 'exe_in_temp', level: 'danger', detail: copy },
    ]);
  });

  it('flags a shell whose parent is a web server, and the sockets a process listens on', async () => {
    const nginx = path.join(tempDir(), 'nginx');
    copyFileSync('/bin/bash', nginx);
    // `; :` keeps each shell from exec-ing its last command, so the tree stays nginx → sh → sleep.
    const web = run(nginx, ['-c', 'sh -c "sleep 30; :"; :']);
    const all = await until(() => collectProcesses({ root: '/' }), (list) => list.some((p) => p.name === 'dash' && p.parent?.pid === web.pid));
    const shell = all.find((p) => p.name === 'dash' && p.parent?.pid === web.pid)!;
    expect(shell.findings).toContainEqual({ kind: 'web_shell', level: 'danger', detail: `nginx (${web.pid}) → sh` });

    server = createServer();
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const self = one(process.pid)!;
    expect(self.listening).toContainEqual({ protocol: 'tcp', address: '127.0.0.1', port });
    expect(self.findings.find((f) => f.kind === 'listening')?.detail).toContain(`tcp 127.0.0.1:${port}`);
  });

  it('leaves ownership unknown when the root has no dpkg lists, and reads /proc/net and merged-/usr paths', () => {
    const child = run('/bin/sleep', ['30']);
    // The first passwd line with a uid names it, as getpwuid(3) does: root, not a later toor.
    expect(one(child.pid!, makeRoot({ '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0::/root:/bin/sh\n' }))).toMatchObject({ user: 'root', packaged: null, findings: [] });
    const tcp = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0 100 0 0 10 0\n   1: 0100007F:1F91 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 4243 1 0 100 0 0 10 0\n';
    expect([...parseProcNet(tcp, 'tcp')]).toEqual([[4242, { protocol: 'tcp', address: '127.0.0.1', port: 8080 }]]);
    const tcp6 = '  sl\n   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 77 1\n';
    expect(parseProcNet(tcp6, 'tcp6').get(77)).toEqual({ protocol: 'tcp6', address: '::', port: 22 });
    expect(isPackaged(new Set(['/bin/bash']), '/usr/bin/bash')).toBe(true);
    expect(isPackaged(new Set(['/usr/bin/env']), '/bin/env')).toBe(true);
    expect(isPackaged(new Set(['/bin/bash']), '/opt/bash')).toBe(false);
  });
});
