import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTrojanSettings, renderEvent, type TrojanSettings, type WebshellFileResult } from '@rampart/contracts';
import { openTrojanDb } from '../src/trojan/trojan-db.ts';
import { useCleanups } from './helpers.ts';
import { benignPhp, jspShell, phpShell, scanDone, trojanAgent, until, writeFiles } from './trojan-support.ts';

/*
 * Trojan protection through the agent's real socket, on real files in temp dirs: protected
 * directories, settings, the custom library, full, audit and scheduled scans with their handling,
 * and what a restart leaves. The web shells are small generic ones written here. The watch is in
 * trojan-watch.test.ts.
 */

const { cleanups, tempDir } = useCleanups();

async function setup(trojan: Parameters<typeof trojanAgent>[1] = {}) {
  const dir = await tempDir();
  const t = await trojanAgent(dir, trojan);
  cleanups.push(() => t.close());
  const www = path.join(dir, 'www');
  await mkdir(www, { recursive: true });
  return { ...t, www };
}

const settingsWith = (patch: Partial<TrojanSettings>): TrojanSettings => ({ ...defaultTrojanSettings, realtime: false, ...patch });

describe('trojan protection: directories, settings and library', () => {
  it('adds directories by their real path and refuses what cannot be protected, with the path as detail', async () => {
    const { client, dir, www } = await setup();
    const link = path.join(dir, 'www-link');
    await symlink(www, link);
    const added = await client.call('trojan.dirs.add', { dirs: [{ path: link, remark: 'site', site: '' }], account: 'admin' });
    expect(added).toMatchObject({ changed: 1, refused: null });
    let list = await client.call('trojan.dirs.list', { offset: 0, limit: 50 });
    expect(list.list.map((d) => [d.path, d.remark, d.enabled])).toEqual([[www, 'site', true]]);

    // The same directory again (by its own name this time), a file, a missing path, the kernel's file systems and / are refused.
    expect(await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' })).toMatchObject({ changed: 0, refused: 'trojan_dir_duplicate', detail: www });
    await writeFile(path.join(dir, 'a-file'), 'x');
    expect(await client.call('trojan.dirs.add', { dirs: [{ path: path.join(dir, 'a-file'), remark: '', site: '' }], account: 'admin' })).toMatchObject({ refused: 'trojan_path_not_dir', detail: path.join(dir, 'a-file') });
    expect(await client.call('trojan.dirs.add', { dirs: [{ path: path.join(dir, 'missing'), remark: '', site: '' }], account: 'admin' })).toMatchObject({ refused: 'trojan_path_not_dir' });
    for (const refused of ['/proc', '/proc/self', '/sys', '/dev', '/run', '/']) {
      expect(await client.call('trojan.dirs.add', { dirs: [{ path: refused, remark: '', site: '' }], account: 'admin' })).toMatchObject({ changed: 0, refused: 'trojan_path_refused', detail: refused });
    }
    // System folders (and the broad parents of web roots, as themselves) are refused: files found there would be handled automatically.
    for (const system of ['/etc', '/etc/ssh', '/usr/bin', '/usr/lib/x86_64-linux-gnu', '/var/lib', '/usr', '/var', '/home']) {
      if (!(await stat(system).catch(() => null))?.isDirectory()) continue;
      expect(await client.call('trojan.dirs.add', { dirs: [{ path: system, remark: '', site: '' }], account: 'admin' }), system).toMatchObject({ changed: 0, refused: 'trojan_path_system', detail: system });
    }
    // One refused directory in a batch adds none of them.
    const other = path.join(dir, 'other');
    await mkdir(other);
    expect(await client.call('trojan.dirs.add', { dirs: [{ path: other, remark: '', site: '' }, { path: '/proc', remark: '', site: '' }], account: 'admin' })).toMatchObject({ refused: 'trojan_path_refused' });
    expect((await client.call('trojan.dirs.list', { offset: 0, limit: 50 })).total).toBe(1);
    // `..` never reaches the agent's checks.
    await expect(client.call('trojan.dirs.add', { dirs: [{ path: `${www}/../www`, remark: '', site: '' }], account: 'admin' })).rejects.toThrow();

    const id = added.ids[0]!;
    expect(await client.call('trojan.dirs.edit', { id, remark: 'main site', account: 'admin' })).toMatchObject({ changed: 1 });
    expect(await client.call('trojan.dirs.edit', { id: 999, remark: 'x', account: 'admin' })).toMatchObject({ refused: 'trojan_dir_not_found' });
    expect(await client.call('trojan.dirs.set_enabled', { ids: [id], enabled: false, account: 'admin' })).toMatchObject({ changed: 1 });
    list = await client.call('trojan.dirs.list', { offset: 0, limit: 50 });
    expect(list.list[0]).toMatchObject({ remark: 'main site', enabled: false, state: 'off' });
    // Enabled again but gone from the disk: `missing`, and a full scan has nothing to scan.
    await client.call('trojan.dirs.set_enabled', { ids: [id], enabled: true, account: 'admin' });
    await rm(www, { recursive: true });
    expect((await client.call('trojan.dirs.list', { offset: 0, limit: 50 })).list[0]).toMatchObject({ state: 'missing' });
    expect(await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).toMatchObject({ refused: 'trojan_no_dirs' });
    expect(await client.call('trojan.dirs.delete', { ids: [id], account: 'admin' })).toMatchObject({ changed: 1, ids: [id] });
    expect((await client.call('trojan.dirs.list', { offset: 0, limit: 50 })).total).toBe(0);

    const events = (await client.call('events.query', { limit: 100 })).list.filter((e) => e.kind === 'trojan.dirs_changed');
    expect(events.map((e) => e.params['action']).sort()).toEqual(['add', 'delete', 'disable', 'edit', 'enable']);
    expect(events.every((e) => e.account === 'admin')).toBe(true);
    const addEvent = events.find((e) => e.params['action'] === 'add')!;
    expect(renderEvent(addEvent.kind, addEvent.params, 'en-US').content).toBe(`admin: trojan protection directories added: ${www}`);
  });

  it('offers the local web sites’ roots and says which are protected already', async () => {
    const { client, dir, www } = await setup({
      discovery: { nginx: { command: '/nonexistent/nginx', args: ['-T'] }, apache: { command: '/nonexistent/apachectl', args: ['-S'] } },
    });
    // Recorded `nginx -T` output naming two roots: the temp www and a missing one.
    const dump = path.join(dir, 'nginx-T.txt');
    await writeFile(dump, `# configuration file /etc/nginx/nginx.conf:\nhttp {\n  server {\n    listen 80;\n    server_name shop.test;\n    root ${www};\n  }\n  server {\n    listen 8080;\n    server_name blog.test;\n    root /srv/blog/;\n  }\n}\n`);
    const t2 = await trojanAgent(await tempDir(), { discovery: { nginx: { command: 'cat', args: [dump] }, apache: { command: '/nonexistent/apachectl', args: ['-S'] } } });
    cleanups.push(() => t2.close());
    await t2.client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: 'shop.test' }], account: 'admin' });
    expect((await t2.client.call('trojan.dirs.discover', {})).list).toEqual([
      { site: 'shop.test', path: www, protected: true },
      { site: 'blog.test', path: '/srv/blog', protected: false },
    ]);
    // No web server at all: an empty list.
    expect((await client.call('trojan.dirs.discover', {})).list).toEqual([]);
  });

  it('stores settings with an operation event; the defaults before', async () => {
    const { client } = await setup();
    expect(await client.call('trojan.settings.get', {})).toEqual(defaultTrojanSettings);
    const next = settingsWith({ handling: 'record', sizeLimitKb: 100, whitelist: ['*/vendor/*'] });
    expect(await client.call('trojan.settings.set', { settings: next, account: 'admin' })).toMatchObject({ changed: 1, refused: null });
    expect(await client.call('trojan.settings.get', {})).toEqual(next);
    await expect(client.call('trojan.settings.set', { settings: { ...next, handling: 'trust' }, account: 'admin' } as never)).rejects.toThrow();
    const event = (await client.call('events.query', { limit: 20 })).list.find((e) => e.kind === 'trojan.settings_changed')!;
    expect(event).toMatchObject({ account: 'admin', module: 'trojan' });
    expect(String(event.params['what'])).toContain('handling');
  });

  it('refuses bad YARA text with the compiler’s message and a bad hash, changing nothing; a good library flags by rule and by hash', async () => {
    const { client, www } = await setup();
    const good = { rules: 'rule shop_backdoor { strings: $a = "SHOP-BACKDOOR-7" condition: $a }', hashes: [] as string[] };
    expect(await client.call('trojan.library.set', { library: good, account: 'admin' })).toMatchObject({ changed: 1, refused: null });

    const bad = await client.call('trojan.library.set', { library: { rules: 'rule broken { condition: $missing }', hashes: [] }, account: 'admin' });
    expect(bad).toMatchObject({ changed: 0, refused: 'trojan_rules_invalid' });
    expect(bad.detail).toMatch(/missing/);
    const badHash = await client.call('trojan.library.set', { library: { rules: '', hashes: ['abc'] }, account: 'admin' });
    expect(badHash).toMatchObject({ changed: 0, refused: 'trojan_hash_invalid' });
    expect(badHash.detail).toMatch(/line 1/);
    expect(await client.call('trojan.library.get', {})).toMatchObject({ ...good, ruleCount: 1, hashCount: 0 });

    // A file only the custom rule knows, and a benign-looking file whose hash is listed (upper case, with a comment).
    await writeFiles(www, { 'a.php': "<?php // SHOP-BACKDOOR-7\necho 1;\n", 'b.php': "<?php echo 'listed';\n" });
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update("<?php echo 'listed';\n").digest('hex');
    expect(await client.call('trojan.library.set', { library: { ...good, hashes: [`${hash.toUpperCase()}  # known shell`, '# from the incident report'] }, account: 'admin' })).toMatchObject({ changed: 1 });
    expect((await client.call('trojan.status', {})).customHashes).toBe(1);
    await client.call('trojan.settings.set', { settings: settingsWith({ handling: 'record' }), account: 'admin' });
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });
    const started = await client.call('trojan.scan.start', { kind: 'full', account: 'admin' });
    await scanDone(client, started.scan!.id);
    const results = await client.call('trojan.results.list', { scanId: started.scan!.id, flaggedOnly: true, offset: 0, limit: 50 });
    expect(results.list.map((r) => [r.name, r.reason, r.rule]).sort()).toEqual([['a.php', 'custom_rule', 'shop_backdoor'], ['b.php', 'custom_hash', '']]);
  });
});

describe('trojan protection: scans and handling', () => {
  it('a full scan isolates web shells by default: results, quarantine, events; benign files stay', async () => {
    const { client, www } = await setup();
    await client.call('trojan.settings.set', { settings: settingsWith({ whitelist: ['*/vendor/*'] }), account: 'admin' });
    expect(await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).toMatchObject({ scan: null, refused: 'trojan_no_dirs' });
    // A shell under a whitelisted path is never scanned, and a .txt is not a kill type.
    await writeFiles(www, { 'up/x.php': phpShell, 'WEB-INF/cmd.jsp': jspShell, 'index.php': benignPhp, 'vendor/lib/tool.php': phpShell, 'notes.txt': phpShell });
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });

    const started = await client.call('trojan.scan.start', { kind: 'full', account: 'admin' });
    expect(started.refused).toBeNull();
    const scan = await scanDone(client, started.scan!.id);
    expect(scan).toMatchObject({ kind: 'full', state: 'complete', done: 3, total: 3, flagged: 2, walkDone: true, paths: [www], account: 'admin' });
    expect(scan.ended).not.toBeNull();

    const results = await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: false, offset: 0, limit: 50 });
    // Clean files are never stored.
    expect(results.list.map((r) => r.name).sort()).toEqual(['cmd.jsp', 'x.php']);
    for (const result of results.list) {
      expect(result).toMatchObject({ handled: 'isolated', scanId: scan.id });
      expect(['high', 'medium']).toContain(result.risk);
      expect(result.isolateId).not.toBeNull();
      expect(existsSync(result.path)).toBe(false);
    }
    expect(await readFile(path.join(www, 'index.php'), 'utf8')).toBe(benignPhp);
    expect(existsSync(path.join(www, 'vendor/lib/tool.php'))).toBe(true);
    expect(existsSync(path.join(www, 'notes.txt'))).toBe(true);
    const isolated = await client.call('trojan.isolate.list', { offset: 0, limit: 50 });
    expect(isolated.list.map((i) => i.originalPath).sort()).toEqual([path.join(www, 'WEB-INF/cmd.jsp'), path.join(www, 'up/x.php')]);
    expect(isolated.list.every((i) => i.source === 'scan')).toBe(true);
    const source = await client.call('trojan.isolate.source', { id: results.list.find((r) => r.name === 'x.php')!.isolateId! });
    expect(source?.text).toBe(phpShell);

    const status = await client.call('trojan.status', {});
    expect(status).toMatchObject({ isolated: 2, found24h: 2, running: null, lastScan: { id: scan.id, state: 'complete' } });
    expect(status.ruleSetVersion).not.toBe('');
    const detected = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'trojan.detected');
    expect(detected.map((e) => e.params['path']).sort()).toEqual([path.join(www, 'WEB-INF/cmd.jsp'), path.join(www, 'up/x.php')]);
    expect(detected.every((e) => e.params['handled'] === 'isolated' && e.params['found_by'] === 'scan')).toBe(true);
    const words = renderEvent('trojan.detected', detected[0]!.params, 'zh-CN').content;
    expect(words).toContain('已隔离');
    expect(words).not.toContain('{');

    // Restored from the quarantine, the file is back as it was.
    const id = results.list.find((r) => r.name === 'x.php')!.isolateId!;
    expect(await client.call('trojan.isolate.restore', { ids: [id], overwrite: false, account: 'admin' })).toMatchObject({ changed: 1 });
    expect(await readFile(path.join(www, 'up/x.php'), 'utf8')).toBe(phpShell);
  });

  it('delete removes the file; record leaves it; trusting it makes the next scan skip it', async () => {
    const { client, www } = await setup();
    await writeFiles(www, { 'd.php': phpShell });
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });

    await client.call('trojan.settings.set', { settings: settingsWith({ handling: 'delete' }), account: 'admin' });
    let scan = await scanDone(client, (await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).scan!.id);
    let results = await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: true, offset: 0, limit: 50 });
    expect(results.list.map((r) => [r.name, r.handled])).toEqual([['d.php', 'deleted']]);
    expect(existsSync(path.join(www, 'd.php'))).toBe(false);

    await writeFiles(www, { 'r.php': phpShell });
    await client.call('trojan.settings.set', { settings: settingsWith({ handling: 'record' }), account: 'admin' });
    scan = await scanDone(client, (await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).scan!.id);
    results = await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: true, offset: 0, limit: 50 });
    expect(results.list.map((r) => [r.name, r.handled])).toEqual([['r.php', 'recorded']]);
    expect(await readFile(path.join(www, 'r.php'), 'utf8')).toBe(phpShell);

    // The administrator trusts it: the same bytes are never flagged again, here or under another name.
    expect(await client.call('trojan.results.handle', { ids: [results.list[0]!.id], action: 'trust', account: 'admin' })).toMatchObject({ changed: 1, refused: null });
    expect((await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: true, offset: 0, limit: 50 })).list[0]!.handled).toBe('trusted');
    await writeFiles(www, { 'copy/r2.php': phpShell });
    await client.call('trojan.settings.set', { settings: settingsWith({ handling: 'isolate' }), account: 'admin' });
    scan = await scanDone(client, (await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).scan!.id);
    expect(scan).toMatchObject({ state: 'complete', done: 2, flagged: 0 });
    expect((await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: false, offset: 0, limit: 50 })).total).toBe(0);
    expect(existsSync(path.join(www, 'r.php'))).toBe(true);
    expect(existsSync(path.join(www, 'copy/r2.php'))).toBe(true);
    const handled = (await client.call('events.query', { limit: 50 })).list.find((e) => e.kind === 'trojan.result_handled')!;
    expect(handled).toMatchObject({ account: 'admin', params: { handling: 'trust', path: path.join(www, 'r.php') } });
  });

  it('an audit scan of chosen files and folders leaves results pending for the administrator; a changed or gone file is refused', async () => {
    const { client, dir } = await setup();
    const elsewhere = path.join(dir, 'uploads');
    // Chosen paths need not be protected directories; a chosen file is scanned whatever its extension.
    await writeFiles(elsewhere, { 'a.php': phpShell, 'b.jsp': jspShell, 'c.php': phpShell.replace('x', 'y'), 'ok.php': benignPhp });
    const single = path.join(dir, 'single.txt');
    await writeFile(single, phpShell);
    expect(await client.call('trojan.scan.start', { kind: 'audit', paths: [path.join(dir, 'nope')], account: 'admin' })).toMatchObject({ scan: null, refused: 'trojan_path_missing', detail: path.join(dir, 'nope') });
    expect(await client.call('trojan.scan.start', { kind: 'audit', paths: ['/proc/self'], account: 'admin' })).toMatchObject({ scan: null, refused: 'trojan_path_refused' });

    const started = await client.call('trojan.scan.start', { kind: 'audit', paths: [elsewhere, single], account: 'auditor' });
    const scan = await scanDone(client, started.scan!.id);
    expect(scan).toMatchObject({ kind: 'audit', state: 'complete', done: 5, flagged: 4 });
    const results = await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: true, offset: 0, limit: 50 });
    expect(results.list.map((r) => [r.name, r.handled]).sort()).toEqual([['a.php', 'pending'], ['b.jsp', 'pending'], ['c.php', 'pending'], ['single.txt', 'pending']]);
    for (const name of ['a.php', 'b.jsp', 'c.php']) expect(existsSync(path.join(elsewhere, name))).toBe(true);
    const byName = (name: string) => results.list.find((r) => r.name === name)!;

    expect(await client.call('trojan.results.handle', { ids: [byName('a.php').id], action: 'isolate', account: 'auditor' })).toMatchObject({ changed: 1 });
    expect(existsSync(path.join(elsewhere, 'a.php'))).toBe(false);
    expect((await client.call('trojan.isolate.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ originalPath: path.join(elsewhere, 'a.php'), source: 'manual' });

    // Changed after the scan: refused, nothing done.
    await writeFile(path.join(elsewhere, 'b.jsp'), `${jspShell}<!-- edited -->\n`);
    expect(await client.call('trojan.results.handle', { ids: [byName('b.jsp').id], action: 'delete', account: 'auditor' })).toMatchObject({ changed: 0, refused: 'trojan_file_changed', detail: path.join(elsewhere, 'b.jsp') });
    expect(existsSync(path.join(elsewhere, 'b.jsp'))).toBe(true);
    // Already isolated: gone.
    expect(await client.call('trojan.results.handle', { ids: [byName('a.php').id], action: 'delete', account: 'auditor' })).toMatchObject({ changed: 0, refused: 'trojan_file_gone' });
    // A batch does what it can and says which failed.
    const batch = await client.call('trojan.results.handle', { ids: [byName('c.php').id, byName('b.jsp').id], action: 'delete', account: 'auditor' });
    expect(batch).toMatchObject({ changed: 1, ids: [byName('c.php').id], refused: null, failed: { [String(byName('b.jsp').id)]: 'trojan_file_changed' } });
    expect(existsSync(path.join(elsewhere, 'c.php'))).toBe(false);
    expect(await client.call('trojan.results.handle', { ids: [byName('single.txt').id], action: 'record', account: 'auditor' })).toMatchObject({ changed: 1 });
    const after = await client.call('trojan.results.list', { scanId: scan.id, flaggedOnly: true, offset: 0, limit: 50 });
    expect(after.list.map((r) => [r.name, r.handled]).sort()).toEqual([['a.php', 'isolated'], ['b.jsp', 'pending'], ['c.php', 'deleted'], ['single.txt', 'recorded']]);

    // Every event of the module reads in both languages, with nothing left unfilled.
    const events = (await client.call('events.query', { limit: 100 })).list.filter((e) => e.module === 'trojan');
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['trojan.scan_started', 'trojan.detected', 'trojan.result_handled']));
    for (const event of events) {
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const { content } = renderEvent(event.kind, event.params, lang);
        expect(content).not.toMatch(/[{}]|undefined|trojan\./);
      }
    }
    const handledEvent = events.find((e) => e.kind === 'trojan.result_handled' && e.params['handling'] === 'isolate')!;
    expect(renderEvent(handledEvent.kind, handledEvent.params, 'en-US').content).toBe(`auditor: suspicious file ${path.join(elsewhere, 'a.php')} isolated`);
  });

  it('a full scan reports progress, runs one at a time and stops on cancel as `end`', async () => {
    const { client, www } = await setup({ scanWorkers: 1 });
    await client.call('trojan.settings.set', { settings: settingsWith({}), account: 'admin' });
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i += 1) files[`d${i % 40}/page${i}.php`] = `<?php\n// page ${i}\n$title = 'Page ${i}';\necho htmlspecialchars($title);\n`;
    await writeFiles(www, files);
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });

    const started = await client.call('trojan.scan.start', { kind: 'full', account: 'admin' });
    const id = started.scan!.id;
    expect(await client.call('trojan.scan.start', { kind: 'audit', paths: [www], account: 'admin' })).toMatchObject({ refused: 'trojan_scan_running', scan: { id } });
    const midway = await until(() => client.call('trojan.scan.get', { id }), (s) => s !== null && s.done >= 50, 20_000, 10);
    expect(midway).toMatchObject({ state: 'scanning' });
    expect(midway!.done).toBeLessThan(2000);
    expect(midway!.currentPath.startsWith(www)).toBe(true);
    expect((await client.call('trojan.status', {})).running).toMatchObject({ id, state: 'scanning' });

    expect(await client.call('trojan.scan.cancel', { id, account: 'admin' })).toMatchObject({ changed: 1 });
    const ended = await client.call('trojan.scan.get', { id });
    expect(ended).toMatchObject({ state: 'end' });
    expect(ended!.done).toBeLessThan(2000);
    expect(ended!.ended).not.toBeNull();
    expect(await client.call('trojan.scan.cancel', { id, account: 'admin' })).toMatchObject({ refused: 'trojan_scan_not_running' });
    expect((await client.call('trojan.status', {})).running).toBeNull();
    expect((await client.call('trojan.scan.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ id, state: 'end' });

    // The next scan may start now.
    const again = await client.call('trojan.scan.start', { kind: 'full', account: 'admin' });
    expect(again.refused).toBeNull();
    expect(await scanDone(client, again.scan!.id, 60_000)).toMatchObject({ state: 'complete', done: 2000, total: 2000, flagged: 0 });
  }, 90_000);

  it('the scheduled scan fires once at its local time on the injected clock, and handles per the settings', async () => {
    let now = new Date(2026, 0, 10, 2, 59, 0).getTime();
    const { client, agent, www } = await setup({ now: () => now });
    await client.call('module.switch', { modules: ['trojan'], status: 1 });
    await client.call('trojan.settings.set', { settings: settingsWith({ schedule: { enabled: true, time: '03:00' } }), account: 'admin' });
    await writeFiles(www, { 'night.php': phpShell });
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });

    await agent.trojan.tick();
    expect((await client.call('trojan.scan.list', { offset: 0, limit: 10 })).total).toBe(0);
    now = new Date(2026, 0, 10, 3, 0, 30).getTime();
    await agent.trojan.tick();
    const list = await client.call('trojan.scan.list', { offset: 0, limit: 10 });
    expect(list.list.map((s) => s.kind)).toEqual(['scheduled']);
    const scan = await scanDone(client, list.list[0]!.id);
    expect(scan).toMatchObject({ state: 'complete', flagged: 1, started: now });
    expect(existsSync(path.join(www, 'night.php'))).toBe(false);
    // The same slot never fires twice; the next day's does.
    now += 60_000;
    await agent.trojan.tick();
    expect((await client.call('trojan.scan.list', { kind: 'scheduled', offset: 0, limit: 10 })).total).toBe(1);
    now = new Date(2026, 0, 11, 3, 1, 0).getTime();
    await agent.trojan.tick();
    expect((await client.call('trojan.scan.list', { kind: 'scheduled', offset: 0, limit: 10 })).total).toBe(2);
    await scanDone(client, (await client.call('trojan.scan.list', { offset: 0, limit: 1 })).list[0]!.id);
  });

  it('isolated files are deleted after the retention days by the daily sweep, or by hand', async () => {
    let now = Date.now();
    const { client, agent, www } = await setup({ now: () => now });
    await client.call('trojan.settings.set', { settings: settingsWith({ isolateRetentionDays: 30 }), account: 'admin' });
    await writeFiles(www, { 'a.php': phpShell, 'b.php': phpShell.replace('x', 'z') });
    await client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });
    await scanDone(client, (await client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).scan!.id);
    const isolated = await client.call('trojan.isolate.list', { offset: 0, limit: 10 });
    expect(isolated.total).toBe(2);
    expect(await client.call('trojan.isolate.delete', { ids: [isolated.list[0]!.id], account: 'admin' })).toMatchObject({ changed: 1 });
    expect(await client.call('trojan.isolate.delete', { ids: [isolated.list[0]!.id], account: 'admin' })).toMatchObject({ changed: 0, refused: 'trojan_isolated_not_found' });
    await agent.trojan.tick();
    expect((await client.call('trojan.status', {})).isolated).toBe(1);
    now += 31 * 86_400_000;
    await agent.trojan.tick();
    expect((await client.call('trojan.status', {})).isolated).toBe(0);
  });

  it('keeps the newest results only', async () => {
    const { agent } = await setup();
    const file: WebshellFileResult = { path: '/srv/x.php', size: 1, mtimeMs: 0, sha256: '', language: 'php', status: 'scanned', risk: 'high', findings: [], elapsedMs: 0 };
    for (let i = 0; i < 30; i += 1) agent.trojan.scans.addResult(null, { ...file, path: `/srv/x${i}.php` }, 'recorded', null, i);
    expect(agent.trojan.scans.trimResults(10)).toBe(20);
    const left = agent.trojan.scans.resultPage({ watch: true, flaggedOnly: false, offset: 0, limit: 100 });
    expect(left.total).toBe(10);
    expect(left.list[0]!.path).toBe('/srv/x29.php');
    expect(left.list.at(-1)!.path).toBe('/srv/x20.php');
  });

  it('a restart shows a scan that was running as `end`, its progress kept', async () => {
    const dir = await tempDir();
    const www = path.join(dir, 'www');
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i += 1) files[`p${i}.php`] = `<?php echo ${i};\n`;
    await writeFiles(www, files);
    const first = await trojanAgent(dir, { scanWorkers: 1, saveEveryMs: 50 });
    cleanups.push(() => first.close());
    await first.client.call('trojan.dirs.add', { dirs: [{ path: www, remark: '', site: '' }], account: 'admin' });
    const id = (await first.client.call('trojan.scan.start', { kind: 'full', account: 'admin' })).scan!.id;
    await until(() => first.client.call('trojan.scan.get', { id }), (s) => (s?.done ?? 0) >= 20, 20_000, 10);
    await first.close();

    // An agent that died without closing leaves a scan `scanning` in its file: the next start ends it too.
    const db = openTrojanDb(path.join(dir, 'state', 'trojan.db'));
    db.prepare(`INSERT INTO trojan_scans (kind, paths, state, done, total, walk_done, current_path, flagged, unscanned, account, started, ended)
      VALUES ('full', '[]', 'scanning', 7, 9, 0, '', 0, 0, 'admin', 1, NULL)`).run();
    db.close();

    const second = await trojanAgent(dir);
    cleanups.push(() => second.close());
    const scan = await second.client.call('trojan.scan.get', { id });
    expect(scan).toMatchObject({ state: 'end' });
    expect(scan!.done).toBeGreaterThanOrEqual(20);
    expect(scan!.done).toBeLessThan(2000);
    expect(scan!.ended).not.toBeNull();
    const crashed = await second.client.call('trojan.scan.get', { id: id + 1 });
    expect(crashed).toMatchObject({ state: 'end', done: 7, total: 9 });
    expect(crashed!.ended).not.toBeNull();
    expect((await second.client.call('trojan.status', {})).running).toBeNull();
  }, 60_000);
});
