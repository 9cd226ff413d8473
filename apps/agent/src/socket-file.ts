import { chmod, chown, lstat, mkdir, unlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

function connectsTo(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Clears the way for a new listener: a socket file nobody answers on is a leftover from a
 * crash and is removed; a live one means another agent is running, and anything that is not
 * a socket is refused rather than deleted.
 */
export async function prepareSocketPath(socketPath: string): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o755 });
  let stats;
  try {
    stats = await lstat(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isSocket()) throw new Error(`${socketPath} exists and is not a socket; refusing to replace it`);
  if (await connectsTo(socketPath)) throw new Error(`another agent is already listening on ${socketPath}`);
  await unlink(socketPath);
}

/**
 * Only root and the console's group may talk to the agent: mode 0660, and root:<gid> when a
 * group is given.
 */
export async function restrictSocket(socketPath: string, groupId?: number): Promise<void> {
  if (groupId !== undefined) await chown(socketPath, 0, groupId);
  await chmod(socketPath, 0o660);
}

/** Removes the socket file if it is still the one this agent created. */
export async function removeOwnSocket(socketPath: string, inode: number | undefined): Promise<void> {
  try {
    const stats = await lstat(socketPath);
    if (inode === undefined || stats.ino === inode) await unlink(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
