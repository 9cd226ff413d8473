import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetting, openDatabase, setSetting } from '@rampart/console';

const repo = join(import.meta.dirname, '../../..');
const cli = (args: string[], dataDir: string) =>
  spawnSync(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/cli/bin/rampart.js'), 'portal', ...args, '--data-dir', dataDir], { encoding: 'utf8' });

let dir: string;
const dbPath = () => join(dir, 'console', 'panel.db');
const withDb = <T>(fn: (db: ReturnType<typeof openDatabase>) => T): T => {
  const db = openDatabase(dbPath());
  try {
    return fn(db);
  } finally {
    db.close();
  }
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-cli-portal-'));
  withDb((db) => {
    setSetting(db, 'panel_port', 8443);
    setSetting(db, 'panel_safe_entry', 'hidden-door');
    setSetting(db, 'panel_domain', 'panel.example.com');
    setSetting(db, 'panel_authorized', { enabled: true, ips: ['198.51.100.7'], areas: ['JP'] });
    setSetting(db, 'panel_https', { enabled: true, cert: 'PEM', key_sealed: 'v1:a:b:c' });
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rampart portal', () => {
  it('prints the address settings without changing them', () => {
    const shown = cli([], dir);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('port: 8443');
    expect(shown.stdout).toContain('safe entry: hidden-door');
    expect(shown.stdout).toContain('authorized IPs: 198.51.100.7, JP');
    expect(withDb((db) => getSetting(db, 'panel_safe_entry'))).toBe('hidden-door');
  });

  it('reset lifts the entry, domain and IP limits and puts port and HTTPS back, keeping the lists for later', () => {
    expect(cli(['reset'], dir).status).toBe(0);
    withDb((db) => {
      expect(getSetting(db, 'panel_safe_entry')).toBe('');
      expect(getSetting(db, 'panel_domain')).toBe('');
      expect(getSetting(db, 'panel_authorized')).toEqual({ enabled: false, ips: ['198.51.100.7'], areas: ['JP'] });
      expect(getSetting(db, 'panel_https')).toMatchObject({ enabled: false, cert: 'PEM' });
      expect(getSetting(db, 'panel_port')).toBeNull();
    });
  });

  it('refuses an unknown subcommand', () => {
    expect(cli(['open-sesame'], dir).status).toBe(2);
  });
});
