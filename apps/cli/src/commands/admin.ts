import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { accountNamePattern, roleIds, type RoleId } from '@rampart/contracts';
import {
  createUser, deleteUserSessions, findFirstAdmin, findUserByName, generatePassword, hashPassword, openDatabase, setPasswordHash,
} from '@rampart/console';
import { dataPaths, keepOwnership, resolveDataDir } from '../supervisor/service-user.ts';

const usage = `usage:
  rampart admin reset-password [--username NAME] [--data-dir DIR]
      prints a new password for the account (default: the first administrator) and ends its sessions
  rampart admin add-user --username NAME --role admin|technician|auditor|other [--data-dir DIR]
      creates a panel account and prints its generated password once
`;

/** The way back in for an administrator who locked themselves out, and a way to add accounts. */
export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  let values: { username?: string; role?: string; 'data-dir'?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { username: { type: 'string' }, role: { type: 'string' }, 'data-dir': { type: 'string' } } }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  const dbPath = dataPaths(resolveDataDir(values['data-dir'])).consoleDb;
  if (sub !== 'reset-password' && sub !== 'add-user') {
    process.stderr.write(usage);
    return 2;
  }
  if (!existsSync(dbPath)) {
    process.stderr.write(`No console database at ${dbPath}: start Rampart and register it first.\n`);
    return 1;
  }

  if (sub === 'reset-password') {
    const password = generatePassword();
    const hash = await hashPassword(password);
    const user = keepOwnership(dbPath, () => {
      const db = openDatabase(dbPath);
      try {
        const target = values.username ? findUserByName(db, values.username) : findFirstAdmin(db);
        if (!target) return undefined;
        setPasswordHash(db, target.id, hash);
        deleteUserSessions(db, target.id);
        db.prepare('DELETE FROM login_failures').run();
        return target.username;
      } finally {
        db.close();
      }
    });
    if (!user) {
      process.stderr.write(values.username ? `No account named ${values.username}.\n` : 'No administrator account yet: register the console first.\n');
      return 1;
    }
    process.stderr.write(`New password for ${user} (shown once; every session of the account has ended; sign-in lock-outs are cleared):\n`);
    process.stdout.write(`${password}\n`);
    return 0;
  }

  const username = values.username ?? '';
  const role = values.role as RoleId;
  if (!accountNamePattern.test(username) || !(roleIds as readonly string[]).includes(role)) {
    process.stderr.write(`Account names are 4-20 letters, digits, - or _; roles are ${roleIds.join(', ')}.\n${usage}`);
    return 2;
  }
  const password = generatePassword();
  const hash = await hashPassword(password);
  const created = keepOwnership(dbPath, () => {
    const db = openDatabase(dbPath);
    try {
      if (findUserByName(db, username)) return false;
      createUser(db, { username, passwordHash: hash, role, now: Date.now() });
      return true;
    } finally {
      db.close();
    }
  });
  if (!created) {
    process.stderr.write(`An account named ${username} already exists.\n`);
    return 1;
  }
  process.stderr.write(`Created ${role} account ${username}; its password (shown once):\n`);
  process.stdout.write(`${password}\n`);
  return 0;
}
