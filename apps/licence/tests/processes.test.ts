import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { licenceCodePattern } from '@rampart/contracts';
import { findLicence, openLicenceDb } from '../src/index.ts';
import { deviceId, tempDir } from './support/temp-db.ts';
import { nodeBin, postJson, repoRoot, runCli, startAuthority, type RunningAuthority } from './support/processes.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function authorityOn(dbPath: string): Promise<RunningAuthority> {
  const authority = await startAuthority(dbPath);
  cleanups.push(() => authority.stop());
  return authority;
}

async function issueWithCli(dbPath: string, days: number, transfers: number): Promise<string> {
  const result = await runCli(['licence', 'issue', '--days', String(days), '--transfers', String(transfers), '--db', dbPath]);
  expect(result.code, result.stderr).toBe(0);
  const code = result.stdout.trim();
  expect(result.stdout).toBe(`${code}\n`);
  expect(code).toMatch(licenceCodePattern);
  return code;
}

describe('authority and CLI as real processes', () => {
  it('issues, activates, moves, refuses and stops cleanly over real HTTP', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dbPath = join(dir, 'licence.db');
    const authority = await authorityOn(dbPath);
    expect(authority.stdout()).toMatch(/^licence authority listening on http:\/\/127\.0\.0\.1:\d+\n$/);

    // The CLI writes to the database the running authority holds open.
    const code = await issueWithCli(dbPath, 30, 1);
    const [a, b, c] = [deviceId(), deviceId(), deviceId()];
    const activate = (body: object) => postJson(`${authority.url}/v1/activate`, body);
    const status = (body: object) => postJson(`${authority.url}/v1/status`, body);

    expect(await activate({ code, device_id: a })).toMatchObject({ status: 200, body: { status: 'activated', code, device_id: a, transfers_left: 1 } });
    expect(await status({ code, device_id: a })).toMatchObject({ status: 200, body: { status: 'active', code, device_id: a } });
    expect(await activate({ code, device_id: b })).toEqual({ status: 200, body: { status: 'need_confirm', transfers_left: 1 } });
    expect(await activate({ code: code.toLowerCase(), device_id: b, confirm_move: true })).toMatchObject({
      status: 200,
      body: { status: 'activated', device_id: b, transfers_left: 0 },
    });
    expect(await status({ code, device_id: a })).toEqual({ status: 409, body: { error: 'moved' } });
    expect(await activate({ code, device_id: c, confirm_move: true })).toEqual({ status: 409, body: { error: 'no_transfers' } });

    const expired = await issueWithCli(dbPath, 0, 1);
    expect(await activate({ code: expired, device_id: a })).toEqual({ status: 410, body: { error: 'expired' } });

    const list = await runCli(['licence', 'list', '--db', dbPath]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${code}  `);
    expect(list.stdout).toMatch(new RegExp(`^${code}  \\S+Z  ${b}  0/1$`, 'm'));
    expect(list.stdout).toMatch(new RegExp(`^${expired}  \\S+Z  -  1/1$`, 'm'));

    expect(await authority.stop()).toBe(0);
    expect(authority.stderr()).toBe('');
  });

  it('exits 0 on SIGINT as well', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const authority = await authorityOn(join(dir, 'licence.db'));
    authority.child.kill('SIGINT');
    expect(await authority.stop()).toBe(0);
  });

  it('two authorities racing for the last relocation of one code: exactly one wins', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dbPath = join(dir, 'licence.db');
    const [first, second] = await Promise.all([authorityOn(dbPath), authorityOn(dbPath)]);
    const code = await issueWithCli(dbPath, 30, 1);
    expect((await postJson(`${first.url}/v1/activate`, { code, device_id: deviceId() })).status).toBe(200);

    // Hold the write lock so both requests arrive and wait on it together, then let go: the
    // authorities must serialise read-decide-write, not both read "1 left" and both move the code.
    const db = openLicenceDb(dbPath);
    cleanups.push(() => db.close());
    db.exec('BEGIN IMMEDIATE');
    const racing = [first, second].map((authority) =>
      postJson(`${authority.url}/v1/activate`, { code, device_id: deviceId(), confirm_move: true }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    db.exec('COMMIT');
    const results = await Promise.all(racing);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body).toEqual({ error: 'no_transfers' });
    expect(findLicence(db, code)?.transfers_left).toBe(0);
  });

  it('refuses to start on a bad port with a clear message', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const child = spawn(nodeBin, ['apps/licence/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, RAMPART_LICENCE_PORT: '70000', RAMPART_LICENCE_DB: join(dir, 'licence.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'close');
    expect(code).toBe(1);
    expect(stderr).toMatch(/RAMPART_LICENCE_PORT must be a port number from 0 to 65535, got '70000'/);
  });
});
