import { rename, rm, writeFile } from 'node:fs/promises';
import { bytesOfPath } from '@rampart/webshell';

/*
 * The folder list handed to `inotifywait --fromfile`: one path per line, as raw bytes, so a folder
 * whose name is not UTF-8 (a GBK name) is watched like any other (an argv string could not carry it).
 * A line is a path, so a path holding a newline cannot be listed: it is refused here and the
 * directory shows why (scans still cover it). A line starting with `@` would mean "exclude", which an
 * absolute path never does.
 */

export type WatchRefusal = 'newline_in_path';

/** Why a directory cannot be watched in real time, or null when it can. */
export function watchRefusal(dir: string): WatchRefusal | null {
  return bytesOfPath(dir).includes(0x0a) ? 'newline_in_path' : null;
}

/**
 * Writes the list for the next inotifywait child: readable by the agent's user only (it names every
 * protected folder), replaced whole by a rename so a child never reads half of it.
 */
export async function writeWatchList(file: string, dirs: readonly string[]): Promise<void> {
  const body = Buffer.concat(dirs.flatMap((dir) => [bytesOfPath(dir), Buffer.of(0x0a)]));
  const temp = `${file}.tmp`;
  await rm(temp, { force: true });
  await writeFile(temp, body, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
}
