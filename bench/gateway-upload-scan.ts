// Added latency of the gateway's web-shell scan of uploads (apps/gateway/src/upload-scan.ts): the
// engine's time per file in the gateway's scan thread, then the same uploads through two real
// gateways, the scan off in one and on in the other, side by side in one run.
//   node bench/gateway-upload-scan.ts [--runs 15]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinRuleSet, scanBytes } from '@rampart/webshell';
import { defaultWebsiteSettings, gatewayConfigSchema, type WebsiteSettings } from '@rampart/contracts';
import { GatewayServers } from '../apps/gateway/src/gateway-servers.ts';
import { loadInspector } from '../apps/gateway/src/load-inspector.ts';
import { sharedUploadScanner } from '../apps/gateway/src/upload-scan.ts';
import { freePort, request } from '../apps/gateway/tests/harness/origin.ts';
import { jpeg, pluginFile, png } from '../apps/gateway/tests/harness/upload-samples.ts';

const arg = process.argv.indexOf('--runs');
const runs = arg > 0 ? Number(process.argv[arg + 1]) : 15;
const boundary = '----benchUploadScan';
const form = (fileName: string, content: Buffer) =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);

const origin = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
const inspector = await loadInspector(undefined, () => {});

/** Two gateways in this process, the scan off in one and on in the other: requests alternate between them, so drift in the machine's load falls on both. */
async function gatewayWith(scan: boolean, windowKb: number): Promise<{ port: number; servers: GatewayServers }> {
  const port = await freePort();
  const servers = new GatewayServers({ inspector, onEvent: () => {} });
  const settings: WebsiteSettings = structuredClone(defaultWebsiteSettings);
  // The attack tab's file-name rule would refuse the .php name before any scan.
  settings.attack.kinds.webshell_upload = false;
  settings.request.upload_scan = { enabled: scan };
  await servers.apply(gatewayConfigSchema.parse({
    workers: 1,
    sites: [{ id: 'b', name: 'B', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: originUrl }], block_mode: 'loose', inspect_body_kb: windowKb }],
    policy: { settings, cookie_secret: 'ab'.repeat(32) },
  }));
  return { port, servers };
}

const uploads = { 'plugin.php 50 KB': { name: 'acme-gallery.php', bytes: pluginFile() }, 'photo.jpg 1 MB': { name: 'beach.jpg', bytes: jpeg(1024 * 1024) }, 'photo.png 270 KB': { name: 'garden.png', bytes: png(300, 300) } };
const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
const send = async (port: number, body: Buffer) => {
  const start = performance.now();
  const r = await request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', body, headers: { host: 'bench.example', 'content-type': `multipart/form-data; boundary=${boundary}` } });
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  return performance.now() - start;
};

// The engine's CPU time per file (in this thread: the machine's load does not inflate it as it does wall time).
const context = { sizeLimitKb: 2048, timeBudgetMs: 10_000, ruleSet: builtinRuleSet() };
console.log(`web-shell engine CPU time per file, median of ${runs} (ms)`);
for (const [label, file] of Object.entries(uploads)) {
  scanBytes(file.name, file.bytes, {}, context);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    scanBytes(file.name, file.bytes, {}, context);
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  console.log(`  ${label.padEnd(18)} ${median(times).toFixed(1).padStart(7)}`);
}

// The engine alone, in the gateway's scan thread (wall time, the round trip included).
const scanner = sharedUploadScanner();
await scanner.scan('warm.txt', Buffer.from('warm'));
console.log(`web-shell engine per file in the gateway's scan thread, wall time, median of ${runs} (ms)`);
for (const [label, file] of Object.entries(uploads)) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await scanner.scan(file.name, file.bytes);
    times.push(performance.now() - start);
  }
  console.log(`  ${label.padEnd(18)} ${median(times).toFixed(1).padStart(7)}`);
}

console.log(`gateway upload latency, scan off / on alternating, median of ${runs} (ms)`);
for (const [label, windowKb] of [['whole body (window 2 MB)', 2048], ['streamed (window 64 KB)', 64]] as const) {
  const off = await gatewayWith(false, windowKb);
  const on = await gatewayWith(true, windowKb);
  for (const [name, file] of Object.entries(uploads)) {
    const body = form(file.name, file.bytes);
    const times = { off: [] as number[], on: [] as number[] };
    for (let i = 0; i < runs; i++) {
      times.off.push(await send(off.port, body));
      times.on.push(await send(on.port, body));
    }
    const [a, b] = [median(times.off), median(times.on)];
    console.log(`  ${label.padEnd(26)} ${name.padEnd(18)} off ${a.toFixed(1).padStart(7)}  on ${b.toFixed(1).padStart(7)}  added ${(b - a).toFixed(1).padStart(7)}`);
  }
  await off.servers.drain(200);
  await on.servers.drain(200);
}
origin.close();
process.exit(0);
