import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { licenceCodePattern } from '@rampart/contracts';
import { findLicence, openLicenceDb } from '@rampart/licence';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop() ?? '', { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-licence-cli-'));
  dirs.push(dir);
  return dir;
}

/** Runs the real `rampart` bin script in a child process. */
async function rampart(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(join(repoRoot, 'node_modules/.bin/node'), [join(repoRoot, 'apps/cli/bin/rampart.js'), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, RAMPART_LICENCE_DB: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

describe('rampart licence issue', () => {
  it('prints only the code on stdout and the details on stderr', async () => {
    const db = join(tempDir(), 'licence.db');
    const before = Date.now();
    const result = await rampart(['licence', 'issue', '--days', '30', '--transfers', '2', '--db', db]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{3}\n$/);
    const code = result.stdout.trim();
    expect(code).toMatch(licenceCodePattern);
    expect(result.stderr).toMatch(/^product RP-[0-9A-F]{12}, expires \d{4}-\d\d-\d\dT[\d:.]+Z, 2 transfer\(s\), database /);

    const handle = openLicenceDb(db);
    try {
      const licence = findLicence(handle, code);
      expect(licence).toMatchObject({ transfers_total: 2, transfers_left: 2, device_id: null });
      expect(licence?.expires_at).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
      expect(licence?.expires_at).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    } finally {
      handle.close();
    }
  });

  it('uses RAMPART_LICENCE_DB when --db is not given', async () => {
    const db = join(tempDir(), 'from-env', 'licence.db');
    const result = await rampart(['licence', 'issue', '--days', '1', '--transfers', '0'], { env: { RAMPART_LICENCE_DB: db } });
    expect(result.code).toBe(0);
    const list = await rampart(['licence', 'list'], { env: { RAMPART_LICENCE_DB: db } });
    expect(list.stdout.startsWith(result.stdout.trim() + '  ')).toBe(true);
  });

  it('defaults to ./var/licence/licence.db under the working directory', async () => {
    const cwd = tempDir();
    const result = await rampart(['licence', 'issue', '--days', '1', '--transfers', '0'], { cwd });
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, 'var/licence/licence.db'))).toBe(true);
  });

  it.each([
    [['licence'], /missing subcommand/],
    [['licence', 'revoke'], /unknown subcommand 'revoke'/],
    [['licence', 'issue'], /--days is required/],
    [['licence', 'issue', '--days', '30'], /--transfers is required/],
    [['licence', 'issue', '--transfers', '1'], /--days is required/],
    [['licence', 'issue', '--days', 'thirty', '--transfers', '1'], /--days must be a whole number from 0 to 36500, got 'thirty'/],
    [['licence', 'issue', '--days', '-1', '--transfers', '1'], /--days/],
    [['licence', 'issue', '--days', '1.5', '--transfers', '1'], /--days must be a whole number/],
    [['licence', 'issue', '--days', '99999', '--transfers', '1'], /--days must be a whole number/],
    [['licence', 'issue', '--days', '30', '--transfers', '-2'], /--transfers/],
    [['licence', 'issue', '--days', '30', '--transfers', '1', '--colour', 'red'], /Unknown option '--colour'/],
    [['licence', 'issue', '--days', '30', '--transfers', '1', 'extra'], /Unexpected argument 'extra'/],
    [['licence', 'issue', '--days', '30', '--transfers', '1', '--db='], /--db needs a path/],
    [['licence', 'list', '--days', '3'], /Unknown option '--days'/],
  ])('rampart %j exits 2 with a usage message', async (args, message) => {
    const cwd = tempDir();
    const result = await rampart(args, { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage:');
    // Nothing was written anywhere by a refused command.
    expect(existsSync(join(cwd, 'var'))).toBe(false);
  });
});

describe('rampart licence list', () => {
  it('prints one line per issued code: code, ISO expiry, device or -, transfers left/total', async () => {
    const db = join(tempDir(), 'licence.db');
    const first = (await rampart(['licence', 'issue', '--days', '30', '--transfers', '1', '--db', db])).stdout.trim();
    const second = (await rampart(['licence', 'issue', '--days', '0', '--transfers', '3', '--db', db])).stdout.trim();
    const result = await rampart(['licence', 'list', '--db', db]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const iso = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
    expect(lines.find((l) => l.startsWith(first))).toMatch(new RegExp(`^${first}  ${iso}  -  1/1$`));
    expect(lines.find((l) => l.startsWith(second))).toMatch(new RegExp(`^${second}  ${iso}  -  3/3$`));
  });

  it('says so on stderr when the database holds no codes', async () => {
    const db = join(tempDir(), 'licence.db');
    openLicenceDb(db).close();
    const result = await rampart(['licence', 'list', '--db', db]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: `no licences in ${db}\n` });
  });

  it('fails without creating a database when the path does not exist', async () => {
    const db = join(tempDir(), 'typo.db');
    const result = await rampart(['licence', 'list', '--db', db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no licence database at ${db}`);
    expect(existsSync(db)).toBe(false);
  });
});
