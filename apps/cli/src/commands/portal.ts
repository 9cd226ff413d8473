import { existsSync } from 'node:fs';
import { getSetting, openDatabase, setSetting, transaction, type Db } from '@rampart/console';
import { subCommandArgs } from './sub-command.ts';
import { dataPaths, keepOwnership, resolveDataDir } from '../supervisor/service-user.ts';

const usage = `usage:
  rampart portal [--data-dir DIR]
      prints the panel's address settings (port, HTTPS, safe entry, bound domain, authorized IPs)
  rampart portal reset [--data-dir DIR]
      lifts the safe entry, the bound domain and the authorized-IP restriction (the running panel
      takes it within seconds), and puts port and HTTPS back to RAMPART_PORT over plain HTTP at
      the next start of Rampart
`;

function describe(db: Db): string {
  const port = getSetting(db, 'panel_port');
  const https = getSetting(db, 'panel_https');
  const authorized = getSetting(db, 'panel_authorized');
  return [
    `port: ${port ?? 'RAMPART_PORT (never saved)'}`,
    `https: ${https.enabled ? 'on' : 'off'}`,
    `safe entry: ${getSetting(db, 'panel_safe_entry') || '(none)'}`,
    `bound domain: ${getSetting(db, 'panel_domain') || '(any)'}`,
    `authorized IPs: ${authorized.enabled ? [...authorized.ips, ...authorized.areas].join(', ') || '(empty)' : 'off'}`,
  ].join('\n') + '\n';
}

/**
 * The way back in when the panel's own address settings shut its administrator out (a forgotten
 * safe entry, a domain that no longer resolves, an authorized-IP list without the current address):
 * run on the server, it changes the panel database directly.
 */
export async function run(args: string[]): Promise<number> {
  const parsed = subCommandArgs(args, ['reset'], usage);
  if (!parsed) return 2;
  const { sub } = parsed;
  const dbPath = dataPaths(resolveDataDir(parsed.dataDir)).consoleDb;
  if (!existsSync(dbPath)) {
    process.stderr.write(`No console database at ${dbPath}: start Rampart and register it first.\n`);
    return 1;
  }
  return keepOwnership(dbPath, () => {
    const db = openDatabase(dbPath);
    try {
      if (sub === 'reset') {
        transaction(db, () => {
          setSetting(db, 'panel_safe_entry', '');
          setSetting(db, 'panel_domain', '');
          setSetting(db, 'panel_authorized', { ...getSetting(db, 'panel_authorized'), enabled: false });
          setSetting(db, 'panel_https', { ...getSetting(db, 'panel_https'), enabled: false });
          setSetting(db, 'panel_port', null);
        });
        process.stdout.write('Safe entry, bound domain and authorized IPs lifted; port and HTTPS reset at the next start.\n');
      }
      process.stdout.write(describe(db));
      return 0;
    } finally {
      db.close();
    }
  });
}
