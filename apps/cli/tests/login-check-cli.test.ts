import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, getSetting, hashPassword, openDatabase } from '@rampart/console';

const repo = join(import.meta.dirname, '../../..');
const cli = (args: string[], dataDir: string) =>
  spawnSync(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/cli/bin/rampart.js'), 'login-check', ...args, '--data-dir', dataDir], { encoding: 'utf8' });

let dir: string;
const dbPath = () => join(dir, 'console', 'panel.db');
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-cli-check-'));
  const db = openDatabase(dbPath());
  createUser(db, { username: 'admin', passwordHash: await hashPassword('Forgotten1'), role: 'admin', now: Date.now() });
  db.prepare("INSERT INTO totp_enrolments (user_id, secret, active, last_step, created_at) VALUES (1, 'v1:x:y:z', 1, 0, 0)").run();
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mode = () => {
  const db = openDatabase(dbPath());
  try {
    return getSetting(db, 'login_check_mode');
  } finally {
    db.close();
  }
};

describe('rampart login-check', () => {
  it('prints and sets the login check mode', () => {
    expect(cli([], dir)).toMatchObject({ status: 0, stdout: 'login check mode: off\n' });
    expect(cli(['strict'], dir).status).toBe(0);
    expect(mode()).toBe('strict');
    expect(cli(['off'], dir)).toMatchObject({ status: 0, stdout: 'login check mode: off\n' });
    expect(mode()).toBe('off');
  });

  it('removes an account\'s authenticator', () => {
    expect(cli(['reset-totp', '--username', 'ADMIN'], dir).status).toBe(0);
    const db = openDatabase(dbPath());
    expect(db.prepare('SELECT COUNT(*) AS n FROM totp_enrolments').get()).toEqual({ n: 0 });
    db.close();
    expect(cli(['reset-totp', '--username', 'nobody'], dir).status).toBe(1);
  });

  it('refuses unknown modes and a missing database', () => {
    expect(cli(['sometimes'], dir).status).toBe(2);
    expect(cli(['reset-totp'], dir).status).toBe(2);
    expect(cli(['off'], join(dir, 'nowhere'))).toMatchObject({ status: 1, stderr: expect.stringMatching(/No console database/) });
    expect(mode()).toBe('off');
  });
});
