import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { deleteTotp, findUserByName, getSetting, openDatabase, setSetting } from '@rampart/console';
import { dataPaths, keepOwnership, resolveDataDir } from '../supervisor/service-user.ts';

const modes = ['off', 'loose', 'strict'] as const;
type Mode = (typeof modes)[number];

const usage = `usage:
  rampart login-check [off|loose|strict] [--data-dir DIR]
      prints the login check mode, or sets it (off = the password alone signs in)
  rampart login-check reset-totp --username NAME [--data-dir DIR]
      removes the account's authenticator app (a lost phone); it can enrol a new one after signing in
`;

/**
 * The way back in when sign-in verification cannot be passed (no notification method works, the
 * phone with the authenticator is gone): run on the server, it changes the panel database directly.
 * The running console reads the mode on every sign-in, so no restart is needed.
 */
export async function run(args: string[]): Promise<number> {
  let values: { username?: string; 'data-dir'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, allowPositionals: true, options: { username: { type: 'string' }, 'data-dir': { type: 'string' } } }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  const [sub, ...extra] = positionals;
  const resetTotp = sub === 'reset-totp';
  if (extra.length > 0 || (sub !== undefined && !resetTotp && !(modes as readonly string[]).includes(sub)) || (resetTotp && !values.username)) {
    process.stderr.write(usage);
    return 2;
  }
  const dbPath = dataPaths(resolveDataDir(values['data-dir'])).consoleDb;
  if (!existsSync(dbPath)) {
    process.stderr.write(`No console database at ${dbPath}: start Rampart and register it first.\n`);
    return 1;
  }
  return keepOwnership(dbPath, () => {
    const db = openDatabase(dbPath);
    try {
      if (resetTotp) {
        const user = findUserByName(db, values.username!);
        if (!user) {
          process.stderr.write(`No account named ${values.username}.\n`);
          return 1;
        }
        deleteTotp(db, user.id);
        process.stdout.write(`Two-step verification (authenticator app) removed for ${user.username}.\n`);
        return 0;
      }
      if (sub !== undefined) setSetting(db, 'login_check_mode', sub as Mode);
      process.stdout.write(`login check mode: ${getSetting(db, 'login_check_mode')}\n`);
      return 0;
    } finally {
      db.close();
    }
  });
}
