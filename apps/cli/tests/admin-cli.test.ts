import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, hashPassword, openDatabase } from '@rampart/console';
import { verify } from '@node-rs/argon2';

const repo = join(import.meta.dirname, '../../..');
const cli = (args: string[], dataDir: string) =>
  spawnSync(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/cli/bin/rampart.js'), 'admin', ...args, '--data-dir', dataDir], { encoding: 'utf8' });

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-cli-'));
  const db = openDatabase(join(dir, 'console', 'panel.db'));
  createUser(db, { username: 'admin', passwordHash: await hashPassword('Forgotten1'), role: 'admin', now: Date.now() });
  db.prepare("INSERT INTO sessions (token_hash, user_id, created_at, seen_at, expires_at, ip) VALUES ('h', 1, 0, 0, NULL, '1.2.3.4')").run();
  db.prepare("INSERT INTO login_failures (ip, day, count) VALUES ('1.2.3.4', '2026-11-22', 99)").run();
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rampart admin', () => {
  it('reset-password prints a new admin password once, ends sessions and clears lock-outs', async () => {
    const r = cli(['reset-password'], dir);
    expect(r.status).toBe(0);
    const password = r.stdout.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    const db = openDatabase(join(dir, 'console', 'panel.db'));
    const row = db.prepare("SELECT password_hash FROM users WHERE username = 'admin'").get() as { password_hash: string };
    expect(await verify(row.password_hash, password)).toBe(true);
    expect(await verify(row.password_hash, 'Forgotten1')).toBe(false);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM login_failures').get()).toEqual({ n: 0 });
    db.close();
  });

  it('add-user creates an account of a role and refuses bad names, roles and duplicates', () => {
    const ok = cli(['add-user', '--username', 'tech01', '--role', 'technician'], dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim()).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(cli(['add-user', '--username', 'TECH01', '--role', 'auditor'], dir).status).toBe(1);
    expect(cli(['add-user', '--username', 'ab', '--role', 'auditor'], dir).status).toBe(2);
    expect(cli(['add-user', '--username', 'abcd', '--role', 'root'], dir).status).toBe(2);
  });

  it('explains itself on unknown commands and a missing database', () => {
    expect(cli(['frobnicate'], dir).status).toBe(2);
    const missing = cli(['reset-password'], join(dir, 'nowhere'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/No console database/);
  });
});
