import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { agentMaxLineBytes, type AgentParams } from '@rampart/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentCallError, AgentClient, AgentUnavailableError } from '../src/index.ts';
import { FakeAgent, flags, type FakeReply, type ReceivedRequest } from './fake-agent.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fake(reply: (request: ReceivedRequest, index: number) => FakeReply | Promise<FakeReply>): Promise<FakeAgent> {
  const agent = await FakeAgent.start(reply);
  cleanups.push(() => agent.stop());
  return agent;
}

function client(socketPath: string, timeoutMs?: number): AgentClient {
  const c = new AgentClient(socketPath, { timeoutMs });
  cleanups.push(() => c.close());
  return c;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected the call to fail');
  return outcome;
}

describe('AgentClient', () => {
  it('sends one request line with a fresh id and returns the validated result', async () => {
    const agent = await fake((request) => ({ id: request.id, ok: true, result: flags }));
    const c = client(agent.socketPath);
    expect(await c.call('module.list', {})).toEqual(flags);
    expect(await c.call('module.switch', { modules: ['firewall'], status: 1 })).toEqual(flags);
    expect(agent.received).toEqual([
      { id: 1, method: 'module.list', params: {} },
      { id: 2, method: 'module.switch', params: { modules: ['firewall'], status: 1 } },
    ]);
    // Lazy connect, one connection reused.
    expect(agent.connections).toBe(1);
  });

  it('does not connect until the first call', async () => {
    const agent = await fake((request) => ({ id: request.id, ok: true, result: flags }));
    client(agent.socketPath);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(agent.connections).toBe(0);
  });

  it('matches answers that come back out of order', async () => {
    const agent = await fake(async (request) => {
      // The first request is answered last.
      await new Promise((resolve) => setTimeout(resolve, request.id === 1 ? 100 : 10));
      return { id: request.id, ok: true, result: { scheduled: request.id === 1 } };
    });
    const c = client(agent.socketPath);
    const [first, second] = await Promise.all([c.call('software.restart', {}), c.call('server.reboot', {})]);
    expect(first).toEqual({ scheduled: true });
    expect(second).toEqual({ scheduled: false });
  });

  it('throws AgentUnavailableError when there is no socket', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-client-test-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const error = await failure(client(path.join(dir, 'missing.sock')).call('host.info', {}));
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect(error.message).toMatch(/ENOENT/);
  });

  it('throws AgentUnavailableError when nobody listens on the socket file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-client-test-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    // A socket file with no listener: bind a server, keep the file, close the server.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'live.sock'), resolve));
    await link(path.join(dir, 'live.sock'), path.join(dir, 'dead.sock'));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(client(path.join(dir, 'dead.sock')).call('host.info', {}));
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('times out against an agent that never answers', async () => {
    const agent = await fake(() => 'silence');
    const c = client(agent.socketPath, 300);
    const started = Date.now();
    const error = await failure(c.call('host.info', {}));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect(error.message).toMatch(/within 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1000);
    expect(agent.received).toHaveLength(1);
  });

  it('ignores a late answer to a call that already timed out', async () => {
    const agent = await fake(async (request) => {
      if (request.id === 1) await new Promise((resolve) => setTimeout(resolve, 300));
      return { id: request.id, ok: true, result: { scheduled: request.id === 2 } };
    });
    const c = client(agent.socketPath, 150);
    expect(await failure(c.call('server.reboot', {}))).toBeInstanceOf(AgentUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await c.call('server.reboot', {})).toEqual({ scheduled: true });
  });

  it('throws AgentCallError with the code when the agent answers ok:false', async () => {
    const agent = await fake((request) => ({ id: request.id, ok: false, error: { code: 'not_root', message: 'needs root' } }));
    const error = await failure(client(agent.socketPath).call('host.info', {}));
    expect(error).toBeInstanceOf(AgentCallError);
    expect((error as AgentCallError).code).toBe('not_root');
    expect(error.message).toBe('needs root');
  });

  it('refuses invalid params before sending anything', async () => {
    const agent = await fake((request) => ({ id: request.id, ok: true, result: flags }));
    const c = client(agent.socketPath);
    const bad = [
      { modules: ['kernel'], status: 1 },
      { modules: [], status: 1 },
      { modules: ['firewall'], status: 2 },
      { modules: ['firewall'], status: 1, force: true },
    ] as unknown as AgentParams<'module.switch'>[];
    for (const params of bad) {
      const error = await failure(c.call('module.switch', params));
      expect(error).toBeInstanceOf(AgentCallError);
      expect((error as AgentCallError).code).toBe('bad_request');
    }
    expect(await failure(c.call('no.such' as 'host.info', {}))).toBeInstanceOf(AgentCallError);
    expect(agent.received).toEqual([]);
    expect(agent.connections).toBe(0);
  });

  it('refuses a result that breaks the contract', async () => {
    const agent = await fake((request) => ({ id: request.id, ok: true, result: { rx: -5, tx: 'fast', at: 1 } }));
    const error = await failure(client(agent.socketPath).call('host.rates', {}));
    expect(error).toBeInstanceOf(AgentCallError);
    expect((error as AgentCallError).code).toBe('failed');
  });

  it('fails every call on a connection that drops, and reconnects on the next call', async () => {
    const agent = await fake((request, index) => (index === 0 ? 'hangup' : { id: request.id, ok: true, result: flags }));
    const c = client(agent.socketPath);
    const error = await failure(c.call('module.list', {}));
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect(await c.call('module.list', {})).toEqual(flags);
    expect(agent.connections).toBe(2);
  });

  it('reconnects to an agent that came back after being away', async () => {
    const first = await FakeAgent.start((request) => ({ id: request.id, ok: true, result: flags }));
    const socketPath = first.socketPath;
    const c = client(socketPath);
    expect(await c.call('module.list', {})).toEqual(flags);
    await first.stop();
    expect(await failure(c.call('module.list', {}))).toBeInstanceOf(AgentUnavailableError);

    // A new agent on the same path.
    await mkdir(path.dirname(socketPath), { recursive: true });
    cleanups.push(() => rm(path.dirname(socketPath), { recursive: true, force: true }));
    const again = net.createServer((socket) => {
      socket.on('data', (chunk) => {
        const request = JSON.parse(chunk.toString()) as ReceivedRequest;
        socket.write(`${JSON.stringify({ id: request.id, ok: true, result: { scheduled: true } })}\n`);
      });
    });
    await new Promise<void>((resolve) => again.listen(socketPath, resolve));
    cleanups.push(() => new Promise<void>((resolve) => again.close(() => resolve())));
    expect(await c.call('software.restart', {})).toEqual({ scheduled: true });
    // The server only finishes closing once the client's connection is gone.
    c.close();
  });

  it('gives up on an agent that sends an endless line', async () => {
    const agent = await fake(() => ({ raw: 'x'.repeat(agentMaxLineBytes + 10) }));
    // (8 MiB over a socket: on a machine busy with the whole suite that outlasted the 5 s call
    // timeout once, which then answered first. The line limit is what is tested here.)
    const error = await failure(client(agent.socketPath).call('host.info', {}, { timeoutMs: 60_000 }));
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect(error.message).toMatch(/longer than/);
  });

  it('close() fails calls in flight and refuses new ones', async () => {
    const agent = await fake(() => 'silence');
    const c = client(agent.socketPath);
    const pending = failure(c.call('host.info', {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    c.close();
    expect(await pending).toBeInstanceOf(AgentUnavailableError);
    expect(await failure(c.call('host.info', {}))).toBeInstanceOf(AgentUnavailableError);
  });
});
