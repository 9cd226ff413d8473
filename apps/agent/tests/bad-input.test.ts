import { randomBytes } from 'node:crypto';
import { agentMaxLineBytes } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startTestAgent, type TestAgent } from './helpers.ts';

type Response = { id: number; ok: boolean; error?: { code: string; message: string }; result?: unknown };

describe('the agent under bad input', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.dispose());

  /** Sends raw lines, expects one error per line, then checks the same connection still works. */
  async function expectErrors(lines: string[], code: string): Promise<Response[]> {
    const client = await RawClient.connect(agent.socketPath);
    try {
      client.send(lines.map((line) => `${line}\n`).join(''));
      const responses = (await client.waitForLines(lines.length)) as Response[];
      expect(responses).toHaveLength(lines.length);
      for (const response of responses) {
        expect(response.ok, JSON.stringify(response)).toBe(false);
        expect(response.error?.code, JSON.stringify(response)).toBe(code);
      }
      const good = await client.request(777, 'module.list');
      expect(good.ok).toBe(true);
      return responses;
    } finally {
      client.end();
    }
  }

  it('invalid JSON → bad_request', async () => {
    const responses = await expectErrors(['{', 'hello', '{"id":1,', '[]', '42', 'null', '"str"'], 'bad_request');
    expect(responses.every((r) => r.id === -1)).toBe(true);
  });

  it('unknown method → unknown_method, answered with the request id', async () => {
    const responses = await expectErrors(
      [
        JSON.stringify({ id: 5, method: 'host.reboot', params: {} }),
        JSON.stringify({ id: 6, method: '__proto__', params: {} }),
        JSON.stringify({ id: 7, method: 'constructor', params: {} }),
      ],
      'unknown_method',
    );
    expect(responses.map((r) => r.id).sort()).toEqual([5, 6, 7]);
  });

  it('wrong types and missing fields → bad_request', async () => {
    await expectErrors(
      [
        JSON.stringify({ id: 'one', method: 'host.info', params: {} }),
        JSON.stringify({ id: -3, method: 'host.info', params: {} }),
        JSON.stringify({ id: 1.5, method: 'host.info', params: {} }),
        JSON.stringify({ id: 1, method: 'host.info' }),
        JSON.stringify({ id: 1, method: 42, params: {} }),
        JSON.stringify({ method: 'host.info', params: {} }),
        JSON.stringify({ id: 2, method: 'module.switch', params: { modules: 'firewall', status: 1 } }),
        JSON.stringify({ id: 3, method: 'module.switch', params: { modules: [], status: 1 } }),
        JSON.stringify({ id: 4, method: 'module.switch', params: { modules: ['kernel'], status: 1 } }),
        JSON.stringify({ id: 5, method: 'module.switch', params: { modules: ['firewall'], status: 2 } }),
        JSON.stringify({ id: 6, method: 'module.switch', params: { modules: ['firewall'], status: '1' } }),
      ],
      'bad_request',
    );
  });

  it('extra fields, in params or beside them → bad_request, and nothing changes', async () => {
    const responses = await expectErrors(
      [
        JSON.stringify({ id: 1, method: 'host.info', params: { verbose: true } }),
        JSON.stringify({ id: 2, method: 'module.switch', params: { modules: ['firewall'], status: 1, force: true } }),
        JSON.stringify({ id: 3, method: 'module.switch', params: { modules: ['firewall'], status: 1 }, sudo: true }),
      ],
      'bad_request',
    );
    expect(responses.map((r) => r.id).sort()).toEqual([1, 2, 3]);
    const client = await RawClient.connect(agent.socketPath);
    const list = await client.request(9, 'module.list');
    client.end();
    expect((list.result as Record<string, number>).firewall).toBe(0);
  });

  it('binary garbage → bad_request per line, and the agent keeps serving', async () => {
    const client = await RawClient.connect(agent.socketPath);
    // Random bytes with the newlines taken out, then split into three lines.
    const junk = Buffer.from(randomBytes(3000).filter((byte) => byte !== 0x0a));
    client.send(Buffer.concat([junk.subarray(0, 1000), Buffer.from('\n'), junk.subarray(1000, 2000), Buffer.from('\n'), Buffer.from([0xff, 0xfe, 0x7b, 0x7d, 0x0a])]));
    const responses = (await client.waitForLines(3)) as Response[];
    expect(responses.map((r) => r.error?.code)).toEqual(['bad_request', 'bad_request', 'bad_request']);
    expect((await client.request(1, 'module.list')).ok).toBe(true);
    client.end();
  });

  it('an oversized line gets an error and the connection is closed; others are unaffected', async () => {
    const bystander = await RawClient.connect(agent.socketPath);
    const client = await RawClient.connect(agent.socketPath);
    const huge = Buffer.alloc(agentMaxLineBytes * 4, 0x61);
    // Sent without a newline: the agent must not wait for the end of the line to refuse it.
    client.send(huge);
    await client.waitForClose();
    const responses = client.lines.map((line) => JSON.parse(line) as Response);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.error?.code).toBe('bad_request');
    expect(responses[0]!.error?.message).toMatch(/longer than/);

    expect((await bystander.request(2, 'module.list')).ok).toBe(true);
    bystander.end();
    const fresh = await RawClient.connect(agent.socketPath);
    expect((await fresh.request(3, 'module.list')).ok).toBe(true);
    fresh.end();
  });

  it('a line of exactly the limit is still read and answered', async () => {
    const client = await RawClient.connect(agent.socketPath);
    const prefix = '{"id":11,"method":"module.list","params":{}';
    const line = prefix + ' '.repeat(agentMaxLineBytes - prefix.length - 1) + '}';
    expect(Buffer.byteLength(line)).toBe(agentMaxLineBytes);
    client.send(`${line}\n`);
    const [response] = (await client.waitForLines(1)) as Response[];
    expect(response).toMatchObject({ id: 11, ok: true });
    client.end();
  });

  it('many concurrent requests on one connection each get their own answer', async () => {
    const client = await RawClient.connect(agent.socketPath);
    const methods = ['host.info', 'module.list', 'host.rates', 'nope', 'module.list'];
    const count = 500;
    const lines: string[] = [];
    for (let id = 1; id <= count; id++) lines.push(JSON.stringify({ id, method: methods[id % methods.length], params: {} }));
    client.send(lines.join('\n') + '\n');
    const responses = (await client.waitForLines(count, 20_000)) as Response[];
    expect(responses).toHaveLength(count);
    expect(new Set(responses.map((r) => r.id)).size).toBe(count);
    for (const response of responses) {
      const method = methods[response.id % methods.length];
      if (method === 'nope') expect(response.error?.code).toBe('unknown_method');
      else expect(response.ok, JSON.stringify(response)).toBe(true);
    }
    client.end();
  });

  it('many concurrent connections are all served', async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, () => RawClient.connect(agent.socketPath)));
    const answers = await Promise.all(clients.map((client, index) => client.request(index, 'module.list')));
    expect(answers.every((answer, index) => answer.ok && answer.id === index)).toBe(true);
    for (const client of clients) client.end();
  });

  it('stops reading from a client that does not read its answers (no unbounded buffering)', async () => {
    const flooder = await RawClient.connect(agent.socketPath);
    flooder.socket.pause();
    const request = `${JSON.stringify({ id: 1, method: 'module.list', params: {} })}\n`;
    const total = 4 * 1024 * 1024;
    flooder.send(request.repeat(Math.ceil(total / request.length)));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The agent paused once its answers backed up, so most of the flood is still unsent here.
    expect(flooder.socket.writableLength).toBeGreaterThan(total / 2);
    flooder.end();
    const other = await RawClient.connect(agent.socketPath);
    expect((await other.request(6, 'module.list')).ok).toBe(true);
    other.end();
  });

  it('a client that vanishes mid-request does not hurt the agent', async () => {
    for (let i = 0; i < 20; i++) {
      const client = await RawClient.connect(agent.socketPath);
      client.send(`${JSON.stringify({ id: i, method: 'host.info', params: {} })}\n{"id":`);
      client.end();
    }
    const client = await RawClient.connect(agent.socketPath);
    expect((await client.request(1, 'host.info')).ok).toBe(true);
    client.end();
  });

  it('a client that half-closes after sending still gets its answers', async () => {
    const client = await RawClient.connect(agent.socketPath);
    client.socket.end(`${JSON.stringify({ id: 1, method: 'host.info', params: {} })}\n${JSON.stringify({ id: 2, method: 'host.rates', params: {} })}\n`);
    await client.waitForClose();
    const ids = client.lines.map((line) => (JSON.parse(line) as Response).id).sort();
    expect(ids).toEqual([1, 2]);
  });
});
