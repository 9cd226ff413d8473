import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { hashToken } from '../src/security/tokens.ts';

let h: Harness;
let token: string;
/** Trust-terminal routes take only a terminal token (routes/terminal.ts): their input is checked with one. */
let terminalToken: string;
const tokenFor = (route: { access: { kind: string } }) => (route.access.kind === 'terminal' ? terminalToken : token);

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  const other = await h.addUser('other', 'roamer');
  const res = await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: other.username, password: other.password, client: 'terminal' } });
  terminalToken = res.json().data.token;
});
afterAll(() => h.close());

/** Every row of every table: bad input must leave all of it as it was. */
function snapshot(): string {
  const db = h.console.ctx.db;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
  return JSON.stringify(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()]));
}

/** The panel database, the agent's logging state (events, notices, snapshots, settings, backup rules) and the firewall's desired state. */
async function fullSnapshot(): Promise<string> {
  await h.console.ctx.events.flush();
  const call = h.agentClient.call.bind(h.agentClient);
  const [stats, notices, settings, rules] = await Promise.all([
    call('events.stats', {}), call('notices.list', { offset: 0, limit: 200 }), call('logs.settings.get', {}), call('logs.backup.get', {}),
  ]);
  const page = { offset: 0, limit: 1000 };
  const firewall = await Promise.all([
    call('firewall.rules.list', { direction: 'in', ...page }), call('firewall.rules.list', { direction: 'out', ...page }),
    call('firewall.lists.list', { list: 'white', ...page }), call('firewall.lists.list', { list: 'black', ...page }),
    call('firewall.intercept.list', page), call('firewall.attack.get', {}), call('trust.list', page), call('areas.list', page),
  ]);
  // System protection and NTP settings live in the agent too (basic tab).
  const basic = await Promise.all([call('protection.get', {}), call('ntp.get', {})]);
  return snapshot() + JSON.stringify({ events: stats.events, photos: stats.photos, notices, settings, rules, firewall, basic });
}

const malformedBodies: { name: string; payload: string; type?: string }[] = [
  { name: 'broken JSON', payload: '{"username": "admin", ' },
  { name: 'oversized', payload: JSON.stringify({ username: 'x'.repeat(200_000), password: 'y' }) },
  { name: 'wrong content type', payload: 'username=admin&password=x', type: 'application/x-www-form-urlencoded' },
  { name: 'binary', payload: '\u0000\u0001\u0002\uffff', type: 'application/octet-stream' },
  { name: 'deep nesting', payload: '['.repeat(5000) + ']'.repeat(5000) },
  { name: 'prototype pollution', payload: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}' },
];

// (JSON null is absent: Fastify hands a missing body to validation as null, so it means "no body".)
const wronglyTypedBodies: unknown[] = [
  [], 'text', 42, true, {},
  { username: ['admin'], password: { $ne: null }, remember: 'yes' },
  { key: 123, agree: 'true', confirm_move: 'no' },
  { module: 'firewall; rm -rf /', status: 2, way: -1 },
  { module: ['firewall'], status: '1' },
  { lang: 'fr-FR' },
  { username: 'admin', old: 1, new: ['a'], confirm: null },
  { username: 'a'.repeat(5000), password: 'b'.repeat(5000) },
];


function expectCleanRefusal(res: Awaited<ReturnType<Harness['app']['inject']>>, what: string) {
  expect(res.statusCode, what).not.toBe(500);
  expect(res.statusCode, what).toBeLessThan(500);
  const body = res.json();
  expect(typeof body.code, what).toBe('number');
  expect(typeof body.msg, what).toBe('string');
}

describe('bad input on every route', () => {
  it('refuses malformed and wrongly typed bodies with a clear 4xx and writes nothing', async () => {
    const before = await fullSnapshot();
    const routes = h.console.routes.filter((r) => r.method === 'POST');
    expect(routes.length).toBeGreaterThan(6);
    for (const route of routes) {
      for (const b of malformedBodies) {
        const res = await h.app.inject({
          method: 'POST', url: route.url, payload: b.payload,
          headers: { ...auth(tokenFor(route)), 'content-type': b.type ?? 'application/json', 'accept-language': 'en-US' },
        });
        expectCleanRefusal(res, `${route.url} ${b.name}`);
        expect(res.statusCode, `${route.url} ${b.name}`).toBeGreaterThanOrEqual(400);
        expect(res.json().msg).not.toBe('');
      }
      for (const payload of wronglyTypedBodies) {
        const res = await h.app.inject({ method: 'POST', url: route.url, payload: payload as InjectOptions['payload'], headers: auth(tokenFor(route)) });
        expectCleanRefusal(res, `${route.url} ${JSON.stringify(payload)}`);
        expect(res.json().code, `${route.url} ${JSON.stringify(payload)}`).not.toBe(0);
      }
    }
    expect(await fullSnapshot()).toBe(before);
    // The process is fine afterwards.
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(token) })).statusCode).toBe(200);
  });

  it('refuses junk queries', async () => {
    const before = await fullSnapshot();
    const junk = ['/magapi/restart?t=3', '/magapi/restart?t=1&t=2', '/magapi/restart', '/magapi/info?t=<script>', '/magapi/info?x=1'];
    // Every GET takes at most the cache-busting timestamp.
    const terminalUrls = new Set(h.console.routes.filter((r) => r.access.kind === 'terminal').map((r) => r.url));
    for (const r of h.console.routes) if (r.method === 'GET' && r.url !== '/ws') junk.push(`${r.url}?module=../../etc/passwd`, `${r.url}?t=${'9'.repeat(30)}`);
    for (const url of junk) {
      const bearer = terminalUrls.has(url.split('?')[0]!) ? terminalToken : token;
      const res = await h.app.inject({ method: url.includes('restart') ? 'POST' : 'GET', url, headers: auth(bearer) });
      expectCleanRefusal(res, url);
      expect(res.statusCode, url).toBe(400);
    }
    expect(h.executed).toEqual([]);
    expect(await fullSnapshot()).toBe(before);
  });

  it('answers 401 to bad, oversized and expired tokens on every signed-in route', async () => {
    const expired = 'E'.repeat(43);
    h.console.ctx.db.prepare('INSERT INTO sessions (token_hash, user_id, created_at, seen_at, expires_at, ip) VALUES (?, 1, 0, 0, 1, ?)')
      .run(hashToken(expired), '127.0.0.1');
    const before = snapshot();
    const bad = ['Bearer ', 'Bearer garbage', `Bearer ${'x'.repeat(10_000)}`, 'Basic YWRtaW46YWRtaW4=', `Bearer ${token}x`, `Bearer ${expired}`, token];
    for (const route of h.console.routes) {
      if (route.access.kind === 'public' || route.url === '/ws') continue;
      for (const authorization of bad) {
        const res = await h.app.inject({ method: route.method as 'GET', url: route.url, headers: { authorization } });
        expect(res.statusCode, `${route.url} ${authorization.slice(0, 20)}`).toBe(401);
      }
    }
    // The expired session was swept when it was presented; nothing else changed.
    const after = JSON.parse(snapshot()) as [string, unknown[]][];
    const sessionsAfter = after.find(([t]) => t === 'sessions')![1];
    expect(sessionsAfter).toHaveLength((JSON.parse(before) as [string, unknown[]][]).find(([t]) => t === 'sessions')![1].length - 1);
  });

  it('answers unknown API paths with a localized 404 envelope', async () => {
    const res = await h.app.inject({ url: '/magapi/nope', headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 2, msg: 'No such API' });
  });
});
