/**
 * `node apps/gateway/src/main.ts --config <file> [--admin-socket <path>] [--workers n] [--inspector <module>]
 *  [--geoip-data <dir>] [--dns-server host:port] [--events-stdout] [--max-events n]` (or RAMPART_GATEWAY_CONFIG / RAMPART_GATEWAY_ADMIN_SOCKET).
 *
 * Events: the console drains them over the admin socket (`events`). stdout is the supervisor's log,
 * so with an admin socket an attack flood must not become a line per request there: stdout gets one
 * summary line a minute while events come (`{"events":{…}}`: received, dropped, buffered). The workers then
 * send no per-request notice at all (primary.ts `onEvent`): the console's events come batched.
 * Without an admin socket nobody can drain, so the proxy's notice of every block is written as a
 * JSON line (`{"event":…}`, as before: benchmarks and ad-hoc runs read them); `--events-stdout`
 * asks for those lines with an admin socket too (tests, debugging). Logs go to stderr.
 */
import { join } from 'node:path';
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
    /** A folder with country-ipv4.csv, country-ipv6.csv and ip2region.db (the layout of @rampart/geoip's writeTestGeoData). */
    'geoip-data': { type: 'string' },
    'events-stdout': { type: 'boolean', default: false },
    'max-events': { type: 'string' },
    /** host:port of the DNS server for the fake-spider check (repeatable); default: the system's. */
    'dns-server': { type: 'string', multiple: true },
  },
});
const configPath = values.config ?? process.env.RAMPART_GATEWAY_CONFIG;
if (!configPath) {
  process.stderr.write('usage: main.ts --config <file> (or RAMPART_GATEWAY_CONFIG)\n');
  process.exit(2);
}
const log = (m: string) => process.stderr.write(`[gateway] ${m}\n`);
const geoDir = values['geoip-data'] ?? process.env.RAMPART_GATEWAY_GEOIP_DATA;
const adminPath = values['admin-socket'] ?? process.env.RAMPART_GATEWAY_ADMIN_SOCKET;
const eventLines = values['events-stdout'] || !adminPath;
const primary = new GatewayPrimary({
  configPath,
  ...(values.workers !== undefined ? { workers: Number(values.workers) } : {}),
  ...(values.inspector ? { inspectorModule: values.inspector } : {}),
  ...(values['drain-grace-ms'] ? { drainGraceMs: Number(values['drain-grace-ms']) } : {}),
  // Without an admin socket nothing can drain the buffer: it would only fill (to its byte cap) and stay full.
  ...(values['max-events'] ? { maxEvents: Number(values['max-events']) } : !adminPath ? { maxEvents: 0 } : {}),
  ...(values['dns-server']?.length ? { dnsServers: values['dns-server'] } : {}),
  ...(geoDir ? { geo: { countryV4Csv: join(geoDir, 'country-ipv4.csv'), countryV6Csv: join(geoDir, 'country-ipv6.csv'), regionDb: join(geoDir, 'ip2region.db') } } : {}),
  exposeWorker: values['expose-worker'] || process.env.RAMPART_GATEWAY_EXPOSE_WORKER === '1',
  ...(process.env.RAMPART_GATEWAY_UID && process.env.RAMPART_GATEWAY_GID
    ? { workerUser: { uid: Number(process.env.RAMPART_GATEWAY_UID), gid: Number(process.env.RAMPART_GATEWAY_GID) } }
    : {}),
  ...(eventLines ? { onEvent: (event) => void process.stdout.write(JSON.stringify({ event }) + '\n') } : {}),
  log,
});

const first = await primary.reload();
if (!first.ok) {
  log(`not started: ${first.reason}`);
  process.exit(1);
}
if (adminPath) {
  await listenAdminSocket(adminPath, async (command) => {
    if (command === 'reload') return primary.reload();
    if (command === 'status') return { ok: true, ...primary.status() };
    if (command === 'events') return primary.drainEvents();
    if (command.startsWith('timed ')) return primary.hub.applyTimedCommand(command.slice('timed '.length));
    return { ok: false, reason: `unknown command ${command.slice(0, 40)}` };
  }, process.env.RAMPART_GATEWAY_ADMIN_GID ? Number(process.env.RAMPART_GATEWAY_ADMIN_GID) : undefined);
}

// One summary line a minute while anything happens (see the header).
let reported = { events: 0, dropped: 0 };
setInterval(() => {
  const now = { events: primary.hub.totals.events, dropped: primary.hub.events.droppedTotal };
  if (now.events === reported.events && now.dropped === reported.dropped) return;
  process.stdout.write(JSON.stringify({ events: { received: now.events - reported.events, dropped: now.dropped - reported.dropped, buffered: primary.hub.events.length() } }) + '\n');
  reported = now;
}, 60_000).unref();

process.on('SIGHUP', () => void primary.reload());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void primary.stop().then(() => process.exit(0)));
}
process.stdout.write(JSON.stringify({ ready: primary.status() }) + '\n');
