import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { AgentClient } from '@rampart/agent-client';
import { buildConsole, createUser, hashPassword, openDatabase, setSetting, type Console } from '@rampart/console';
import { buildAuthority, issueLicence, openLicenceDb, type LicenceDb } from '@rampart/licence';
import type { FastifyInstance, InjectOptions } from 'fastify';

/*
 * `rampart trust` (issue 28) as a child process against a real console listening on loopback, with a
 * real agent on a real Unix socket behind it: the super-whitelist entry checked is the agent's. The
 * panel has a safe entry, so the CLI has to visit it and keep its cookie. The panel asks for a beat
 * every 30 s; RAMPART_TRUST_BEAT_SECONDS makes the CLI beat every second so the test sees beats.
 */

const repo = join(import.meta.dirname, '../../..');
const entry = 'hidden-door';
const password = 'Roaming123';

let dir: string;
let agent: RunningAgent;
let agentClient: AgentClient;
let authority: FastifyInstance;
let licenceDb: LicenceDb;
let panel: Console;
let url: string;
let cookie: string;
let admin: { username: string; password: string };

/** app.inject past the safe entry. */
const inject = (options: InjectOptions) => panel.app.inject({ ...options, headers: { cookie, 'accept-language': 'en-US', ...options.headers } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-cli-trust-'));
  const dbPath = join(dir, 'panel.db');
  const db = openDatabase(dbPath);
  setSetting(db, 'panel_safe_entry', entry);
  db.close();

  const socketPath = join(dir, 'agent.sock');
  agent = await startAgent({
    socketPath,
    stateDir: join(dir, 'agent'),
    executors: { restartSoftware: async () => undefined, rebootServer: async () => undefined },
    log: () => {},
    // Desired state only: the test never changes the host's kernel ruleset.
    firewall: { nft: null, background: false, sensors: { journal: false } },
  });
  agentClient = new AgentClient(socketPath, { timeoutMs: 3000 });
  licenceDb = openLicenceDb(join(dir, 'licence.db'));
  authority = buildAuthority({ db: licenceDb, rateLimit: { max: 10_000, windowMs: 60_000 } });
  await authority.listen({ host: '127.0.0.1', port: 0 });
  panel = await buildConsole({
    db: dbPath, agent: agentClient, licenceUrl: `http://127.0.0.1:${(authority.server.address() as { port: number }).port}`,
    deviceId: () => 'c'.repeat(32), background: false, webDir: join(dir, 'no-web'), portal: { areaOf: () => [] },
  });

  const visit = await panel.app.inject({ method: 'GET', url: `/${entry}` });
  cookie = String(visit.headers['set-cookie']).split(';')[0]!;
  const registered = await inject({ method: 'POST', url: '/magapi/register', payload: { key: issueLicence(licenceDb, { days: 30, transfers: 1 }).code, agree: true } });
  admin = { username: registered.json().data.username, password: registered.json().data.password };
  createUser(panel.ctx.db, { username: 'roamer', passwordHash: await hashPassword(password), role: 'other', now: Date.now() });
  createUser(panel.ctx.db, { username: 'neighbour', passwordHash: await hashPassword(password), role: 'other', now: Date.now() });

  await panel.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(panel.app.server.address() as { port: number }).port}/${entry}`;
});

afterAll(async () => {
  await panel?.close();
  agentClient?.close();
  await agent?.close();
  await authority?.close();
  licenceDb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a failed test left behind. */
const children = new Set<ChildProcessWithoutNullStreams>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

function passwordFile(content: string): string {
  const file = join(dir, `password-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, content, { mode: 0o600 });
  return file;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when stdout matches (or rejects after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** The real `rampart` bin in a child process; stdin is a pipe (not a terminal). */
function rampart(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/cli/bin/rampart.js'), 'trust', ...args], {
    cwd: repo, env: { ...process.env, LANG: 'C', LC_ALL: '', LC_MESSAGES: '', ...env }, stdio: 'pipe',
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const w of [...watchers]) if (w.pattern.test(stdout)) {
      watchers.splice(watchers.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, ms = 15_000) => new Promise<void>((resolve, reject) => {
      if (pattern.test(stdout)) return resolve();
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${ms} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`)), ms);
      watchers.push({ pattern, resolve: () => (clearTimeout(timer), resolve()) });
    }),
    exited,
  };
}

/** Runs to the end with stdin closed at once. */
async function finished(args: string[], env: Record<string, string> = {}) {
  const run = rampart(args, env);
  run.child.stdin.end();
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const trusted = async (ip: string) => (await agentClient.call('trust.check', { ip })).trusted;

describe('rampart trust', () => {
  it('gives the usage without --url or --user, and refuses to read a password from a pipe', async () => {
    // Independent runs, side by side: each is a Node start-up.
    const [noUrl, noUser, zh, keep, piped, pipedZh] = await Promise.all([
      finished(['--user', 'roamer']),
      finished(['--url', url]),
      finished(['--user', 'roamer', '--lang', 'zh-CN']),
      finished(['--url', url, '--user', 'roamer', '--keep', '2']),
      finished(['--url', url, '--user', 'roamer']),
      finished(['--url', url, '--user', 'roamer'], { LANG: 'zh_CN.UTF-8' }),
    ]);
    for (const run of [noUrl, noUser]) expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('rampart trust --url PANEL_URL --user ACCOUNT') });
    expect(zh).toMatchObject({ code: 2, stderr: expect.stringContaining('用法：') });
    expect(keep).toMatchObject({ code: 2, stderr: expect.stringContaining('--keep is 0, 1, 8 or 24') });
    expect(piped.code).not.toBe(0);
    expect(piped.stderr).toContain('standard input is not a terminal): give --password-file');
    expect(pipedZh.code).not.toBe(0);
    expect(pipedZh.stderr).toContain('请用 --password-file 指定密码文件');
  });

  it('says so when the password is wrong, in the language asked for, and when the safe entry is missing', async () => {
    const wrong = passwordFile('Wrong4567\n');
    const [en, zh, noEntry] = await Promise.all([
      finished(['--url', url, '--user', 'roamer', '--password-file', wrong, '--lang', 'en-US']),
      finished(['--url', url, '--user', 'roamer', '--password-file', wrong, '--lang', 'zh-CN']),
      finished(['--url', url.replace(`/${entry}`, ''), '--user', 'roamer', '--password-file', passwordFile(password)]),
    ]);
    expect(en.code).toBe(1);
    expect(en.stderr).toContain('Wrong account or password');
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain('账号或密码错误');
    expect(en.stderr + zh.stderr).not.toContain('Wrong4567');
    expect(noEntry.code).toBe(1);
    expect(noEntry.stderr).toContain('is not a Rampart panel\'s (HTTP 404)');
  });

  it('signs in, trusts 127.0.0.1 while it beats, starts again after an address change, and stops trusting it on SIGINT', async () => {
    expect(await trusted('127.0.0.1')).toBe(false);
    const run = rampart(['--url', url, '--user', 'roamer', '--password-file', passwordFile(`${password}\nsecond line ignored\n`), '--lang', 'en-US'], {
      RAMPART_TRUST_BEAT_SECONDS: '1',
    });
    await run.waitFor(/· trusted · trusted until/);
    expect(run.stdout()).toContain('Now trusting 127.0.0.1');
    expect(run.stdout()).toContain('Signed in to the trust terminal as roamer');
    expect(run.stdout()).toContain('The panel sees your address as 127.0.0.1');
    expect(run.stdout()).toContain('This is a local address');
    expect(run.stdout()).toMatch(/^\[[\d-]+ [\d:]+\] 127\.0\.0\.1 · trusted · trusted until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
    expect(await trusted('127.0.0.1')).toBe(true);

    // Two more status lines: beats.
    await run.waitFor(/(· trusted · trusted until [^\n]+\n[^]*){3}/);
    const terminals = await inject({ method: 'GET', url: '/magapi/system/trust/terminals', headers: { authorization: `Bearer ${await adminToken()}` } });
    expect(terminals.json().data.list).toEqual(expect.arrayContaining([expect.objectContaining({ account: 'roamer', ip: '127.0.0.1', state: 'trusted' })]));

    // The panel sees the terminal at another address than the one it started from (a move): the
    // beat is refused, and the CLI starts again, the address check included.
    panel.ctx.db.prepare("UPDATE trust_terminals SET ip = '198.51.100.50'").run();
    await run.waitFor(/(Now trusting 127\.0\.0\.1[^]*){2}· trusted · trusted until/);
    expect(run.stderr()).toContain('Your address changed from 198.51.100.50 to 127.0.0.1');
    expect(run.stderr()).toContain('Starting again for the new address');
    expect(await trusted('127.0.0.1')).toBe(true);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('Stopped: Trust stopped and the terminal ended');
    expect(await trusted('127.0.0.1')).toBe(false);
    expect(run.stdout() + run.stderr()).not.toContain(password);
  });

  it('refuses an address another account\'s terminal uses unless --accept-proxy is given', async () => {
    const other = await inject({ method: 'POST', url: '/magapi/login', payload: { username: 'neighbour', password, client: 'terminal' }, remoteAddress: '127.0.0.1' });
    const otherToken = other.json().data.token as string;
    try {
      const file = passwordFile(password);
      const refused = await finished(['--url', url, '--user', 'roamer', '--password-file', file, '--lang', 'en-US']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Trust terminals of 1 other account(s) use this address');
      expect(refused.stderr).toContain('Without --accept-proxy');
      expect(await trusted('127.0.0.1')).toBe(false);

      const accepted = rampart(['--url', url, '--user', 'roamer', '--password-file', file, '--accept-proxy', '--keep', '1', '--lang', 'zh-CN']);
      await accepted.waitFor(/已开始信任 127\.0\.0\.1/);
      expect(accepted.stdout()).toContain('信任时长：至少 1 小时');
      expect(await trusted('127.0.0.1')).toBe(true);
      accepted.child.kill('SIGTERM');
      expect(await accepted.exited).toBe(0);
      expect(accepted.stdout()).toContain('已停止信任，终端已结束');
    } finally {
      await inject({ method: 'POST', url: '/magapi/terminal/stop', headers: { authorization: `Bearer ${otherToken}` } });
    }
  });

  it('exits non-zero with the panel\'s message when an administrator ends the terminal', async () => {
    const run = rampart(['--url', url, '--user', 'roamer', '--password-file', passwordFile(password), '--lang', 'en-US'], { RAMPART_TRUST_BEAT_SECONDS: '1' });
    await run.waitFor(/Now trusting/);
    const token = await adminToken();
    const list = await inject({ method: 'GET', url: '/magapi/system/trust/terminals', headers: { authorization: `Bearer ${token}` } });
    const id = (list.json().data.list as { id: number; account: string }[]).find((row) => row.account === 'roamer')!.id;
    const ended = await inject({ method: 'POST', url: `/magapi/system/trust/terminals/end?id=${id}`, headers: { authorization: `Bearer ${token}` } });
    expect(ended.json().code).toBe(0);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('The trust terminal has ended: This trust terminal is not signed in or has ended: sign in again');
    expect(await trusted('127.0.0.1')).toBe(false);
  });
});

describe('rampart trust over HTTPS with a self-signed certificate', () => {
  it('refuses the certificate unless --ca names it or --insecure is given (loudly)', async () => {
    // openssl makes the certificate, as an administrator would; a small HTTPS front passes calls on to the panel.
    const certFile = join(dir, 'panel-cert.pem');
    const keyFile = join(dir, 'panel-key.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile,
      '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' });
    const upstream = new URL(url);
    const front = createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const httpsUrl = `https://127.0.0.1:${(front.address() as { port: number }).port}/${entry}`;
      const file = passwordFile(password);
      const withCa = rampart(['--url', httpsUrl, '--user', 'roamer', '--password-file', file, '--ca', certFile, '--lang', 'en-US']);
      const [unverified, insecure] = await Promise.all([
        finished(['--url', httpsUrl, '--user', 'roamer', '--password-file', file, '--lang', 'en-US']),
        finished(['--url', httpsUrl, '--user', 'roamer', '--password-file', passwordFile('Wrong4567'), '--insecure', '--lang', 'en-US']),
      ]);
      expect(unverified.code).toBe(1);
      expect(unverified.stderr).toContain('Cannot verify the panel\'s HTTPS certificate (DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(insecure.code).toBe(1);
      expect(insecure.stderr).toContain('!!! WARNING: --insecure turns HTTPS certificate verification off');
      expect(insecure.stderr).toContain('Wrong account or password');

      await withCa.waitFor(/· trusted · trusted until/);
      expect(withCa.stderr()).not.toContain('WARNING');
      withCa.child.kill('SIGTERM');
      expect(await withCa.exited).toBe(0);
      expect(await trusted('127.0.0.1')).toBe(false);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});

describe('rampart trust with sign-in verification', () => {
  it('asks for the authenticator code, reads it, and starts', async () => {
    const token = await adminToken();
    const headers = { authorization: `Bearer ${token}` };
    const enrolment = await inject({ method: 'POST', url: '/magapi/login/totp/new', payload: { password: admin.password }, headers, remoteAddress: '198.51.100.9' });
    const secret = enrolment.json().data.secret as string;
    const confirmed = await inject({ method: 'POST', url: '/magapi/login/totp/confirm', payload: { code: totpCode(secret, Date.now()) }, headers, remoteAddress: '198.51.100.9' });
    expect(confirmed.json().code).toBe(0);
    setSetting(panel.ctx.db, 'login_check_mode', 'strict');
    try {
      const run = rampart(['--url', url, '--user', admin.username, '--password-file', passwordFile(admin.password), '--lang', 'en-US']);
      // The next step's code: the one just used to confirm is spent.
      run.child.stdin.write(`${totpCode(secret, Date.now() + 30_000)}\n`);
      await run.waitFor(/· trusted · trusted until/);
      expect(run.stderr()).toContain('Verify it is you. Methods:\n  1) authenticator app (TOTP)\nCode: ');
      expect(await trusted('127.0.0.1')).toBe(true);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(await trusted('127.0.0.1')).toBe(false);
    } finally {
      setSetting(panel.ctx.db, 'login_check_mode', 'off');
    }
  });
});

/** RFC 6238: the code an authenticator app shows at `ms` for a base32 secret. */
function totpCode(secret: string, ms: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** An administrator's console session, from an address that is not the terminal's. */
async function adminToken(): Promise<string> {
  const res = await inject({ method: 'POST', url: '/magapi/login', payload: admin, remoteAddress: '198.51.100.9' });
  return res.json().data.token as string;
}
