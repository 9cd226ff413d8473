import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { trojanSourceMaxBytes } from '@rampart/contracts';
import { Quarantine, type IsolateMeta } from '../src/trojan/quarantine.ts';

/*
 * The trojan quarantine on real files in temp folders, as root: isolation moves the file into a
 * root-only folder under an opaque name with its metadata, restore puts the same bytes, mode, owner
 * and mtime back, and a move cut short by a crash is finished or undone when the quarantine opens.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
async function tempDir(base = os.tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(base, 'rampart-quarantine-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const shell = '<?php @eval($_POST["x"]); ?>\n';
const meta: IsolateMeta = {
  risk: 'high',
  reason: 'input_to_code_exec',
  rule: '',
  source: 'realtime',
  findings: [{ source: 'analysis', reason: 'input_to_code_exec', risk: 'high', evidence: '@eval($_POST["x"])', offset: 6, length: 18 }],
};
const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const mtime = new Date('2024-03-01T10:20:30.250Z');

async function setup(options: { stateBase?: string; now?: () => number } = {}) {
  const dir = await tempDir();
  const stateDir = path.join(options.stateBase ? await tempDir(options.stateBase) : dir, 'state');
  const site = path.join(dir, 'www', 'site', 'uploads');
  fs.mkdirSync(site, { recursive: true });
  const quarantine = Quarantine.open(stateDir, options.now);
  cleanups.push(() => quarantine.close());
  return { dir, stateDir, site, quarantine, files: path.join(stateDir, 'quarantine', 'files') };
}

/** A web shell as a web server's user would leave it: www-data (33), 0644, an old mtime. */
function plant(file: string, content: string | Buffer = shell, mode = 0o644): void {
  fs.writeFileSync(file, content);
  fs.chownSync(file, 33, 33);
  fs.chmodSync(file, mode);
  fs.utimesSync(file, mtime, mtime);
}

function isolateOk(quarantine: Quarantine, file: string, m: IsolateMeta = meta) {
  const result = quarantine.isolate(file, m);
  if (!result.ok) throw new Error(`isolate failed: ${result.key} ${result.detail}`);
  return result.item;
}

describe('trojan quarantine', () => {
  it('isolates into a root-only folder under an opaque name, with the metadata, and restores bytes, mode, owner and mtime', async () => {
    const { site, quarantine, files, stateDir } = await setup();
    const file = path.join(site, 'shell.php');
    plant(file, shell, 0o4755);

    const item = isolateOk(quarantine, file);
    expect(fs.existsSync(file)).toBe(false);
    expect(item).toMatchObject({ name: 'shell.php', originalPath: file, size: Buffer.byteLength(shell), mode: 0o4755, uid: 33, gid: 33, sha256: sha(shell), risk: 'high', reason: 'input_to_code_exec', source: 'realtime' });
    expect(Math.abs(item.mtimeMs - mtime.getTime())).toBeLessThan(1);

    for (const folder of [path.join(stateDir, 'quarantine'), files]) {
      const info = fs.lstatSync(folder);
      expect(info.mode & 0o7777).toBe(0o700);
      expect([info.uid, info.gid]).toEqual([0, 0]);
    }
    const stored = fs.readdirSync(files);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^[0-9a-f]{32}$/);
    const storedInfo = fs.statSync(path.join(files, stored[0]!));
    expect(storedInfo.mode & 0o7777).toBe(0o600);
    expect([storedInfo.uid, storedInfo.gid]).toEqual([0, 0]);
    expect(fs.readFileSync(path.join(files, stored[0]!), 'utf8')).toBe(shell);

    expect(quarantine.get(item.id)).toEqual(item);
    expect(quarantine.count()).toBe(1);
    expect(quarantine.list({ keyword: 'uploads/shell', offset: 0, limit: 10 })).toEqual({ total: 1, list: [item] });
    expect(quarantine.list({ keyword: 'nothing%', offset: 0, limit: 10 }).total).toBe(0);
    expect(quarantine.source(item.id)).toEqual({ id: item.id, text: shell, truncated: false, binary: false, findings: meta.findings });

    const restored = quarantine.restore(item.id, false);
    expect(restored).toEqual({ ok: true, path: file });
    const back = fs.lstatSync(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(shell);
    expect(back.mode & 0o7777).toBe(0o4755);
    expect([back.uid, back.gid]).toEqual([33, 33]);
    expect(Math.abs(back.mtimeMs - mtime.getTime())).toBeLessThan(1);
    expect(quarantine.get(item.id)).toBeNull();
    expect(quarantine.count()).toBe(0);
    expect(fs.readdirSync(files)).toEqual([]);
    expect(quarantine.restore(item.id, false)).toMatchObject({ ok: false, key: 'trojan_isolated_not_found' });
  });

  it('moves across file systems (copy, fsync, unlink) both ways', async () => {
    // /dev/shm is a tmpfs: the quarantine there and the web tree on the disk make rename(2) fail with EXDEV.
    const { site, quarantine, files } = await setup({ stateBase: '/dev/shm' });
    const file = path.join(site, 'x.jsp');
    plant(file, 'Runtime.getRuntime().exec(request.getParameter("c"));');
    expect(fs.statSync(site).dev).not.toBe(fs.statSync(files).dev);

    const item = isolateOk(quarantine, file);
    expect(fs.existsSync(file)).toBe(false);
    expect(item).toMatchObject({ uid: 33, mode: 0o644, sha256: sha('Runtime.getRuntime().exec(request.getParameter("c"));') });
    const [stored] = fs.readdirSync(files);
    expect(stored).toMatch(/^[0-9a-f]{32}$/);
    expect(fs.statSync(path.join(files, stored!)).mode & 0o7777).toBe(0o600);

    expect(quarantine.restore(item.id, false)).toEqual({ ok: true, path: file });
    const back = fs.statSync(file);
    expect(fs.readFileSync(file, 'utf8')).toContain('Runtime.getRuntime()');
    expect([back.uid, back.mode & 0o7777]).toEqual([33, 0o644]);
    expect(Math.abs(back.mtimeMs - mtime.getTime())).toBeLessThan(1);
    expect(fs.readdirSync(files)).toEqual([]);
    expect(fs.readdirSync(site)).toEqual(['x.jsp']); // no temporary file left beside it
  });

  it('refuses to restore over an existing file unless told to overwrite, and never recreates a removed folder', async () => {
    const { site, quarantine, dir } = await setup();
    const file = path.join(site, 'a.php');
    plant(file);
    const item = isolateOk(quarantine, file);
    fs.writeFileSync(file, 'the site put a new a.php here\n');

    expect(quarantine.restore(item.id, false)).toEqual({ ok: false, key: 'trojan_restore_exists', detail: file });
    expect(fs.readFileSync(file, 'utf8')).toBe('the site put a new a.php here\n');
    expect(quarantine.get(item.id)).not.toBeNull();

    expect(quarantine.restore(item.id, true)).toEqual({ ok: true, path: file });
    expect(fs.readFileSync(file, 'utf8')).toBe(shell);
    expect(quarantine.count()).toBe(0);

    const other = isolateOk(quarantine, file);
    fs.rmSync(path.join(dir, 'www'), { recursive: true });
    const failed = quarantine.restore(other.id, true);
    expect(failed).toMatchObject({ ok: false, key: 'trojan_restore_failed' });
    expect(failed.ok ? '' : failed.detail).toContain(site);
    expect(fs.existsSync(site)).toBe(false);
    expect(quarantine.get(other.id)).not.toBeNull();
    expect(quarantine.source(other.id)?.text).toBe(shell);
  });

  it('shows the source read-only as text, flags binary bytes, and cuts at the size limit', async () => {
    const { site, quarantine } = await setup();
    const text = path.join(site, 'cn.php');
    plant(text, '<?php // 中文注释\n$a = base64_decode("ZXZhbA==");\n');
    const binary = path.join(site, 'img.php.jpg');
    plant(binary, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]), Buffer.from('<?php system($_GET[c]); ?>')]));
    const big = path.join(site, 'big.php');
    plant(big, `<?php /*${'A'.repeat(trojanSourceMaxBytes)}*/`);

    const t = quarantine.source(isolateOk(quarantine, text).id)!;
    expect(t).toMatchObject({ text: '<?php // 中文注释\n$a = base64_decode("ZXZhbA==");\n', binary: false, truncated: false });
    const b = quarantine.source(isolateOk(quarantine, binary).id)!;
    expect(b.binary).toBe(true);
    expect(b.text).toContain('\ufffd');
    expect(b.text).toContain('<?php system($_GET[c]); ?>');
    const g = quarantine.source(isolateOk(quarantine, big).id)!;
    expect(g).toMatchObject({ truncated: true, binary: false });
    expect(Buffer.byteLength(g.text)).toBe(trojanSourceMaxBytes);
    expect(quarantine.source(9999)).toBeNull();
  });

  it('refuses symlinks (neither followed nor isolated), FIFOs and folders', async () => {
    const { site, quarantine, dir, files } = await setup();
    const secret = path.join(dir, 'secret.txt');
    fs.writeFileSync(secret, 'root only\n');
    const link = path.join(site, 'link.php');
    fs.symlinkSync(secret, link);
    const fifo = path.join(site, 'pipe.php');
    execFileSync('mkfifo', [fifo]);

    for (const target of [link, fifo, site]) {
      expect(quarantine.isolate(target, meta)).toEqual({ ok: false, key: 'trojan_isolate_refused', detail: target });
    }
    expect(quarantine.isolate(path.join(site, 'missing.php'), meta)).toMatchObject({ ok: false, key: 'trojan_file_gone' });
    expect(fs.readlinkSync(link)).toBe(secret);
    expect(fs.readFileSync(secret, 'utf8')).toBe('root only\n');
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    expect(fs.readdirSync(files)).toEqual([]);
    expect(quarantine.count()).toBe(0);
  });

  it('sweeps items older than the retention on its clock; 0 keeps them forever', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const { site, quarantine, files } = await setup({ now: () => now });
    const day = 86_400_000;
    plant(path.join(site, 'old.php'));
    const old = isolateOk(quarantine, path.join(site, 'old.php'));
    expect(old.isolated).toBe(now);
    now += 2 * day;
    plant(path.join(site, 'new.php'));
    const young = isolateOk(quarantine, path.join(site, 'new.php'));
    expect(quarantine.list({ offset: 0, limit: 10 }).list.map((item) => item.name)).toEqual(['new.php', 'old.php']);

    now += 2 * day; // old: 4 days, young: 2 days
    expect(quarantine.sweep(0)).toBe(0);
    expect(quarantine.sweep(5)).toBe(0);
    expect(quarantine.sweep(3)).toBe(1);
    expect(quarantine.get(old.id)).toBeNull();
    expect(quarantine.get(young.id)).not.toBeNull();
    expect(fs.readdirSync(files)).toHaveLength(1);
    expect(quarantine.sweep(1)).toBe(1);
    expect(quarantine.count()).toBe(0);
    expect(fs.readdirSync(files)).toEqual([]);
    expect(quarantine.remove(young.id)).toBe(false);
  });

  describe('a move cut short by a crash is repaired at open', () => {
    /** Writes the row a crashed isolate or restore would have left, as the quarantine's own steps do. */
    function halfRow(stateDir: string, row: Record<string, string | number>): number {
      const db = new DatabaseSync(path.join(stateDir, 'quarantine', 'index.db'));
      try {
        const base = { state: 'moving', method: '', temp: '', name: 'x.php', risk: 'high', reason: 'input_to_code_exec', rule: '', findings: '[]', source: 'scan', isolated_at: Date.now() };
        const full = { ...base, ...row };
        const keys = Object.keys(full);
        return Number(db.prepare(`INSERT INTO isolated (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...Object.values(full)).lastInsertRowid);
      } finally {
        db.close();
      }
    }
    const storedName = 'ab'.repeat(16);

    it('copy done, original not yet unlinked: the original goes, the item is stored', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      quarantine.close();
      const file = path.join(site, 'x.php');
      plant(file);
      fs.copyFileSync(file, path.join(files, storedName));
      const id = halfRow(stateDir, { method: 'copy', stored: storedName, original_path: file, size: Buffer.byteLength(shell), mode: 0o644, uid: 33, gid: 33, mtime_ms: mtime.getTime() });

      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(fs.existsSync(file)).toBe(false);
      expect(reopened.get(id)).toMatchObject({ originalPath: file, sha256: sha(shell), uid: 33, mode: 0o644 });
      expect(fs.statSync(path.join(files, storedName)).mode & 0o7777).toBe(0o600);
      expect(reopened.restore(id, false)).toEqual({ ok: true, path: file });
      expect(fs.readFileSync(file, 'utf8')).toBe(shell);
    });

    it('copy done but the original changed since: the copy goes, the original stays', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      quarantine.close();
      const file = path.join(site, 'x.php');
      plant(file);
      fs.copyFileSync(file, path.join(files, storedName));
      fs.writeFileSync(file, 'rewritten by the site\n');
      halfRow(stateDir, { method: 'copy', stored: storedName, original_path: file, mode: 0o644 });
      fs.writeFileSync(path.join(files, `${'cd'.repeat(16)}.part`), 'half a copy of another file');

      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(fs.readFileSync(file, 'utf8')).toBe('rewritten by the site\n');
      expect(reopened.count()).toBe(0);
      expect(fs.readdirSync(files)).toEqual([]);
    });

    it('nothing moved yet: the row goes, the file stays', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      quarantine.close();
      const file = path.join(site, 'x.php');
      plant(file);
      halfRow(stateDir, { method: 'rename', stored: storedName, original_path: file });
      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(fs.readFileSync(file, 'utf8')).toBe(shell);
      expect(reopened.count()).toBe(0);
      expect(fs.readdirSync(files)).toEqual([]);
    });

    it('renamed in before the metadata was written: read from the file, locked down, stored', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      quarantine.close();
      const file = path.join(site, 'x.php');
      plant(file);
      fs.renameSync(file, path.join(files, storedName));
      const id = halfRow(stateDir, { method: 'rename', stored: storedName, original_path: file });
      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(reopened.get(id)).toMatchObject({ mode: 0o644, uid: 33, gid: 33, sha256: sha(shell), size: Buffer.byteLength(shell) });
      const info = fs.statSync(path.join(files, storedName));
      expect([info.mode & 0o7777, info.uid]).toEqual([0o600, 0]);
    });

    it('restore linked back but not yet removed from the quarantine: finished', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      const file = path.join(site, 'x.php');
      plant(file);
      const item = isolateOk(quarantine, file);
      quarantine.close();
      const [stored] = fs.readdirSync(files);
      fs.linkSync(path.join(files, stored!), file);
      const db = new DatabaseSync(path.join(stateDir, 'quarantine', 'index.db'));
      db.prepare(`UPDATE isolated SET state = 'restoring' WHERE id = ?`).run(item.id);
      db.close();

      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(reopened.get(item.id)).toBeNull();
      expect(fs.readdirSync(files)).toEqual([]);
      expect(fs.readFileSync(file, 'utf8')).toBe(shell);
    });

    it('restore begun but nothing moved: back to stored, 0600 root', async () => {
      const { site, quarantine, stateDir, files } = await setup();
      const file = path.join(site, 'x.php');
      plant(file);
      const item = isolateOk(quarantine, file);
      quarantine.close();
      const [stored] = fs.readdirSync(files);
      fs.chmodSync(path.join(files, stored!), 0o644); // the restore had applied the original mode
      const db = new DatabaseSync(path.join(stateDir, 'quarantine', 'index.db'));
      db.prepare(`UPDATE isolated SET state = 'restoring' WHERE id = ?`).run(item.id);
      db.close();

      const reopened = Quarantine.open(stateDir);
      cleanups.push(() => reopened.close());
      expect(reopened.get(item.id)).toEqual(item);
      expect(fs.statSync(path.join(files, stored!)).mode & 0o7777).toBe(0o600);
      expect(fs.existsSync(file)).toBe(false);
    });
  });
});
