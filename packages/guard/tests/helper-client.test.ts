import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuardDenial, GuardNetDenial } from '@rampart/contracts';
import { GuardHelperClient, planGuard } from '../src/index.ts';
import { FakeHelper } from './fake-helper.ts';
import { webTree } from './fixtures.ts';

/* The helper client against a fake helper on a real unix socket. */

let dir: string;
let socketPath: string;
const closers: (() => Promise<void>)[] = [];

async function until(ok: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const denial: GuardDenial = { event: 'denied', op: 'w', rule: 'tamper:1', notify: true, pid: 77, uid: 33, comm: 'sh', exe: '/usr/bin/dash', path: '/var/www/index.php', repeats: 1, time: 1_700_000_000_000 };

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-guard-client-'));
  socketPath = path.join(dir, 'guard.sock');
});
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  await rm(dir, { recursive: true, force: true });
});

function client(extra: Partial<ConstructorParameters<typeof GuardHelperClient>[0]> = {}) {
  const logs: string[] = [];
  const denials: GuardDenial[] = [];
  let connects = 0;
  const c = new GuardHelperClient({
    socketPath,
    log: (line) => logs.push(line),
    onDenial: (d) => denials.push(d),
    onConnect: () => void (connects += 1),
    backoff: { minMs: 20, maxMs: 100 },
    timeoutMs: 500,
    ...extra,
  });
  closers.push(() => c.close());
  c.start();
  return { c, logs, denials, connects: () => connects };
}

describe('guard helper client', () => {
  it('hands network denials to onNetDenial, apart from file denials, and drops them quietly without it', async () => {
    const helper = await FakeHelper.listen(socketPath);
    closers.push(() => helper.close());
    const net: GuardNetDenial[] = [];
    const netDenial: GuardNetDenial = { event: 'net_denied', proto: 'udp', family: 6, peer: '::1', port: 53, rule: 'process:3', pid: 9, uid: 0, comm: 'php', exe: '/usr/bin/php', repeats: 2, time: 1_700_000_000_000 };
    const { c, logs, denials } = client({ onNetDenial: (d) => net.push(d) });
    await until(() => c.connected);
    helper.push(JSON.stringify(netDenial));
    helper.push(JSON.stringify({ ...netDenial, proto: 'icmp' }));
    helper.push(JSON.stringify(denial));
    await until(() => denials.length === 1);
    expect(net).toEqual([netDenial]);
    expect(logs.filter((line) => line.startsWith('guard helper: bad event'))).toHaveLength(1);

    const quiet = client();
    await until(() => quiet.c.connected);
    helper.push(JSON.stringify(netDenial));
    helper.push(JSON.stringify(denial));
    await until(() => quiet.denials.length === 1);
    expect(quiet.logs.filter((line) => line.startsWith('guard helper:'))).toEqual([]);
  });

  it('says hello, applies a plan, and gets denials; bad lines are logged and skipped', async () => {
    const helper = await FakeHelper.listen(socketPath);
    closers.push(() => helper.close());
    const { c, logs, denials } = client();
    await until(() => c.connected);
    expect(await c.hello()).toMatchObject({ backend: 'fanotify', cause: 'lsm_refused' });
    const { plan } = planGuard(webTree);
    expect(await c.apply(plan)).toEqual({ generation: 7, objects: 4, sets: 3, exes: 2 });
    expect(helper.plans[0]).toEqual(plan);

    helper.push('not json');
    helper.push(JSON.stringify({ event: 'denied', op: 'q' }));
    helper.push(JSON.stringify({ id: 'x' }));
    helper.push(JSON.stringify(denial));
    await until(() => denials.length === 1);
    expect(denials[0]).toEqual(denial);
    expect(logs.filter((line) => line.startsWith('guard helper:'))).toHaveLength(3);
    logs.length = 0;
    // the connection survived the bad lines
    expect((await c.status()).generation).toBe(7);
    // an answer that does not fit ends its request at once
    helper.silent = true;
    const asked = helper.requests.length;
    const pending = c.hello();
    await until(() => helper.requests.length > asked);
    helper.push(JSON.stringify({ id: Number(helper.requests.at(-1)!['id']), ok: true, hello: { backend: 'bpf' } }));
    await expect(pending).rejects.toThrow(/does not fit/);
  });

  it('an error answer rejects; no answer times out; not connected rejects at once', async () => {
    const helper = await FakeHelper.listen(socketPath);
    closers.push(() => helper.close());
    const { c } = client();
    await expect(c.hello()).rejects.toThrow(/not connected/);
    await until(() => c.connected);
    helper.silent = true;
    await expect(c.hello()).rejects.toThrow(/did not answer hello/);
  });

  it('reconnects with backoff when the helper goes away and comes back', async () => {
    const { c, connects } = client();
    // nothing listens yet: it keeps trying
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.connected).toBe(false);
    let helper = await FakeHelper.listen(socketPath);
    await until(() => c.connected);
    expect(connects()).toBe(1);
    await helper.close();
    await until(() => !c.connected);
    await rm(socketPath, { force: true });
    helper = await FakeHelper.listen(socketPath);
    closers.push(() => helper.close());
    await until(() => c.connected);
    expect(connects()).toBe(2);
    expect((await c.hello()).backend).toBe('fanotify');
  });

  it('a line past the size limit drops the connection, which comes back', async () => {
    const helper = await FakeHelper.listen(socketPath);
    closers.push(() => helper.close());
    const { c, logs, connects } = client({ maxLineBytes: 1000 });
    await until(() => c.connected);
    helper.push('x'.repeat(5000));
    await until(() => connects() === 2);
    expect(logs.some((line) => line.includes('size limit'))).toBe(true);
  });
});
