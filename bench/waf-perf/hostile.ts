/**
 * What a body built to be slow to inspect costs, in one run: form and JSON posts of HOSTILE_KB
 * (100 by default: under the 128 KiB Debian's ModSecurity reads of a body without files, so both
 * inspect the whole value) made of one piece repeated (`a(`, `${`, `<%`, quotes, parentheses …, the
 * shapes of packages/waf's robustness tests), beside a benign post of the same size (prose), sent
 * one at a time through the gateway (engine on, loose and strict, one worker each) and through
 * Apache + ModSecurity + CRS PL1 (one child), to the same nginx origin.
 * Prints per body the median milliseconds until the answer ended (HOSTILE_ROUNDS, 5), the status
 * each answered, and ModSecurity's time over the gateway's: the CPU one such request takes from a
 * core, the cost a flood of them puts on a server.
 *
 *   node bench/waf-perf/hostile.ts        (run by hand after bench/waf-perf/setup.sh; loopback only)
 */
import http from 'node:http';
import { startApacheModsecurity, startOriginNginx, startRampartGateway, type Running } from '../waf-quality/servers.ts';

const kilobytes = Number(process.env.HOSTILE_KB ?? 100);
const rounds = Number(process.env.HOSTILE_ROUNDS ?? 5);
const pieces = ['a(', '(a', '${', '<%', '`a', ';a', '<a ', "'", '"', '\\', '{{', '&#13;', '/*!', 'union select ', '1+', '<svg/onload='];
const prose = 'The committee met on Tuesday to review the budget, and after a long discussion (and two coffee breaks) it agreed to fund the new library wing. ';

interface Body { name: string; type: string; body: Buffer }
const size = kilobytes * 1000;
/** The piece repeated as often as the body holds once encoded (percent escapes, JSON escapes): every body is about `size` bytes. */
const repeated = (piece: string, encode: (s: string) => string) => piece.repeat(Math.floor(size / encode(piece).length));
const formBody = (value: string) => `comment=${encodeURIComponent(value)}`;
const jsonBody = (value: string) => JSON.stringify({ comment: value });
const bodies: Body[] = [];
for (const [label, piece] of [['benign prose', prose], ...pieces.map((p) => [JSON.stringify(p), p])] as [string, string][]) {
  bodies.push({ name: `${label} form`, type: 'application/x-www-form-urlencoded', body: Buffer.from(formBody(repeated(piece, encodeURIComponent))) });
  bodies.push({ name: `${label} JSON`, type: 'application/json', body: Buffer.from(jsonBody(repeated(piece, (s) => JSON.stringify(s).slice(1, -1)))) });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(port: number, b: Body): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/comments', method: 'POST', agent, headers: { host: 'shop.example.org', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', accept: '*/*', 'content-type': b.type, 'content-length': b.body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(b.body);
  });
}

const origin = await startOriginNginx();
const servers: [string, Running][] = [];
try {
  servers.push(['gateway loose', await startRampartGateway(origin.port, 'loose', 1)]);
  servers.push(['gateway strict', await startRampartGateway(origin.port, 'strict', 1)]);
  servers.push(['Apache + ModSecurity', await startApacheModsecurity(origin.port, undefined, { processes: 1, threadsPerChild: 25 })]);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${kilobytes} KB bodies, ${rounds} rounds each, one request at a time, median ms until the answer ended (status)`);
  console.log(`| body | ${servers.map(([n]) => n).join(' | ')} | ModSecurity ÷ gateway loose |`);
  console.log(`| --- |${servers.map(() => ' ---: |').join('')} ---: |`);
  const totals = servers.map(() => 0);
  for (const b of bodies) {
    const cells: string[] = [];
    const times: number[] = [];
    for (const [k, [, server]] of servers.entries()) {
      await post(server.port, b); // warm-up (and a fresh keep-alive connection)
      const runs: { ms: number; status: number }[] = [];
      for (let r = 0; r < rounds; r++) runs.push(await post(server.port, b));
      const ms = median(runs.map((x) => x.ms));
      times.push(ms);
      totals[k]! += ms;
      cells.push(`${ms.toFixed(1)} (${[...new Set(runs.map((x) => x.status))].join('/')})`);
    }
    console.log(`| ${b.name} | ${cells.join(' | ')} | ${(times[2]! / times[0]!).toFixed(2)} |`);
  }
  console.log(`| all bodies, summed | ${totals.map((t) => t.toFixed(0)).join(' | ')} | ${(totals[2]! / totals[0]!).toFixed(2)} |`);
  console.log('One client, so each time is one request\'s trip: the server\'s work on it plus loopback. 413 means the body was refused for its size.');
} finally {
  agent.destroy();
  for (const [, s] of servers) await s.stop();
  await origin.stop();
}
