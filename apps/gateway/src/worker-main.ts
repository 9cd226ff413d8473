/**
 * A gateway worker process (forked by the primary through node:cluster). It receives the
 * configuration by IPC, opens its listeners (shared with its siblings through the primary), says
 * ready, and on `drain` stops accepting, finishes what it has and exits.
 */
import cluster from 'node:cluster';
import type { GatewayConfig } from '@rampart/contracts';
import { GatewayServers } from './gateway-servers.ts';
import type { GatewayEvent } from './inspector.ts';
import { loadInspector } from './load-inspector.ts';

export type ToWorker = { type: 'config'; config: GatewayConfig; inspectorModule?: string; exposeWorker: boolean } | { type: 'drain'; graceMs: number };
export type FromWorker =
  | { type: 'ready'; addresses: Record<string, { address: string; port: number }> }
  | { type: 'failed'; reason: string }
  | { type: 'event'; event: GatewayEvent }
  | { type: 'log'; message: string };

const send = (m: FromWorker) => process.send?.(m);

if (!cluster.isWorker) throw new Error('worker-main.ts runs only as a cluster worker');

let servers: GatewayServers | undefined;
process.on('message', (message: ToWorker) => {
  void (async () => {
    if (message.type === 'config') {
      try {
        const inspector = await loadInspector(message.inspectorModule, (m) => send({ type: 'log', message: m }));
        const generation = process.env.RAMPART_GATEWAY_GENERATION ?? '0';
        servers = new GatewayServers({
          inspector,
          onEvent: (event) => send({ type: 'event', event }),
          workerTag: message.exposeWorker ? `${process.pid}/${generation}` : undefined,
        });
        await servers.apply(message.config);
        send({ type: 'ready', addresses: servers.addresses() });
      } catch (err) {
        send({ type: 'failed', reason: (err as Error).message });
        // Listeners opened before the failure may already have been handed connections: finish them.
        await servers?.drain(5_000);
        process.exit(1);
      }
    } else if (message.type === 'drain') {
      await servers?.drain(message.graceMs);
      process.exit(0);
    }
  })();
});
// The primary going away (crash, kill -9) must not leave orphans holding ports.
process.on('disconnect', () => process.exit(0));
