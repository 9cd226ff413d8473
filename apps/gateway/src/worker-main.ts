/**
 * A gateway worker process (forked by the primary through node:cluster). It receives the
 * configuration by IPC, opens its listeners (shared with its siblings through the primary), says
 * ready, and on `drain` stops accepting, finishes what it has and exits. Its WorkerServices are the
 * cluster's (cluster-services.ts): timed lists, counts and events shared through the primary.
 */
import cluster from 'node:cluster';
import { createClusterServices } from './cluster-services.ts';
import type { FromWorker, ToWorker } from './cluster-messages.ts';
import { GatewayServers } from './gateway-servers.ts';
import { loadInspector } from './load-inspector.ts';
import type { WorkerServices } from './services.ts';

export type { FromWorker, ToWorker } from './cluster-messages.ts';

const send = (m: FromWorker) => process.send?.(m);

if (!cluster.isWorker) throw new Error('worker-main.ts runs only as a cluster worker');

const services = createClusterServices({ send, log: (message) => send({ type: 'log', message }) });
let servers: GatewayServers | undefined;
let onReleased: (() => void) | undefined;
process.on('message', (message: ToWorker) => {
  if (message.type === 'released') return onReleased?.();
  if (services.receive(message)) return;
  void (async () => {
    if (message.type === 'config') {
      try {
        services.configure(message);
        const inspector = await loadInspector(message.inspectorModule, (m) => send({ type: 'log', message: m }));
        if (message.inspectorModule) {
          // Test and diagnostics hook: an inspector module may take the worker's services (to count, list, emit).
          const mod = (await import(message.inspectorModule)) as { useServices?: (s: WorkerServices) => void };
          mod.useServices?.(services);
        }
        const generation = process.env.RAMPART_GATEWAY_GENERATION ?? '0';
        servers = new GatewayServers({
          inspector,
          onEvent: message.notices === false ? () => {} : (event) => send({ type: 'event', event }),
          workerTag: message.exposeWorker ? `${process.pid}/${generation}` : undefined,
          services,
          log: (m) => send({ type: 'log', message: m }),
        });
        await servers.apply(message.config);
        send({ type: 'ready', addresses: servers.addresses() });
      } catch (err) {
        send({ type: 'failed', reason: (err as Error).message });
        // Listeners opened before the failure may already have been handed connections: finish them.
        await servers?.drain(5_000);
        await exitAfterFlush(1);
      }
    } else if (message.type === 'drain') {
      await servers?.drain(message.graceMs);
      await exitAfterFlush(0);
    }
  })();
});
// The primary going away (crash, kill -9) must not leave orphans holding ports.
process.on('disconnect', () => process.exit(0));

/**
 * Waits until the primary hands this worker no more connections. The primary accepts each
 * connection and sends it to a worker over IPC, keeping its own copy until the worker answers
 * whether it took it; one sent to a worker that exits before reading it is neither served nor closed
 * (the client waits forever). A worker with nothing left to finish drains in a moment, so without
 * this wait a connection accepted just as a reload retired it was lost (tests/reload-handoff.test.ts).
 * The round trip settles it: the primary answers `released` after it saw this worker close its
 * listeners, and every connection it sent before that arrives here first and is sent back to it
 * (node:cluster does that for a worker whose listener is closed).
 */
function releasedByPrimary(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!process.send || !process.connected) return resolve();
    const timer = setTimeout(resolve, 2000);
    onReleased = () => {
      clearTimeout(timer);
      resolve();
    };
    send({ type: 'listeners-closed' });
  });
}

/** Sends the last counts and events before exiting (a draining worker's last blocks must reach the console). */
async function exitAfterFlush(code: number): Promise<never> {
  await releasedByPrimary();
  services.flush();
  services.stop();
  // process.send queues; an empty sync with a callback resolves once everything before it is written.
  await new Promise<void>((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send({ type: 'sync', counts: [], events: [], dropped: 0 } satisfies FromWorker, undefined, {}, () => resolve());
    setTimeout(resolve, 1000).unref();
  });
  process.exit(code);
}
