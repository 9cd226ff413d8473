import type { NoticeInput, NoticeRecord, NoticeTarget } from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import { num, str, type Row } from './sql.ts';

export interface NoticeList {
  count: number;
  unread: number;
  list: NoticeRecord[];
}

export interface Notices {
  /** The new notice's id, or null when an unread notice with the same dedupe_key exists. */
  raise(input: NoticeInput): number | null;
  /** Newest first. */
  list(offset: number, limit: number): NoticeList;
  /** The notice (after marking it read when `markRead`), or null. */
  get(id: number, markRead: boolean): NoticeRecord | null;
  /** Marks notices read; returns how many were unread. */
  read(target: NoticeTarget): number;
  /** Returns how many were deleted. */
  remove(target: NoticeTarget): number;
  unread(): number;
}

const columns = 'id, kind, params, add_time, readed';

function toNotice(row: Row): NoticeRecord {
  return {
    id: num(row['id']),
    kind: str(row['kind']),
    params: JSON.parse(str(row['params'])) as NoticeRecord['params'],
    add_time: num(row['add_time']),
    readed: num(row['readed']) === 1 ? 1 : 0,
  };
}

/** `onUnread` hears the unread count after any change of it (the console pushes the badge). */
export function notices(db: Db, now: () => number, onUnread: ((unread: number) => void) | undefined): Notices {
  const insert = db.prepare(
    `INSERT INTO notices (kind, params, dedupe_key, add_time, readed) VALUES (?, ?, ?, ?, 0)
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND readed = 0 DO NOTHING`,
  );
  const countAll = db.prepare('SELECT count(*) AS n FROM notices');
  const countUnread = db.prepare('SELECT count(*) AS n FROM notices WHERE readed = 0');
  const page = db.prepare(`SELECT ${columns} FROM notices ORDER BY id DESC LIMIT ? OFFSET ?`);
  const byId = db.prepare(`SELECT ${columns} FROM notices WHERE id = ?`);
  const readAll = db.prepare('UPDATE notices SET readed = 1 WHERE readed = 0');
  const readIds = db.prepare('UPDATE notices SET readed = 1 WHERE readed = 0 AND id IN (SELECT value FROM json_each(?))');
  const deleteAll = db.prepare('DELETE FROM notices');
  const deleteIds = db.prepare('DELETE FROM notices WHERE id IN (SELECT value FROM json_each(?))');

  const unread = () => num(countUnread.get()?.['n']);
  let lastUnread = unread();
  function changed<T>(result: T): T {
    const now = unread();
    if (now !== lastUnread) {
      lastUnread = now;
      onUnread?.(now);
    }
    return result;
  }

  function read(target: NoticeTarget): number {
    const { changes } = target === 'all' ? readAll.run() : readIds.run(JSON.stringify(target));
    return Number(changes);
  }

  return {
    raise(input) {
      const result = insert.run(input.kind, JSON.stringify(input.params ?? {}), input.dedupe_key ?? null, now());
      return changed(Number(result.changes) === 1 ? Number(result.lastInsertRowid) : null);
    },
    list(offset, limit) {
      return { count: num(countAll.get()?.['n']), unread: unread(), list: (page.all(limit, offset) as Row[]).map(toNotice) };
    },
    get(id, markRead) {
      if (markRead) changed(read([id]));
      const row = byId.get(id) as Row | undefined;
      return row ? toNotice(row) : null;
    },
    read: (target) => changed(read(target)),
    remove(target) {
      const { changes } = target === 'all' ? deleteAll.run() : deleteIds.run(JSON.stringify(target));
      return changed(Number(changes));
    },
    unread,
  };
}
