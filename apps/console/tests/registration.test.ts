import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { issueLicence, openLicenceDb } from '@rampart/licence';
import { buildConsole, type Console } from '../src/app.ts';
import { auth } from './support/harness.ts';

const repo = join(import.meta.dirname, '../../..');
const node = join(repo, 'node_modules/.bin/node');

/** The licence authority as its own process, as a vendor runs it. */
async function spawnAuthority(dbPath: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(node, [join(repo, 'apps/licence/src/main.ts')], {
    env: { ...process.env, RAMPART_LICENCE_PORT: '0', RAMPART_LICENCE_DB: dbPath },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`authority exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return { url, proc };
}

const en = { 'accept-language': 'en-US' };
let dir: string;
let authority: { url: string; proc: ChildProcess };
const consoles: Console[] = [];
const clients: AgentClient[] = [];

async function newConsole(name: string, deviceId: string, licenceUrl = authority.url): Promise<Console> {
  // No agent runs here: registration must not depend on it.
  const agent = new AgentClient(join(dir, `${name}-no-agent.sock`), { timeoutMs: 500 });
  clients.push(agent);
  const c = await buildConsole({ db: join(dir, `${name}.db`), agent, licenceUrl, deviceId: () => deviceId, background: false });
  consoles.push(c);
  return c;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-reg-'));
  authority = await spawnAuthority(join(dir, 'authority.db'));
});
afterAll(async () => {
  for (const c of consoles) await c.close();
  for (const a of clients) a.close();
  authority.proc.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

function issue(days: number, transfers: number): string {
  // The vendor's CLI writes the authority's database directly; the running authority sees it.
  const db = openLicenceDb(join(dir, 'authority.db'));
  try {
    return issueLicence(db, { days, transfers }).code;
  } finally {
    db.close();
  }
}

describe('registration against a licence authority in another process', () => {
  it('answers 503 before registration except for the sign-in config, the agreement and registration', async () => {
    const c = await newConsole('fresh', 'c'.repeat(32));
    for (const url of ['/magapi/info', '/magapi/home/index', '/magapi/global', '/magapi/system/reg']) {
      const res = await c.app.inject({ url, headers: en });
      expect(res.statusCode, url).toBe(503);
      expect(res.json().msg).toBe('The software is not registered yet, please register first');
    }
    expect((await c.app.inject({ url: '/magapi/login' })).json().data).toEqual({ registered: false, check_mode: 'off' });
    expect((await c.app.inject({ url: '/magapi/licence', headers: en })).json().data.title).toMatch(/Licence Agreement/);
    expect((await c.app.inject({ url: '/magapi/licence', headers: { 'accept-language': 'zh-CN' } })).json().data.title).toMatch(/许可协议/);
  });

  it('validates the product key and the agreement before asking the authority', async () => {
    const c = await newConsole('validate', 'd'.repeat(32));
    const post = (payload: object) => c.app.inject({ method: 'POST', url: '/magapi/register', payload, headers: en });
    expect((await post({ key: '', agree: true })).json().msg).toBe('Please enter the licence code');
    expect((await post({ key: 'ABCD-EF', agree: true })).json().msg).toBe('Licence codes look like AAA-BBB');
    expect((await post({ key: 'ABC-DEF', agree: false })).json().msg).toBe('Please Agree to the License Agreement');
    expect((await post({ key: 'ABC-DEF' })).json().msg).toBe('Please Agree to the License Agreement');
    expect((await post({ key: 'ZZZ-ZZZ', agree: true })).json()).toMatchObject({ code: 2, msg: 'No such licence code' });
    expect((await post({ key: issue(0, 1), agree: true })).json().msg).toBe('This licence code has expired');
  });

  it('shows the admin password once, binds the device, and moves to a second device only after confirmation', async () => {
    const code = issue(30, 1);
    const first = await newConsole('device-a', 'a'.repeat(32));
    const reg = (await first.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code.toLowerCase(), agree: true } })).json();
    expect(reg.code).toBe(0);
    expect(reg.data).toMatchObject({ status: 'registered', username: 'admin' });
    expect(reg.data.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(reg.data.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // The password is stored only as an argon2id hash and is never shown again.
    const row = first.ctx.db.prepare('SELECT password_hash FROM users').get() as { password_hash: string };
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const again = (await first.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code, agree: true }, headers: en })).json();
    expect(again).toMatchObject({ code: 2, msg: 'The software is already registered' });

    const login = (await first.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: 'admin', password: reg.data.password } })).json();
    const token = login.data.token as string;
    const info = (await first.app.inject({ url: '/magapi/system/reg', headers: auth(token) })).json().data;
    expect(info).toMatchObject({ product_key: code, device_id: 'a'.repeat(32), transfers_left: 1, expired: false });

    // The same code on a second device: the user is asked first, and nothing is bound yet.
    const second = await newConsole('device-b', 'b'.repeat(32));
    const ask = (await second.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code, agree: true } })).json();
    expect(ask.data).toEqual({ status: 'need_confirm', transfers_left: 1 });
    expect((await second.app.inject({ url: '/magapi/info' })).statusCode).toBe(503);
    const moved = (await second.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code, agree: true, confirm_move: true } })).json();
    expect(moved.data).toMatchObject({ status: 'registered', username: 'admin' });

    // The first device learns on refresh that its licence moved away, and stops serving.
    const refresh = (await first.app.inject({ method: 'POST', url: '/magapi/system/reg/refresh', headers: { ...auth(token), ...en } })).json();
    expect(refresh.msg).toBe('This licence code has moved to another device; please register again');
    expect((await first.app.inject({ url: '/magapi/info', headers: auth(token) })).statusCode).toBe(503);

    // No relocations left: a third device is refused even when it confirms.
    const third = await newConsole('device-c', 'e'.repeat(32));
    const refused = (await third.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code, agree: true, confirm_move: true }, headers: en })).json();
    expect(refused.msg).toBe('This licence code has no relocations left');
  });

  it('stops serving when the licence expires and re-registers without touching the admin password', async () => {
    const c = await newConsole('expiry', 'f'.repeat(32));
    const reg = (await c.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: issue(30, 0), agree: true } })).json();
    c.ctx.db.prepare('UPDATE registration SET expires_at = ?').run(Date.now() - 1);
    expect((await c.app.inject({ url: '/magapi/info' })).statusCode).toBe(503);
    const renewed = (await c.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: issue(365, 0), agree: true } })).json();
    expect(renewed.data).toMatchObject({ status: 'registered', username: 'admin', password: null });
    const login = (await c.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: 'admin', password: reg.data.password } })).json();
    expect(login.code).toBe(0);
  });

  it('tells the user when the authority cannot be reached, and changes nothing', async () => {
    const c = await newConsole('offline', '9'.repeat(32), 'http://127.0.0.1:9');
    const res = (await c.app.inject({ method: 'POST', url: '/magapi/register', payload: { key: 'ABC-DEF', agree: true }, headers: en })).json();
    expect(res.msg).toBe('Cannot reach the licence server, check the network and retry');
    expect(c.ctx.db.prepare('SELECT COUNT(*) AS n FROM registration').get()).toEqual({ n: 0 });
    expect(c.ctx.db.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 0 });
  });
});
