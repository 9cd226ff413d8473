import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor } from '@rampart/firewall';
import { LAB_IP, canUseNetns, createLab, type Lab } from '../../../packages/firewall/tests/support/lab.ts';
import type { Peer } from '../../../packages/firewall/tests/support/peer.ts';
import { startTestAgent, type TestAgent } from './helpers.ts';
import { bundleText, feedKeys } from './cloud-support.ts';

/*
 * A threat-intel feed on the real kernel: the agent's feed table goes into the lab's server
 * namespace; the attacker also speaks from TEST-NET addresses (198.51.100.7, 2001:db8:77::7) that
 * a signed feed lists. Its own lab address (10.77.1.2) is listed too, and stays reachable: private
 * space is always subtracted. Needs root (skipped otherwise).
 */

const WEB = 8080;
const server = LAB_IP.server.toAttacker;

describe.skipIf(!canUseNetns())('cloud feeds on nftables (agent, real packets)', () => {
  let lab: Lab;
  let agent: TestAgent;
  let client: AgentClient;
  let attacker: Peer;
  const probe = (sourceAddress: string, host: string) => attacker.probe({ proto: 'tcp', host, port: WEB, sourceAddress }).then((r) => r.state);

  beforeAll(async () => {
    lab = await createLab();
    // A TEST-NET subnet on the attacker's link, both ends, so the server answers it directly.
    const toServer = lab.ifname('attacker', 'server');
    const toAttacker = lab.ifname('server', 'attacker');
    await lab.exec('attacker', ['ip', 'address', 'add', '198.51.100.7/24', 'dev', toServer]);
    await lab.exec('server', ['ip', 'address', 'add', '198.51.100.1/24', 'dev', toAttacker]);
    await lab.exec('attacker', ['ip', 'address', 'add', '2001:db8:77::7/64', 'dev', toServer, 'nodad']);
    await lab.exec('server', ['ip', 'address', 'add', '2001:db8:77::1/64', 'dev', toAttacker, 'nodad']);
    agent = await startTestAgent({ cloud: { nft: createNftExecutor({ netns: lab.names.server }), timers: false } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await (await lab.peer('server')).listen({ proto: 'tcp', port: WEB });
    attacker = await lab.peer('attacker');
  }, 60_000);
  afterAll(async () => {
    await agent?.dispose();
    await lab?.destroy();
  });

  it('blocks the feed\'s TEST-NET ranges, counts the hits, subtracts private space, and lets go when switched off', async () => {
    expect(await probe('198.51.100.7', '198.51.100.1')).toBe('open');
    await client.call('module.switch', { modules: ['cloud'], status: 1 });
    await client.call('cloud.keys.add', { name: 'lab', public_key: feedKeys.publicKey });
    const imported = await client.call('cloud.feeds.import', { bundle: bundleText({ v4: '198.51.100.0/24\n10.77.1.0/24\n', v6: '2001:db8:77::/64\n' }) });
    expect(imported.refused).toBeNull();

    const listing = (await lab.exec('server', ['nft', 'list', 'table', 'inet', 'rampart_cloud'])).stdout;
    expect(listing).toContain('198.51.100.0/24');
    expect(listing).not.toContain('10.77.1.0/24');

    expect(await probe('198.51.100.7', '198.51.100.1')).toBe('timeout');
    expect(await probe('2001:db8:77::7', '2001:db8:77::1')).toBe('timeout');
    // The lab address is in the feed but private: never blocked.
    expect(await probe(LAB_IP.attacker.v4, server.v4)).toBe('open');

    const feed = (await client.call('cloud.status', {})).feeds[0]!;
    expect(feed).toMatchObject({ entries_v4: 2, ranges_v4: 1, ranges_v6: 1 });
    expect(feed.hits).toBeGreaterThanOrEqual(2);

    // Hits survive a rebuild of the table (a switch of the feed off and on again).
    await client.call('cloud.feeds.set_enabled', { ids: [feed.id], enabled: false });
    expect(await probe('198.51.100.7', '198.51.100.1')).toBe('open');
    await client.call('cloud.feeds.set_enabled', { ids: [feed.id], enabled: true });
    expect((await client.call('cloud.status', {})).feeds[0]!.hits).toBeGreaterThanOrEqual(feed.hits);

    await client.call('module.switch', { modules: ['cloud'], status: 0 });
    expect((await lab.exec('server', ['nft', 'list', 'tables'])).stdout).not.toContain('rampart_cloud');
    expect(await probe('198.51.100.7', '198.51.100.1')).toBe('open');
  }, 60_000);
});
