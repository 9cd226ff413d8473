import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bytesOfPath } from '@rampart/webshell';
import { startCloseWriteWatch } from '../src/trojan/close-write-watch.ts';
import { Quarantine } from '../src/trojan/quarantine.ts';
import { useCleanups } from './helpers.ts';
import { phpShell, scanDone, trojanAgent, until } from './trojan-support.ts';

/*
 * File names that are not valid UTF-8 (GBK bytes, as a Windows tool or an attacker writes them) on
 * real files: the watch reports them, the scan reads them, isolation stores their name as `\xNN`
 * escapes and restore puts the file back under the exact original bytes. UTF-8 and backslash names
 * go through the same quarantine unchanged.
 */

const { cleanups, tempDir } = useCleanups();
const run = promisify(execFile);
const gbkName = Buffer.from([0xb2, 0xe2, 0xca, 0xd4, 0x2e, 0x70, 0x68, 0x70]); // "测试.php" in GBK
const gbkEncoded = '\\xb2\\xe2\\xca\\xd4.php';
const namesIn = (dir: string): string[] => fs.readdirSync(Buffer.from(dir), { encoding: 'buffer' }).map((name) => name.toString('hex'));

describe('trojan protection: file names that are not UTF-8', () => {
  it('the watch isolates a GBK-named web shell written by another process, and restore brings back its exact name', async () => {
    const dir = await tempDir();
    const t = await trojanAgent(dir);
    cleanups.push(() => t.close());
    const www = path.join(dir, 'www');
    await mkdir(path.join(www, 'uploads'), { recursive: true });
    await t.client.call('module.switch', { modules: ['trojan'], status: 1 });
    await t.client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });
    await until(() => t.client.call('trojan.status', {}), (s) => s.watch === 'watching');

    const uploads = path.join(www, 'uploads');
    // The shell builds the name from octal escapes: Node's own argv could only carry UTF-8.
    await run('sh', ['-c', `printf '%s' "$1" > "$2/$(printf '\\262\\342\\312\\324.php')"`, 'sh', phpShell, uploads]);
    const closedAt = Date.now();
    // (Not checked that the file arrived first: the watch may already have taken it; restore below proves its name.)
    const gone = await until(() => namesIn(uploads).length, (n) => n === 0, 3000, 5);
    const latency = Date.now() - closedAt;
    expect(gone).toBe(0);
    expect(latency).toBeLessThan(1000);
    console.log(`trojan watch, GBK name: close → isolated in ${latency} ms`);

    const shown = `${uploads}/${gbkEncoded}`;
    const isolated = await t.client.call('trojan.isolate.list', { offset: 0, limit: 10 });
    expect(isolated.list).toHaveLength(1);
    expect(isolated.list[0]).toMatchObject({ originalPath: shown, name: gbkEncoded, source: 'realtime', risk: 'high' });
    const results = await until(() => t.client.call('trojan.results.list', { watch: true, flaggedOnly: true, offset: 0, limit: 10 }), (r) => r.total >= 1);
    expect(results.list[0]).toMatchObject({ path: shown, handled: 'isolated' });

    expect(await t.client.call('trojan.isolate.restore', { ids: [isolated.list[0]!.id], overwrite: false, account: 'admin' })).toMatchObject({ changed: 1 });
    expect(namesIn(uploads)).toEqual([gbkName.toString('hex')]);
    expect(fs.readFileSync(Buffer.concat([Buffer.from(`${uploads}/`), gbkName]), 'utf8')).toBe(phpShell);

    // The escaped path as the console shows it is what an administrator can name for an audit scan.
    const started = await t.client.call('trojan.scan.start', { kind: 'audit', paths: [shown], account: 'admin' });
    expect(started.refused).toBeNull();
    expect(await scanDone(t.client, started.scan!.id)).toMatchObject({ state: 'complete', done: 1, paths: [shown] });
  }, 30_000);

  it('a protected folder whose own name is GBK is watched; one whose path holds a newline is refused with a reason and still scanned', async () => {
    const dir = await tempDir();
    const t = await trojanAgent(dir);
    cleanups.push(() => t.close());
    const gbkDir = Buffer.from([0xb2, 0xe2, 0xca, 0xd4]); // "测试" in GBK
    const site = Buffer.concat([Buffer.from(`${dir}/srv-`), gbkDir]);
    const shownSite = `${dir}/srv-\\xb2\\xe2\\xca\\xd4`;
    fs.mkdirSync(site);
    const newline = path.join(dir, 'odd\nsite');
    fs.mkdirSync(newline);
    fs.writeFileSync(path.join(newline, 'n.php'), `${phpShell}// other bytes than the shell restored (and so trusted) below\n`);
    await t.client.call('module.switch', { modules: ['trojan'], status: 1 });
    const added = await t.client.call('trojan.dirs.add', { dirs: [{ path: shownSite, remark: '', site: '' }, { path: newline, remark: '', site: '' }], account: 'admin' });
    expect(added).toMatchObject({ changed: 2, refused: null });
    await until(() => t.client.call('trojan.status', {}), (s) => s.watch === 'watching');
    const states = Object.fromEntries((await t.client.call('trojan.dirs.list', { offset: 0, limit: 10 })).list.map((d) => [d.path, d.state]));
    expect(states).toEqual({ [shownSite]: 'watching', [newline]: 'unwatchable' });
    // The list inotifywait reads: the GBK folder as its raw bytes, nothing else, readable by root only.
    const list = path.join(dir, 'state', 'trojan-watch.list');
    expect(fs.readFileSync(list).equals(Buffer.concat([site, Buffer.from('\n')]))).toBe(true);
    expect(fs.statSync(list).mode & 0o777).toBe(0o600);

    // Another process writes the shell; the folder's name comes from octal escapes too (argv is UTF-8).
    await run('sh', ['-c', `printf '%s' "$1" > "$2$(printf '\\262\\342\\312\\324')/$(printf '\\262\\342\\312\\324.php')"`, 'sh', phpShell, `${dir}/srv-`]);
    const closedAt = Date.now();
    const names = () => fs.readdirSync(site, { encoding: 'buffer' }).map((name) => name.toString('hex'));
    const gone = await until(names, (n) => n.length === 0, 3000, 5);
    const latency = Date.now() - closedAt;
    expect(gone).toEqual([]);
    expect(latency).toBeLessThan(1000);
    console.log(`trojan watch, GBK-named folder: close → isolated in ${latency} ms`);

    const isolated = await t.client.call('trojan.isolate.list', { offset: 0, limit: 10 });
    expect(isolated.list).toHaveLength(1);
    expect(isolated.list[0]).toMatchObject({ originalPath: `${shownSite}/${gbkEncoded}`, source: 'realtime' });
    expect(await t.client.call('trojan.isolate.restore', { ids: [isolated.list[0]!.id], overwrite: false, account: 'admin' })).toMatchObject({ changed: 1 });
    expect(names()).toEqual([gbkName.toString('hex')]);
    expect(fs.readFileSync(Buffer.concat([site, Buffer.from('/'), gbkName]), 'utf8')).toBe(phpShell);

    // Not watched, but a full scan still covers the newline folder.
    const started = await t.client.call('trojan.scan.start', { kind: 'full', account: 'admin' });
    expect(started.refused).toBeNull();
    await scanDone(t.client, started.scan!.id);
    const found = await t.client.call('trojan.results.list', { scanId: started.scan!.id, flaggedOnly: true, offset: 0, limit: 10 });
    expect(found.list.map((r) => r.path)).toContain(path.join(newline, 'n.php'));
  }, 30_000);

  it('the watch reports a GBK name in a GBK-named folder moved in whole (walked, not seen written)', async () => {
    const dir = await tempDir();
    const watched = path.join(dir, 'www');
    const outside = path.join(dir, 'unpacked');
    fs.mkdirSync(watched);
    const inner = Buffer.concat([Buffer.from(`${outside}/`), Buffer.from([0xd6, 0xd0])]); // "中" in GBK
    fs.mkdirSync(inner, { recursive: true });
    fs.writeFileSync(Buffer.concat([inner, Buffer.from('/'), gbkName]), phpShell);
    const seen: string[] = [];
    const watch = startCloseWriteWatch({ onFile: (file) => seen.push(file), listFile: path.join(dir, 'watch.list') });
    cleanups.push(() => watch.close());
    await watch.update([watched]);
    fs.renameSync(outside, path.join(watched, 'unpacked'));
    const expected = `${watched}/unpacked/\\xd6\\xd0/${gbkEncoded}`;
    expect(await until(() => seen, (files) => files.includes(expected), 3000, 5)).toContain(expected);
  });

  it('isolate then restore round-trips GBK, UTF-8 and backslash names byte for byte', async () => {
    const dir = await tempDir();
    const site = path.join(dir, 'www');
    fs.mkdirSync(site);
    const quarantine = Quarantine.open(path.join(dir, 'state'));
    cleanups.push(() => quarantine.close());
    const names: { bytes: Buffer; shown: string }[] = [
      { bytes: gbkName, shown: gbkEncoded },
      { bytes: Buffer.from('测试.php'), shown: '测试.php' },
      { bytes: Buffer.from('a\\b.php'), shown: 'a\\b.php' },
      { bytes: Buffer.from('\\xb2.php'), shown: '\\\\xb2.php' },
    ];
    for (const [index, { bytes, shown }] of names.entries()) {
      const content = `${phpShell}// ${index}\n`;
      const file = Buffer.concat([Buffer.from(`${site}/`), bytes]);
      fs.writeFileSync(file, content);
      const result = quarantine.isolate(`${site}/${shown}`, { risk: 'high', reason: 'input_to_code_exec', rule: '', source: 'scan', findings: [] });
      if (!result.ok) throw new Error(`isolate ${shown}: ${result.key} ${result.detail}`);
      expect(result.item).toMatchObject({ name: shown, originalPath: `${site}/${shown}` });
      expect(bytesOfPath(result.item.originalPath).equals(file)).toBe(true);
      expect(fs.existsSync(file)).toBe(false);
      expect(quarantine.restore(result.item.id, false)).toEqual({ ok: true, path: `${site}/${shown}` });
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
    expect(namesIn(site).sort()).toEqual(names.map((n) => n.bytes.toString('hex')).sort());
  });
});
