import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoleId } from '@rampart/contracts';
import { AgentClient } from '@rampart/agent-client';
import { startAgent, type AgentOptions, type RunningAgent } from '@rampart/agent';
import { buildAuthority, issueLicence, openLicenceDb, type LicenceDb } from '@rampart/licence';
import type { FastifyInstance } from 'fastify';
import { buildConsole, type Console } from '../../src/app.ts';
import { createUser } from '../../src/db/users.ts';
import { hashPassword } from '../../src/security/passwords.ts';

export const deviceA = 'a'.repeat(32);

export interface Harness {
  dir: string;
  console: Console;
  app: FastifyInstance;
  agent: RunningAgent | null;
  agentClient: AgentClient;
  authority: FastifyInstance;
  licenceDb: LicenceDb;
  executed: string[];
  clock: { now: number };
  issue(days?: number, transfers?: number): string;
  register(code?: string): Promise<{ username: string; password: string }>;
  login(username: string, password: string, ip?: string): Promise<string>;
  addUser(role: RoleId, username?: string, password?: string): Promise<{ username: string; password: string; token: string }>;
  close(): Promise<void>;
}

/**
 * A console on a real SQLite file, a real agent on a real Unix socket, and a real licence
 * authority over real HTTP on loopback — all in a temp dir. `clock.now` drives the console's time.
 */
export async function startHarness(options: {
  /**
   * false: no agent (a test starts its own later, or tests the console without one). A function:
   * the harness's agent with these options laid over its own (top-level keys replace), given the
   * harness's temp dir for fixture paths.
   */
  agent?: boolean | ((dir: string) => Partial<AgentOptions>);
  deviceId?: string;
  /** The built web app, for browser tests on the test clock. */
  webDir?: string;
} = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-console-'));
  const executed: string[] = [];
  const socketPath = join(dir, 'agent.sock');
  const clock = { now: Date.now() };
  const agent = options.agent === false ? null : await startAgent({
    socketPath,
    stateDir: join(dir, 'agent'),
    executors: {
      restartSoftware: async () => void executed.push('restart'),
      rebootServer: async () => void executed.push('reboot'),
    },
    log: () => {},
    actionDelayMs: 10,
    // The event store runs on the console's test clock, with its upkeep driven by the tests.
    logs: { now: () => clock.now, background: false },
    // Desired state only: tests never change the host's kernel ruleset.
    firewall: { nft: null, now: () => clock.now, background: false, sensors: { journal: false } },
    ...(typeof options.agent === 'function' ? options.agent(dir) : {}),
  });
  // Longer than the product's: test files run two at a time on 2 cores, and a slow answer there is load, not a fault.
  const agentClient = new AgentClient(socketPath, { timeoutMs: 10_000 });
  const licenceDb = openLicenceDb(join(dir, 'licence.db'));
  const authority = buildAuthority({ db: licenceDb, rateLimit: { max: 10_000, windowMs: 60_000 } });
  await authority.listen({ host: '127.0.0.1', port: 0 });
  const licenceUrl = `http://127.0.0.1:${(authority.server.address() as { port: number }).port}`;
  const console = await buildConsole({
    db: join(dir, 'panel.db'), agent: agentClient, licenceUrl, deviceId: () => options.deviceId ?? deviceA,
    now: () => clock.now, background: false, webDir: options.webDir ?? join(dir, 'no-web'),
  });
  const app = console.app;

  const h: Harness = {
    dir, console, app, agent, agentClient, authority, licenceDb, executed, clock,
    issue: (days = 30, transfers = 1) => issueLicence(licenceDb, { days, transfers }).code,
    async register(code) {
      const res = await app.inject({ method: 'POST', url: '/magapi/register', payload: { key: code ?? h.issue(), agree: true } });
      const body = res.json();
      if (body.code !== 0 || body.data.status !== 'registered') throw new Error(`registration failed: ${res.body}`);
      return { username: body.data.username, password: body.data.password };
    },
    async login(username, password, ip = '127.0.0.1') {
      const res = await app.inject({ method: 'POST', url: '/magapi/login', payload: { username, password }, remoteAddress: ip });
      const body = res.json();
      if (body.code !== 0) throw new Error(`login failed: ${res.body}`);
      return body.data.token as string;
    },
    async addUser(role, username = `${role}1`, password = 'Secret123') {
      createUser(console.ctx.db, { username, passwordHash: await hashPassword(password), role, now: clock.now });
      const token = role === 'other' ? '' : await h.login(username, password);
      return { username, password, token };
    },
    async close() {
      await console.close();
      agentClient.close();
      await agent?.close();
      await authority.close();
      licenceDb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

export function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** One `/magapi` call as the holder of `token`, in a language: the HTTP status and the parsed envelope. */
export async function magapi(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: { token: string; payload?: unknown; lang?: 'zh-CN' | 'en-US' },
): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes of every route
  const res = await app.inject({
    method, url: `/magapi${url}`, headers: { ...auth(options.token), 'accept-language': options.lang ?? 'en-US' },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });
  return { status: res.statusCode, body: res.json() };
}
