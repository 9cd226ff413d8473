import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { trojanSourceMaxBytes, type TrojanIsolated, type TrojanSource, type WebshellFinding, type WebshellReason, type WebshellRisk } from '@rampart/contracts';
import { openSqlite, type Db } from '@rampart/sqlite';
import { bytesOfPath } from '@rampart/webshell';

/*
 * The root-only quarantine of trojan protection: isolated files moved out of the web tree, with
 * what it takes to put them back.
 *
 * Layout: <stateDir>/quarantine/ (0700 root) holds index.db and files/ (0700 root); each isolated
 * file is files/<32 random hex digits>, 0600 root, with no trace of its name or extension, so no web
 * server could run it even if the folder were exposed.
 *
 * Choices:
 * - The index is SQLite (synchronous = FULL on this connection: a committed step survives a power
 *   cut, not only a crash), because the move needs a durable journal: every step of a move is written
 *   to the row before it is taken, and open() finishes or undoes a half-done move from that state.
 *   Rows: `moving` (isolate under way), `stored`, `restoring` (restore under way).
 * - Isolate = move: rename(2) when the file is on the quarantine's file system (atomic: it is in
 *   exactly one place at any instant); otherwise (EXDEV) copy to files/<name>.part, fsync, rename to
 *   files/<name>, fsync the folder, then unlink the original and fsync its folder. A crash between
 *   the copy and the unlink leaves both: open() removes the original when its bytes still equal the
 *   copy's, else it drops the copy (the file changed: it stays where it was, to be scanned again).
 * - Symlinks are refused, never followed nor isolated: the link itself holds no code (the web server
 *   runs its target, which a scan of the target finds on its own), and following one would let
 *   whoever writes the web tree point root at any file on the system (/etc/shadow) and have it moved.
 *   The file is opened with O_NOFOLLOW|O_NONBLOCK and must be a regular file (FIFOs, sockets and
 *   devices are refused too). A link in a parent folder is followed like any path: the path given is
 *   the one the scan read.
 * - A file that is gone is `trojan_file_gone`; a symlink, a non-regular file or one replaced while
 *   it was moved is `trojan_isolate_refused`, its detail the path alone (the message, in the reader's
 *   language, says why).
 * - Restore puts the bytes back at the original path with their mode (setuid bits included), owner
 *   and mtime. Without overwrite it uses link(2), which refuses atomically when a file appeared there
 *   meanwhile; with overwrite, rename(2) replaces the file in one step. A folder at the path is never
 *   replaced. A parent folder that no longer exists is not recreated: `trojan_restore_failed` says
 *   which; recreating it would have to invent its owner and mode, and a web tree that was removed on
 *   purpose should not come back holding only a suspected web shell.
 * - Ids are AUTOINCREMENT: an id is never reused, so a stale console link never points at another file.
 * - Paths (original_path, temp, name) are @rampart/webshell's encoded strings: a name that is not
 *   valid UTF-8 is stored as `\xNN` escapes, readable in the console, and every fs call on it goes
 *   through onDisk (its exact bytes), so restore puts the file back under its exact original name.
 */

/** The bytes an encoded path names (identity for an ordinary UTF-8 path). */
const onDisk = bytesOfPath;

export type QuarantineFailure = { ok: false; key: 'trojan_isolated_not_found' | 'trojan_restore_exists' | 'trojan_restore_failed' | 'trojan_file_gone' | 'trojan_isolate_refused'; detail: string };

export interface IsolateMeta {
  risk: WebshellRisk;
  reason: WebshellReason;
  rule: string;
  source: 'realtime' | 'scan' | 'audit' | 'manual';
  findings: WebshellFinding[];
}

const migrations: readonly string[] = [
  `
  CREATE TABLE isolated (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    state         TEXT NOT NULL,              -- moving | stored | restoring
    method        TEXT NOT NULL DEFAULT '',   -- rename | copy, once the move has begun
    stored        TEXT NOT NULL UNIQUE,       -- the opaque file name under files/
    temp          TEXT NOT NULL DEFAULT '',   -- a restore's temporary file beside the original path (copy)
    name          TEXT NOT NULL,
    original_path TEXT NOT NULL,
    size          INTEGER NOT NULL DEFAULT 0,
    mode          INTEGER NOT NULL DEFAULT -1, -- -1 until the metadata is read
    uid           INTEGER NOT NULL DEFAULT 0,
    gid           INTEGER NOT NULL DEFAULT 0,
    mtime_ms      REAL NOT NULL DEFAULT 0,
    sha256        TEXT NOT NULL DEFAULT '',
    risk          TEXT NOT NULL,
    reason        TEXT NOT NULL,
    rule          TEXT NOT NULL,
    findings      TEXT NOT NULL,
    source        TEXT NOT NULL,
    isolated_at   INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX isolated_time ON isolated (isolated_at);
  `,
];

interface Row {
  id: number;
  state: 'moving' | 'stored' | 'restoring';
  method: '' | 'rename' | 'copy';
  stored: string;
  temp: string;
  name: string;
  original_path: string;
  size: number;
  mode: number;
  uid: number;
  gid: number;
  mtime_ms: number;
  sha256: string;
  risk: string;
  reason: string;
  rule: string;
  findings: string;
  source: string;
  isolated_at: number;
}

const storedName = /^[0-9a-f]{32}(\.part)?$/;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;
const isRoot = () => process.getuid?.() === 0;

export class Quarantine {
  readonly #files: string;
  readonly #db: Db;
  readonly #now: () => number;

  private constructor(dir: string, db: Db, now: () => number) {
    this.#files = path.join(dir, 'files');
    this.#db = db;
    this.#now = now;
  }

  /** Opens (creating) <stateDir>/quarantine and finishes or undoes whatever a crash left half done. */
  static open(stateDir: string, now: () => number = Date.now): Quarantine {
    const dir = path.join(stateDir, 'quarantine');
    privateDir(dir);
    privateDir(path.join(dir, 'files'));
    const db = openSqlite(path.join(dir, 'index.db'), migrations, 'quarantine');
    try {
      db.exec('PRAGMA synchronous = FULL');
      for (const file of ['index.db', 'index.db-wal', 'index.db-shm']) {
        try {
          fs.chmodSync(path.join(dir, file), 0o600);
        } catch {
          // -wal and -shm come and go.
        }
      }
      const quarantine = new Quarantine(dir, db, now);
      quarantine.#recover();
      return quarantine;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  isolate(filePath: string, meta: IsolateMeta): { ok: true; item: TrojanIsolated } | QuarantineFailure {
    if (!path.isAbsolute(filePath) || filePath.includes('\0')) return { ok: false, key: 'trojan_file_gone', detail: `not an absolute path: ${filePath}` };
    const source = path.resolve(filePath);
    let info: fs.Stats;
    try {
      info = fs.lstatSync(onDisk(source));
    } catch (err) {
      return { ok: false, key: 'trojan_file_gone', detail: `${source}: ${errText(err)}` };
    }
    if (!info.isFile()) return { ok: false, key: 'trojan_isolate_refused', detail: source };

    const stored = randomBytes(16).toString('hex');
    const id = Number(this.#db.prepare(`
      INSERT INTO isolated (state, stored, name, original_path, risk, reason, rule, findings, source, isolated_at)
      VALUES ('moving', ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      stored, path.basename(source), source, meta.risk, meta.reason, meta.rule, JSON.stringify(meta.findings), meta.source, this.#now(),
    ).lastInsertRowid);
    const dest = path.join(this.#files, stored);
    try {
      const moved = this.#move(id, source, dest);
      if (!moved.ok) {
        this.#db.prepare('DELETE FROM isolated WHERE id = ?').run(id);
        return moved;
      }
    } catch (err) {
      // Whatever happened, open()'s repair decides from the row, now.
      this.#recoverRow(this.#row(id)!);
      const row = this.#row(id);
      if (row?.state === 'stored') return { ok: true, item: toItem(row) };
      return { ok: false, key: 'trojan_file_gone', detail: `${source}: ${errText(err)}` };
    }
    return { ok: true, item: toItem(this.#row(id)!) };
  }

  /** The move itself, each step written to the row first (see the file comment). */
  #move(id: number, source: string, dest: string): { ok: true } | QuarantineFailure {
    this.#db.prepare(`UPDATE isolated SET method = 'rename' WHERE id = ?`).run(id);
    try {
      fs.renameSync(onDisk(source), dest);
    } catch (err) {
      if (code(err) !== 'EXDEV') return { ok: false, key: 'trojan_file_gone', detail: `${source}: ${errText(err)}` };
      return this.#copyMove(id, source, dest);
    }
    fsyncDir(this.#files);
    fsyncDir(path.dirname(source));
    // What was renamed is whatever was at the name at that instant: check it is still a regular file.
    let fd: number;
    try {
      fd = fs.openSync(dest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      // A symlink or a FIFO swapped in after lstat: put it back where it was.
      this.#putBack(dest, source);
      return { ok: false, key: 'trojan_isolate_refused', detail: source };
    }
    try {
      const info = fs.fstatSync(fd);
      if (!info.isFile()) {
        fs.closeSync(fd);
        this.#putBack(dest, source);
        return { ok: false, key: 'trojan_isolate_refused', detail: source };
      }
      this.#setMeta(id, info);
      const sha256 = hashFd(fd);
      lockDown(fd);
      fs.fsyncSync(fd);
      this.#db.prepare(`UPDATE isolated SET state = 'stored', sha256 = ? WHERE id = ?`).run(sha256, id);
    } finally {
      try {
        fs.closeSync(fd);
      } catch {
        // closed above
      }
    }
    return { ok: true };
  }

  #copyMove(id: number, source: string, dest: string): { ok: true } | QuarantineFailure {
    this.#db.prepare(`UPDATE isolated SET method = 'copy' WHERE id = ?`).run(id);
    let fd: number;
    try {
      fd = fs.openSync(onDisk(source), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      return { ok: false, key: code(err) === 'ENOENT' ? 'trojan_file_gone' : 'trojan_isolate_refused', detail: code(err) === 'ENOENT' ? `${source}: ${errText(err)}` : source };
    }
    const part = `${dest}.part`;
    try {
      const info = fs.fstatSync(fd);
      if (!info.isFile()) return { ok: false, key: 'trojan_isolate_refused', detail: source };
      this.#setMeta(id, info);
      const sha256 = copyFd(fd, part);
      fs.renameSync(part, dest);
      fsyncDir(this.#files);
      this.#db.prepare('UPDATE isolated SET sha256 = ? WHERE id = ?').run(sha256, id);
      // Unlink only the file that was copied: a different one put at the name meanwhile stays.
      const now = fs.lstatSync(onDisk(source), { throwIfNoEntry: false });
      if (!now || now.ino !== info.ino || now.dev !== info.dev) {
        fs.rmSync(dest, { force: true });
        return { ok: false, key: 'trojan_isolate_refused', detail: source };
      }
      fs.unlinkSync(onDisk(source));
      fsyncDir(path.dirname(source));
      this.#db.prepare(`UPDATE isolated SET state = 'stored' WHERE id = ?`).run(id);
      return { ok: true };
    } catch (err) {
      fs.rmSync(part, { force: true });
      throw err;
    } finally {
      fs.closeSync(fd);
    }
  }

  #setMeta(id: number, info: fs.Stats): void {
    this.#db.prepare('UPDATE isolated SET size = ?, mode = ?, uid = ?, gid = ?, mtime_ms = ? WHERE id = ?')
      .run(info.size, info.mode & 0o7777, info.uid, info.gid, info.mtimeMs, id);
  }

  /**
   * Moves something that is not a regular file (swapped in between lstat and rename) back to where it
   * was, unless the name was taken again; then it stays in files/ and the next open() removes it.
   */
  #putBack(dest: string, source: string): void {
    try {
      if (!fs.lstatSync(onDisk(source), { throwIfNoEntry: false })) fs.renameSync(dest, onDisk(source));
    } catch {
      // Left for open().
    }
  }

  list(query: { keyword?: string; offset: number; limit: number }): { total: number; list: TrojanIsolated[] } {
    const keyword = query.keyword?.trim() ?? '';
    const where = keyword ? `AND (name LIKE ? ESCAPE '\\' OR original_path LIKE ? ESCAPE '\\')` : '';
    const args = keyword ? [likePattern(keyword), likePattern(keyword)] : [];
    const total = Number(this.#db.prepare(`SELECT COUNT(*) AS n FROM isolated WHERE state = 'stored' ${where}`).get(...args)?.['n'] ?? 0);
    const rows = this.#db.prepare(`SELECT * FROM isolated WHERE state = 'stored' ${where} ORDER BY isolated_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...args, Math.max(0, Math.floor(query.limit)), Math.max(0, Math.floor(query.offset))) as unknown as Row[];
    return { total, list: rows.map(toItem) };
  }

  get(id: number): TrojanIsolated | null {
    const row = this.#row(id);
    return row?.state === 'stored' ? toItem(row) : null;
  }

  /** The file's beginning as text for the read-only viewer; the bytes are only ever read. */
  source(id: number): TrojanSource | null {
    const row = this.#row(id);
    if (row?.state !== 'stored') return null;
    let fd: number;
    try {
      fd = fs.openSync(path.join(this.#files, row.stored), O_RDONLY | O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const buffer = Buffer.alloc(Math.min(size, trojanSourceMaxBytes));
      let got = 0;
      while (got < buffer.length) {
        const n = fs.readSync(fd, buffer, got, buffer.length - got, got);
        if (n === 0) break;
        got += n;
      }
      const bytes = buffer.subarray(0, got);
      const truncated = size > trojanSourceMaxBytes;
      return { id: row.id, text: new TextDecoder('utf-8', { fatal: false }).decode(bytes), truncated, binary: looksBinary(bytes, truncated), findings: parseFindings(row.findings) };
    } finally {
      fs.closeSync(fd);
    }
  }

  restore(id: number, overwrite: boolean): { ok: true; path: string } | QuarantineFailure {
    const row = this.#row(id);
    if (row?.state !== 'stored') return { ok: false, key: 'trojan_isolated_not_found', detail: String(id) };
    const target = row.original_path;
    const stored = path.join(this.#files, row.stored);
    if (!fs.existsSync(stored)) return { ok: false, key: 'trojan_isolated_not_found', detail: String(id) };
    const parent = fs.statSync(onDisk(path.dirname(target)), { throwIfNoEntry: false });
    if (!parent?.isDirectory()) return { ok: false, key: 'trojan_restore_failed', detail: `the folder ${path.dirname(target)} no longer exists` };
    const there = fs.lstatSync(onDisk(target), { throwIfNoEntry: false });
    if (there?.isDirectory()) return { ok: false, key: 'trojan_restore_failed', detail: `a folder is at ${target}` };
    if (there && !overwrite) return { ok: false, key: 'trojan_restore_exists', detail: target };

    this.#db.prepare(`UPDATE isolated SET state = 'restoring' WHERE id = ?`).run(id);
    try {
      applyMeta(stored, row);
      try {
        if (overwrite) fs.renameSync(stored, onDisk(target));
        else fs.linkSync(stored, onDisk(target));
      } catch (err) {
        if (code(err) === 'EEXIST') {
          this.#undoRestore(row);
          return { ok: false, key: 'trojan_restore_exists', detail: target };
        }
        if (code(err) !== 'EXDEV') throw err;
        this.#copyRestore(row, stored, target, overwrite);
      }
      fsyncDir(path.dirname(target));
      fs.rmSync(stored, { force: true });
      fsyncDir(this.#files);
      this.#db.prepare('DELETE FROM isolated WHERE id = ?').run(id);
      return { ok: true, path: target };
    } catch (err) {
      if (code(err) === 'EEXIST') {
        this.#undoRestore(this.#row(id)!);
        return { ok: false, key: 'trojan_restore_exists', detail: target };
      }
      this.#recoverRow(this.#row(id)!);
      if (!this.#row(id)) return { ok: true, path: target };
      return { ok: false, key: 'trojan_restore_failed', detail: errText(err) };
    }
  }

  #copyRestore(row: Row, stored: string, target: string, overwrite: boolean): void {
    const temp = path.join(path.dirname(target), `.rampart-restore-${randomBytes(8).toString('hex')}`);
    this.#db.prepare('UPDATE isolated SET temp = ? WHERE id = ?').run(temp, row.id);
    const fd = fs.openSync(stored, O_RDONLY | O_NOFOLLOW);
    try {
      copyFd(fd, temp);
    } finally {
      fs.closeSync(fd);
    }
    applyMeta(temp, row);
    const out = fs.openSync(onDisk(temp), O_RDONLY | O_NOFOLLOW);
    try {
      fs.fsyncSync(out);
    } finally {
      fs.closeSync(out);
    }
    try {
      if (overwrite) fs.renameSync(onDisk(temp), onDisk(target));
      else {
        fs.linkSync(onDisk(temp), onDisk(target));
        fs.unlinkSync(onDisk(temp));
      }
    } catch (err) {
      fs.rmSync(onDisk(temp), { force: true });
      throw err;
    }
  }

  /** A restore that did not happen: the stored file back to 0600 root. */
  #undoRestore(row: Row): void {
    const stored = path.join(this.#files, row.stored);
    if (row.temp) fs.rmSync(onDisk(row.temp), { force: true });
    try {
      const fd = fs.openSync(stored, O_RDONLY | O_NOFOLLOW);
      try {
        lockDown(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // Gone: the row goes below.
    }
    this.#db.prepare(`UPDATE isolated SET state = 'stored', temp = '' WHERE id = ?`).run(row.id);
  }

  remove(id: number): boolean {
    const row = this.#row(id);
    if (row?.state !== 'stored') return false;
    fs.rmSync(path.join(this.#files, row.stored), { force: true });
    this.#db.prepare('DELETE FROM isolated WHERE id = ?').run(id);
    return true;
  }

  /** Deletes the items isolated more than `retentionDays` days ago (0 keeps them forever). */
  sweep(retentionDays: number): number {
    if (!(retentionDays > 0)) return 0;
    const before = this.#now() - retentionDays * 86_400_000;
    const ids = this.#db.prepare(`SELECT id FROM isolated WHERE state = 'stored' AND isolated_at < ?`).all(before).map((row) => Number(row['id']));
    let deleted = 0;
    for (const id of ids) if (this.remove(id)) deleted += 1;
    return deleted;
  }

  count(): number {
    return Number(this.#db.prepare(`SELECT COUNT(*) AS n FROM isolated WHERE state = 'stored'`).get()?.['n'] ?? 0);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #row(id: number): Row | null {
    if (!Number.isSafeInteger(id)) return null;
    return (this.#db.prepare('SELECT * FROM isolated WHERE id = ?').get(id) as unknown as Row | undefined) ?? null;
  }

  /** open(): every half-done move finished or undone, stored rows without a file dropped, files without a row deleted. */
  #recover(): void {
    const rows = this.#db.prepare('SELECT * FROM isolated').all() as unknown as Row[];
    for (const row of rows) this.#recoverRow(row);
    const known = new Set((this.#db.prepare('SELECT stored FROM isolated').all()).map((row) => String(row['stored'])));
    for (const name of fs.readdirSync(this.#files)) {
      if (!storedName.test(name) || known.has(name)) continue;
      try {
        fs.rmSync(path.join(this.#files, name), { force: true, recursive: true });
      } catch {
        // Tried again at the next open.
      }
    }
  }

  #recoverRow(row: Row): void {
    const stored = path.join(this.#files, row.stored);
    const drop = () => this.#db.prepare('DELETE FROM isolated WHERE id = ?').run(row.id);
    if (row.state === 'stored') {
      if (!fs.existsSync(stored)) drop();
      return;
    }
    if (row.state === 'restoring') {
      const held = fs.lstatSync(stored, { throwIfNoEntry: false });
      // rename(2) done: the file is back.
      if (!held) return void drop();
      const there = fs.lstatSync(onDisk(row.original_path), { throwIfNoEntry: false });
      const linked = there && there.ino === held.ino && there.dev === held.dev;
      const copied = !linked && row.temp !== '' && there?.isFile() && row.sha256 !== '' && hashPath(row.original_path) === row.sha256;
      if (linked || copied) {
        if (row.temp) fs.rmSync(onDisk(row.temp), { force: true });
        fs.rmSync(stored, { force: true });
        return void drop();
      }
      return this.#undoRestore(row);
    }
    // moving
    fs.rmSync(`${stored}.part`, { force: true });
    const held = fs.lstatSync(stored, { throwIfNoEntry: false });
    if (!held?.isFile()) {
      // Nothing arrived: the original never left (or was deleted by someone else).
      if (held) this.#putBack(stored, row.original_path);
      return void drop();
    }
    const fd = fs.openSync(stored, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const info = fs.fstatSync(fd);
      if (row.mode < 0) this.#setMeta(row.id, info);
      const sha256 = hashFd(fd);
      if (row.method === 'copy') {
        const original = fs.lstatSync(onDisk(row.original_path), { throwIfNoEntry: false });
        if (original?.isFile()) {
          if (hashPath(row.original_path) !== sha256) {
            // The original changed after the copy: it stays where it is, the copy goes.
            fs.closeSync(fd);
            fs.rmSync(stored, { force: true });
            drop();
            return;
          }
          fs.unlinkSync(onDisk(row.original_path));
          fsyncDir(path.dirname(row.original_path));
        }
      }
      lockDown(fd);
      fs.fsyncSync(fd);
      this.#db.prepare(`UPDATE isolated SET state = 'stored', sha256 = ? WHERE id = ?`).run(sha256, row.id);
    } finally {
      try {
        fs.closeSync(fd);
      } catch {
        // closed above
      }
    }
  }
}

function toItem(row: Row): TrojanIsolated {
  return {
    id: row.id,
    name: row.name,
    originalPath: row.original_path,
    size: row.size,
    mode: Math.max(0, row.mode),
    uid: row.uid,
    gid: row.gid,
    mtimeMs: row.mtime_ms,
    sha256: row.sha256,
    risk: row.risk as TrojanIsolated['risk'],
    reason: row.reason as TrojanIsolated['reason'],
    rule: row.rule,
    source: row.source as TrojanIsolated['source'],
    isolated: row.isolated_at,
  };
}

function parseFindings(text: string): WebshellFinding[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as WebshellFinding[]) : [];
  } catch {
    return [];
  }
}

/** A 0700 folder owned by root (when root), never a symlink. */
function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = fs.lstatSync(dir);
  if (!info.isDirectory()) throw new Error(`quarantine: ${dir} is not a folder`);
  if (isRoot() && (info.uid !== 0 || info.gid !== 0)) fs.chownSync(dir, 0, 0);
  if ((info.mode & 0o7777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/** The stored file: root's alone, readable by root only, never executable. */
function lockDown(fd: number): void {
  if (isRoot()) fs.fchownSync(fd, 0, 0);
  fs.fchmodSync(fd, 0o600);
}

/** Owner, mode and mtime of a restored file (chown first: it clears setuid bits). */
function applyMeta(file: string, row: Row): void {
  if (isRoot()) fs.chownSync(onDisk(file), row.uid, row.gid);
  fs.chmodSync(onDisk(file), row.mode & 0o7777);
  const mtime = row.mtime_ms / 1000;
  fs.utimesSync(onDisk(file), mtime, mtime);
}

function hashFd(fd: number): string {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1 << 16);
  for (let position = 0; ; ) {
    const n = fs.readSync(fd, buffer, 0, buffer.length, position);
    if (n === 0) break;
    hash.update(buffer.subarray(0, n));
    position += n;
  }
  return hash.digest('hex');
}

function hashPath(file: string): string {
  const fd = fs.openSync(onDisk(file), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    return hashFd(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies fd's bytes into a new file (0600, refused if the name exists), fsynced; returns their SHA-256. */
function copyFd(fd: number, dest: string): string {
  const out = fs.openSync(onDisk(dest), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  const hash = createHash('sha256');
  try {
    if (isRoot()) fs.fchownSync(out, 0, 0);
    const buffer = Buffer.alloc(1 << 16);
    for (let position = 0; ; ) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      let written = 0;
      while (written < n) written += fs.writeSync(out, buffer, written, n - written);
      position += n;
    }
    fs.fsyncSync(out);
  } finally {
    fs.closeSync(out);
  }
  return hash.digest('hex');
}

function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(onDisk(dir), O_RDONLY | O_DIRECTORY);
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still done.
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Binary for the viewer: any NUL, or more than a tenth of the characters undecodable as UTF-8 or
 * control characters (text in a legacy encoding such as GBK stays text when it is mostly ASCII).
 */
function looksBinary(bytes: Buffer, truncated: boolean): boolean {
  if (bytes.includes(0)) return true;
  if (bytes.length === 0) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  let odd = 0;
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point === 0xfffd || (point < 0x20 && point !== 0x09 && point !== 0x0a && point !== 0x0d && point !== 0x0c && point !== 0x1b) || point === 0x7f) odd += 1;
  }
  // A character cut by the truncation is one replacement at the end, not a sign of binary.
  if (truncated && text.endsWith('\ufffd')) odd -= 1;
  return odd > text.length / 10;
}

function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException | null)?.code ?? '';
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

