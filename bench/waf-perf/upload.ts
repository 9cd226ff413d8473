/**
 * Large uploads, in one run: a multipart form (one file of UPLOAD_MB, 256 by default, then a text
 * field) sent straight to a sink origin, and through the gateway with the engine on, beside the same
 * bytes sent as application/octet-stream through the gateway (which reads nothing past its 1 MiB
 * window). The sink is a Node process that reads the whole body and answers with its length (nginx's
 * `return` answers before the body is in, which would time the answer, not the upload); every
 * upload's answer is checked against the bytes sent.
 * The second gateway leg is what reading a multipart upload past the window as it streams costs
 * (apps/gateway upload-tail.ts). Prints MB/s per leg (median of UPLOAD_ROUNDS, 3), each leg's ratio
 * to nginx alone, the gateway's CPU seconds per upload and its workers' peak RSS.
 *
 *   node bench/waf-perf/upload.ts          (run by hand, as root or not; loopback only)
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort, startRampartGateway, waitForPort, type Running } from '../waf-quality/servers.ts';
import { watchServer } from './procfs.ts';

const megabytes = Number(process.env.UPLOAD_MB ?? 256);
const rounds = Number(process.env.UPLOAD_ROUNDS ?? 3);
const boundary = '----RampartUploadBench';
const chunk = Buffer.alloc(64 * 1024, 0x5a);
const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday in Crete, day 2\r\n--${boundary}--\r\n`);
const chunks = Math.floor((megabytes * 1024 * 1024) / chunk.length);
const fileBytes = chunks * chunk.length;

/** A Node origin that reads each body to its end, then answers with the number of bytes it read. */
async function startSink(): Promise<Running> {
  const port = await freePort();
  const script = `require('node:http').createServer((q, s) => { let n = 0; q.on('data', (c) => (n += c.length)); q.on('end', () => s.end(String(n))); }).listen(${port}, '127.0.0.1')`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  await waitForPort(port, child, 'sink', '/dev/null');
  return { name: 'sink', port, pid: child.pid!, logFile: null, stop: async () => void child.kill() };
}

/** Sends one upload and resolves with the seconds until the answer ended, its status and the byte count the origin answered. */
function upload(port: number, multipart: boolean): Promise<{ seconds: number; status: number; received: number; sent: number }> {
  const length = multipart ? head.length + fileBytes + tail.length : fileBytes;
  const type = multipart ? `multipart/form-data; boundary=${boundary}` : 'application/octet-stream';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', headers: { host: 'shop.example.org', 'content-type': type, 'content-length': length } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ seconds: (performance.now() - started) / 1000, status: res.statusCode ?? 0, received: Number(text), sent: length }));
    });
    req.on('error', reject);
    let sent = 0;
    const write = (): void => {
      if (sent === 0 && multipart) req.write(head);
      while (sent < chunks) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end(multipart ? tail : undefined);
    };
    write();
  });
}

interface Leg {
  name: string;
  server: Running;
  multipart: boolean;
  gateway: boolean;
}

const origin = await startSink();
const gateway = await startRampartGateway(origin.port, 'loose', 2);
const legs: Leg[] = [
  { name: 'sink alone, multipart', server: origin, multipart: true, gateway: false },
  { name: 'gateway, engine on, octet-stream', server: gateway, multipart: false, gateway: true },
  { name: 'gateway, engine on, multipart', server: gateway, multipart: true, gateway: true },
];
const results = new Map<string, { seconds: number[]; cpu: number[]; peakRss: number }>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const leg of legs) {
      const watch = watchServer(leg.server.pid, 200);
      const r = await upload(leg.server.port, leg.multipart);
      const usage = watch();
      if (r.status !== 200 || r.received !== r.sent) throw new Error(`${leg.name}: answered ${r.status}, the origin read ${r.received} of ${r.sent} bytes`);
      const entry = results.get(leg.name) ?? { seconds: [], cpu: [], peakRss: 0 };
      entry.seconds.push(r.seconds);
      entry.cpu.push(usage.cpuSeconds);
      entry.peakRss = Math.max(entry.peakRss, usage.rssPeakMiB);
      results.set(leg.name, entry);
    }
  }
} finally {
  await gateway.stop();
  await origin.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const baseline = median(results.get(legs[0]!.name)!.seconds);
console.log(`${megabytes} MiB per upload, ${rounds} rounds, median; gateway: 2 workers, block mode loose`);
console.log('| leg | MB/s | × sink alone | CPU s per upload (gateway: primary + workers) | peak RSS MiB per worker |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const leg of legs) {
  const r = results.get(leg.name)!;
  const seconds = median(r.seconds);
  console.log(`| ${leg.name} | ${(fileBytes / 1e6 / seconds).toFixed(0)} | ${(baseline / seconds).toFixed(3)} | ${median(r.cpu).toFixed(2)} | ${leg.gateway ? r.peakRss.toFixed(0) : '—'} |`);
}
const octet = median(results.get(legs[1]!.name)!.seconds);
const multi = median(results.get(legs[2]!.name)!.seconds);
console.log(`multipart through the gateway takes ${(multi / octet).toFixed(2)}× the time of the same bytes as octet-stream (the reading past the window)`);
console.log('The sink runs on the same two cores: every leg shares them with it and with the client.');
