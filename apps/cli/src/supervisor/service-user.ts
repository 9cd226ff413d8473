import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const serviceUserName = 'rampart';

export interface ServiceUser {
  uid: number;
  gid: number;
}

/** The unprivileged account the console runs as; created when missing (scripts/setup.sh does it too). */
export function ensureServiceUser(): ServiceUser {
  const find = () => readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${serviceUserName}:`));
  if (!find()) {
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', serviceUserName]);
  }
  const fields = find()!.split(':');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** Can the service user run Node from this checkout? Not when it sits under a private home folder. */
export function canRunAs(user: ServiceUser, nodePath: string, script: string): boolean {
  const r = spawnSync(nodePath, ['-e', `require('node:fs').accessSync(${JSON.stringify(script)})`], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return r.status === 0;
}

/** Whether the user can create files in `dir` (write and search on it, search on every parent). */
export function canWriteAs(user: ServiceUser, nodePath: string, dir: string): boolean {
  const r = spawnSync(nodePath, ['-e', `const fs = require('node:fs'); fs.accessSync(${JSON.stringify(dir)}, fs.constants.W_OK | fs.constants.X_OK)`], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return r.status === 0;
}

/** A path and, were it a SQLite database, its -wal/-shm companions: whichever of them exist. */
function withSqliteCompanions(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter((f) => existsSync(f));
}

/** Hands folders or databases (with their -wal/-shm companions) to the service user. */
export function chownTree(paths: string[], user: ServiceUser): void {
  for (const f of paths.flatMap(withSqliteCompanions)) chownSync(f, user.uid, user.gid);
}

/** Runs fn (which may create SQLite side files as root) and gives the files back to the database's owner. */
export function keepOwnership<T>(dbPath: string, fn: () => T): T {
  const owner = existsSync(dbPath) ? statSync(dbPath) : undefined;
  try {
    return fn();
  } finally {
    if (owner && process.getuid?.() === 0) {
      for (const f of withSqliteCompanions(dbPath)) chownSync(f, owner.uid, owner.gid);
    }
  }
}

/** The data folder: the one given, else RAMPART_DATA_DIR, else `var/` in the checkout. */
export function resolveDataDir(explicit?: string): string {
  return resolve(explicit ?? process.env.RAMPART_DATA_DIR ?? join(import.meta.dirname, '../../../../var'));
}

export function dataPaths(dataDir: string) {
  return {
    console: join(dataDir, 'console'),
    consoleDb: join(dataDir, 'console', 'panel.db'),
    agent: join(dataDir, 'agent'),
    licence: join(dataDir, 'licence'),
    licenceDb: join(dataDir, 'licence', 'licence.db'),
    run: join(dataDir, 'run'),
    agentSocket: join(dataDir, 'run', 'agent.sock'),
  };
}
