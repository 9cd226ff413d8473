import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { cloudStatusSchema, renderEvent } from '@rampart/contracts';
import { startTestAgent, type TestAgent } from './helpers.ts';
import { bundleText, feedKeys, otherKeys } from './cloud-support.ts';

/*
 * Cloud protection's agent calls on a real agent and socket, with no kernel (nft null: the
 * namespace test, cloud-kernel.test.ts, covers packets): pinned keys, every refusal of a bad
 * bundle leaving the installed feed as it was, and URL feeds fetched from a loopback HTTP server
 * started here, whose failed update raises an event while the old list stays.
 */

describe('cloud protection (agent)', () => {
  let agent: TestAgent;
  let client: AgentClient;
  let server: Server;
  let served = '';
  let status = 200;
  let base = '';
  /** The agent's clock for cloud protection: the schedule test moves it. */
  let clock = Date.now();

  beforeAll(async () => {
    agent = await startTestAgent({ cloud: { nft: null, timers: false, now: () => clock } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    server = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(served);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.close();
    await agent?.dispose();
  });

  const feeds = async () => cloudStatusSchema.parse(await client.call('cloud.status', {})).feeds;

  it('pins keys, and refuses a duplicate', async () => {
    const added = await client.call('cloud.keys.add', { name: 'lab', public_key: feedKeys.publicKey, account: 'admin1' });
    expect(added.refused).toBeNull();
    expect((await client.call('cloud.keys.add', { name: 'again', public_key: feedKeys.publicKey })).refused).toBe('cloud_key_duplicate');
    const keys = (await client.call('cloud.status', {})).keys;
    expect(keys).toHaveLength(1);
    expect(keys[0]?.key_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('imports a signed bundle, and refuses tampered, expired, unknown-key and older ones without changing anything', async () => {
    const first = await client.call('cloud.feeds.import', { bundle: bundleText({ version: 2, v4: '198.51.100.0/24\n10.0.0.0/8\n203.0.113.9\n' }), account: 'admin1', ip: '203.0.113.9' });
    expect(first).toMatchObject({ changed: 1, refused: null });
    const before = await feeds();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ name: 'Lab feed', version: 2, entries_v4: 3, licence: 'CC0-1.0', state: 'ok' });
    // 10/8 is private and 203.0.113.9 the administrator's own address: one range is left.
    expect(before[0]?.ranges_v4).toBe(1);

    const good = JSON.parse(bundleText({ version: 3 })) as { netsets: { v4: string }; manifest: { name: string } };
    const lineChanged = JSON.stringify({ ...good, netsets: { ...good.netsets, v4: '192.0.2.0/24\n' } });
    const manifestChanged = JSON.stringify({ ...good, manifest: { ...good.manifest, name: 'Renamed' } });
    const cases: Array<[string, string]> = [
      [lineChanged, 'cloud_bundle_tampered'],
      [manifestChanged, 'cloud_bundle_bad_signature'],
      [bundleText({ version: 3, expiresInMs: -1000 }), 'cloud_bundle_expired'],
      [bundleText({ version: 3, keys: otherKeys }), 'cloud_bundle_unknown_key'],
      [bundleText({ version: 2 }), 'cloud_bundle_not_newer'],
      [bundleText({ version: 1 }), 'cloud_bundle_not_newer'],
      ['{"format":"rampart-feed/1"}', 'cloud_bundle_invalid'],
      ['not json', 'cloud_bundle_invalid'],
    ];
    for (const [text, refused] of cases) {
      const answer = await client.call('cloud.feeds.import', { bundle: text, account: 'admin1' });
      expect(answer.refused, refused).toBe(refused);
      expect(answer.changed).toBe(0);
      expect(await feeds(), refused).toEqual(before);
    }
    const newer = await client.call('cloud.feeds.import', { bundle: bundleText({ version: 3 }), account: 'admin1' });
    expect(newer.refused).toBeNull();
    expect((await feeds())[0]).toMatchObject({ id: before[0]?.id, version: 3, entries_v4: 1 });
    const events = (await client.call('events.query', { limit: 50 })).list;
    expect(events.filter((e) => e.kind === 'cloud.feed_updated').length).toBe(2);
    expect(events.find((e) => e.kind === 'cloud.keys_changed')?.account).toBe('admin1');
  });

  it('refuses deleting a key that signs an installed feed', async () => {
    const key = (await client.call('cloud.status', {})).keys[0]!;
    expect((await client.call('cloud.keys.delete', { ids: [key.id] })).refused).toBe('cloud_key_in_use');
  });

  it('fetches a URL feed from a loopback server; a failed update keeps the old list and raises an event', async () => {
    served = bundleText({ id: 'url-feed', name: 'URL feed', version: 1, v4: '192.0.2.0/24\n', v6: '2001:db8::/32\n' });
    const url = `${base}/feed.json`;
    const added = await client.call('cloud.feeds.add_url', { url, interval_minutes: 60, account: 'admin1' });
    expect(added.refused).toBeNull();
    const id = added.ids[0]!;
    expect((await feeds()).find((f) => f.id === id)).toMatchObject({ url, interval_minutes: 60, entries_v4: 1, entries_v6: 1, state: 'ok' });

    // The same version again: nothing to do, no failure.
    expect((await client.call('cloud.feeds.update', { id })).refused).toBeNull();
    // A tampered newer version: refused, recorded on the row, an event; the installed version stays.
    const next = JSON.parse(bundleText({ id: 'url-feed', name: 'URL feed', version: 2, v4: '192.0.2.0/24\n' })) as { netsets: { v4: string } };
    served = JSON.stringify({ ...next, netsets: { ...next.netsets, v4: '192.0.2.0/23\n' } });
    expect((await client.call('cloud.feeds.update', { id })).refused).toBe('cloud_bundle_tampered');
    const row = (await feeds()).find((f) => f.id === id);
    expect(row).toMatchObject({ version: 1, state: 'failed', last_error: 'cloud_bundle_tampered' });
    // The URL now serves another installed feed (newer): refused, and that feed is left alone too.
    const other = (await feeds()).find((f) => f.feed_id === 'lab-feed')!;
    served = bundleText({ version: other.version + 1 });
    expect((await client.call('cloud.feeds.update', { id })).refused).toBe('cloud_bundle_invalid');
    expect((await feeds()).find((f) => f.feed_id === 'lab-feed')).toEqual(other);
    status = 503;
    expect((await client.call('cloud.feeds.update', { id })).refused).toBe('cloud_fetch_failed');
    const failed = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'cloud.update_failed');
    expect(failed.length).toBe(3);
    const unreachable = failed.find((e) => e.params['detail'] === 'HTTP 503')!;
    expect(renderEvent(unreachable.kind, unreachable.params, 'en-US').content).toBe('Threat-intel feed URL feed failed to update: Could not download the bundle: HTTP 503');
    expect(renderEvent(unreachable.kind, unreachable.params, 'zh-CN').content).toBe('威胁情报源 URL feed 更新失败：下载情报包失败：HTTP 503');
    // Served right again: the update goes in and the row is well again.
    status = 200;
    served = bundleText({ id: 'url-feed', name: 'URL feed', version: 2, v4: '192.0.2.0/24\n' });
    expect((await client.call('cloud.feeds.update', { id })).refused).toBeNull();
    expect((await feeds()).find((f) => f.id === id)).toMatchObject({ version: 2, state: 'ok', last_error: null });
    // The schedule: a newer version is fetched once the interval has passed, not before.
    served = bundleText({ id: 'url-feed', name: 'URL feed', version: 3, v4: '192.0.2.0/24\n' });
    clock += 30 * 60_000;
    await agent.cloud.tick();
    expect((await feeds()).find((f) => f.id === id)?.version).toBe(2);
    clock += 31 * 60_000;
    await agent.cloud.tick();
    expect((await feeds()).find((f) => f.id === id)?.version).toBe(3);
    expect((await client.call('cloud.feeds.add_url', { url, interval_minutes: 60 })).refused).toBe('cloud_url_duplicate');
  });

  it('switches and deletes feeds', async () => {
    const all = await feeds();
    expect((await client.call('cloud.feeds.set_enabled', { ids: [all[0]!.id], enabled: false })).changed).toBe(1);
    expect((await feeds())[0]?.enabled).toBe(false);
    expect((await client.call('cloud.feeds.delete', { ids: all.map((f) => f.id) })).changed).toBe(all.length);
    expect(await feeds()).toEqual([]);
    expect((await client.call('cloud.feeds.delete', { ids: [999] })).refused).toBe('cloud_feed_not_found');
  });
});
