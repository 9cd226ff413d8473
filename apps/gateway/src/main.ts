/**
 * `node apps/gateway/src/main.ts --config <file> [--admin-socket <path>] [--workers n] [--inspector <module>]`
 * (or RAMPART_GATEWAY_CONFIG / RAMPART_GATEWAY_ADMIN_SOCKET). Blocks are written to stdout as JSON
 * lines (`{"event":…}`) until the agent's event store takes them; logs go to stderr.
 */
import { parseArgs } from 'node:util';
import { listenAdminSocket } from './admin-socket.ts';
import { GatewayPrimary } from './primary.ts';

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    'admin-socket': { type: 'string' },
    workers: { type: 'string' },
    inspector: { type: 'string' },
    'expose-worker': { type: 'boolean', default: false },
    'drain-grace-ms': { type: 'string' },
  },
});
const configPath = values.config ?? process.env.RAMPART_GATEWAY_CONFIG;
if (!configPath) {
  process.stderr.write('usage: main.ts --config <file> (or RAMPART_GATEWAY_CONFIG)\n');
  process.exit(2);
}
const log = (m: string) => process.stderr.write(`[gateway] ${m}\n`);
const primary = new GatewayPrimary({
  configPath,
  ...(values.workers !== undefined ? { workers: Number(values.workers) } : {}),
  ...(values.inspector ? { inspectorModule: values.inspector } : {}),
  ...(values['drain-grace-ms'] ? { drainGraceMs: Number(values['drain-grace-ms']) } : {}),
  exposeWorker: values['expose-worker'] || process.env.RAMPART_GATEWAY_EXPOSE_WORKER === '1',
  ...(process.env.RAMPART_GATEWAY_UID && process.env.RAMPART_GATEWAY_GID
    ? { workerUser: { uid: Number(process.env.RAMPART_GATEWAY_UID), gid: Number(process.env.RAMPART_GATEWAY_GID) } }
    : {}),
  onEvent: (event) => process.stdout.write(JSON.stringify({ event }) + '\n'),
  log,
});

const first = await primary.reload();
if (!first.ok) {
  log(`not started: ${first.reason}`);
  process.exit(1);
}
const adminPath = values['admin-socket'] ?? process.env.RAMPART_GATEWAY_ADMIN_SOCKET;
if (adminPath) {
  await listenAdminSocket(adminPath, async (command) => {
    if (command === 'reload') return primary.reload();
    if (command === 'status') return { ok: true, ...primary.status() };
    return { ok: false, reason: `unknown command ${command}` };
  }, process.env.RAMPART_GATEWAY_ADMIN_GID ? Number(process.env.RAMPART_GATEWAY_ADMIN_GID) : undefined);
}
process.on('SIGHUP', () => void primary.reload());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void primary.stop().then(() => process.exit(0)));
}
process.stdout.write(JSON.stringify({ ready: primary.status() }) + '\n');
