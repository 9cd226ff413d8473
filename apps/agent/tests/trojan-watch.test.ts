import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defaultTrojanSettings } from '@rampart/contracts';
import { useCleanups } from './helpers.ts';
import { benignPhp, trojanAgent, until } from './trojan-support.ts';

/*
 * The real-time watch through a real agent: inotify (close-write-watch.ts) reports files a child
 * process writes under a protected directory; the agent scans them in a worker and handles a web
 * shell per the settings within a second of the close.
 */

const { cleanups, tempDir } = useCleanups();
const run = promisify(execFile);

async function setup(moduleOn: boolean) {
  const dir = await tempDir();
  const t = await trojanAgent(dir);
  cleanups.push(() => t.close());
  const www = path.join(dir, 'www');
  await mkdir(path.join(www, 'uploads'), { recursive: true });
  if (moduleOn) await t.client.call('module.switch', { modules: ['trojan'], status: 1 });
  await t.client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });
  return { ...t, www };
}

/** A child process writes the file (the shell's redirection: open, write, close). */
const writeByChild = (file: string, text: string) => run('sh', ['-c', 'printf "%s" "$1" > "$2"', 'sh', text, file]);

describe('trojan protection: the real-time watch', () => {
  it('isolates a web shell a process writes into a protected directory within 1 s of the close', async () => {
    const { client, www } = await setup(true);
    const status = await until(() => client.call('trojan.status', {}), (s) => s.watch === 'watching');
    expect(status).toMatchObject({ enabled: true, watch: 'watching', watchedDirs: 1 });
    expect((await client.call('trojan.dirs.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('watching');

    // A benign file first: scanned, left alone, nothing stored.
    await writeByChild(path.join(www, 'uploads', 'hello.php'), benignPhp);
    // A file type outside the kill types is not even scanned.
    await writeByChild(path.join(www, 'uploads', 'notes.txt'), "<?php eval($_POST['x']);");

    const shell = path.join(www, 'uploads', 'x.php');
    const latencies: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const file = round === 0 ? shell : path.join(www, 'uploads', `x${round}.php`);
      await writeByChild(file, `<?php eval($_POST['k${round}']);`);
      // The child has exited: the file is closed. Measured from here.
      const closedAt = Date.now();
      await until(() => existsSync(file), (there) => !there, 3000, 5);
      latencies.push(Date.now() - closedAt);
      expect(existsSync(file)).toBe(false);
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    console.log(`trojan watch: close → isolated in ${latencies.join(', ')} ms`);

    const results = await until(() => client.call('trojan.results.list', { watch: true, flaggedOnly: true, offset: 0, limit: 10 }), (r) => r.total >= 3);
    expect(results.list.find((r) => r.path === shell)).toMatchObject({ scanId: null, handled: 'isolated', risk: 'high' });
    const isolated = await client.call('trojan.isolate.list', { offset: 0, limit: 10 });
    expect(isolated.list.find((i) => i.originalPath === shell)).toMatchObject({ source: 'realtime' });
    const detected = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'trojan.detected');
    expect(detected.find((e) => e.params['path'] === shell)).toMatchObject({ module: 'trojan', params: { handled: 'isolated', found_by: 'realtime' } });

    // Restored by the administrator: back, and the watch leaves it alone (restoring trusts its bytes).
    const item = isolated.list.find((i) => i.originalPath === shell)!;
    expect(await client.call('trojan.isolate.restore', { ids: [item.id], overwrite: false, account: 'admin' })).toMatchObject({ changed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(existsSync(shell)).toBe(true);
    expect((await client.call('trojan.isolate.list', { offset: 0, limit: 10 })).total).toBe(2);

    expect(await readFile(path.join(www, 'uploads', 'hello.php'), 'utf8')).toBe(benignPhp);
    expect(existsSync(path.join(www, 'uploads', 'notes.txt'))).toBe(true);
    expect((await client.call('trojan.status', {})).found24h).toBe(3);
  }, 30_000);

  it('records only when the handling says so, and skips a trusted file', async () => {
    const { client, www } = await setup(true);
    await client.call('trojan.settings.set', { settings: { ...defaultTrojanSettings, handling: 'record' }, account: 'admin' });
    await until(() => client.call('trojan.status', {}), (s) => s.watch === 'watching');
    const file = path.join(www, 'r.php');
    await writeByChild(file, "<?php eval($_POST['x']);");
    const results = await until(() => client.call('trojan.results.list', { watch: true, flaggedOnly: true, offset: 0, limit: 10 }), (r) => r.total === 1, 3000);
    expect(results.list[0]).toMatchObject({ path: file, handled: 'recorded' });
    expect(existsSync(file)).toBe(true);

    expect(await client.call('trojan.results.handle', { ids: [results.list[0]!.id], action: 'trust', account: 'admin' })).toMatchObject({ changed: 1 });
    // The same bytes written again: trusted, no new result.
    await writeByChild(path.join(www, 'r-copy.php'), "<?php eval($_POST['x']);");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await client.call('trojan.results.list', { watch: true, flaggedOnly: true, offset: 0, limit: 10 })).total).toBe(1);
  }, 30_000);

  it('watches nothing while the module is off, and starts when it is switched on', async () => {
    const { client, www } = await setup(false);
    expect(await client.call('trojan.status', {})).toMatchObject({ enabled: false, watch: 'off', watchedDirs: 0 });
    expect((await client.call('trojan.dirs.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_watched');
    const file = path.join(www, 'off.php');
    await writeByChild(file, "<?php eval($_POST['x']);");
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(existsSync(file)).toBe(true);
    expect((await client.call('trojan.results.list', { watch: true, flaggedOnly: false, offset: 0, limit: 10 })).total).toBe(0);

    await client.call('module.switch', { modules: ['trojan'], status: 1 });
    await until(() => client.call('trojan.status', {}), (s) => s.watch === 'watching');
    await writeByChild(path.join(www, 'on.php'), "<?php eval($_POST['y']);");
    await until(() => existsSync(path.join(www, 'on.php')), (there) => !there, 3000, 10);
    expect(existsSync(path.join(www, 'on.php'))).toBe(false);

    // Off again: the watch stops.
    await client.call('module.switch', { modules: ['trojan'], status: 0 });
    expect((await client.call('trojan.status', {})).watch).toBe('off');
  }, 30_000);
});
