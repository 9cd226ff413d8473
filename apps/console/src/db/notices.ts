import type { Db } from './database.ts';

export function unreadNotices(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM notices WHERE readed = 0').get() as { n: number }).n;
}
