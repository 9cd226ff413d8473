import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayConfigSchema } from '@rampart/contracts';
import { reloadGateway, writeGatewayConfig } from '../src/website/gateway-link.ts';

/* The console's side of the gateway link, against real Unix sockets that answer as a gateway might. */

const dir = mkdtempSync(join(tmpdir(), 'rampart-gw-link-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fakeGateway(name: string, answer: (command: string) => string): Promise<{ path: string; close: () => Promise<void> }> {
  const path = join(dir, name);
  const server = net.createServer((socket) => socket.on('data', (chunk) => socket.write(answer(chunk.toString().trim()))));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('gateway link', () => {
  it('reads reloaded, refused with the reason, and an unreadable answer', async () => {
    const good = await fakeGateway('good.sock', (c) => (c === 'reload' ? '{"ok":true,"generation":2,"workers":[1]}\n' : '{}\n'));
    const bad = await fakeGateway('bad.sock', () => '{"ok":false,"reason":"listen EADDRINUSE 127.0.0.1:80"}\n');
    const junk = await fakeGateway('junk.sock', () => 'not json\n');
    try {
      expect(await reloadGateway(good.path)).toEqual({ state: 'reloaded' });
      expect(await reloadGateway(bad.path)).toEqual({ state: 'refused', reason: 'listen EADDRINUSE 127.0.0.1:80' });
      expect(await reloadGateway(junk.path)).toEqual({ state: 'refused', reason: 'unreadable answer' });
      expect(await reloadGateway(join(dir, 'absent.sock'))).toEqual({ state: 'not_running' });
    } finally {
      await Promise.all([good.close(), bad.close(), junk.close()]);
    }
  });

  it('writes the file whole, leaving no temporary file behind', () => {
    const file = join(dir, 'gw', 'gateway.json');
    const config = gatewayConfigSchema.parse({ sites: [] });
    writeGatewayConfig(file, config);
    writeGatewayConfig(file, { ...config, workers: 2 });
    expect(gatewayConfigSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).workers).toBe(2);
    expect(readdirSync(join(dir, 'gw'))).toEqual(['gateway.json']);
  });
});
