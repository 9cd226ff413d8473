// Throughput of parse + detect + decide, in lines per second, for auth.log and access-log lines.
//   node bench/detect.ts [--lines 500000]
import { createPipeline, loadScenarios, parseLine, type LogSource } from '@rampart/detect';

const arg = process.argv.indexOf('--lines');
const count = arg > 0 ? Number(process.argv[arg + 1]) : 500_000;
const base = Date.UTC(2026, 10, 22, 1, 0, 0);
const pad = (n: number) => String(n).padStart(2, '0');

/** One line a millisecond. Addresses cycle through `clients` (65,536: nearly every line a new source). */
function sshdLine(i: number): string {
  const d = new Date(base + i);
  const stamp = `Nov 22 ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const ip = i % 10 < 7 ? `203.0.${(i >> 8) & 255}.${i & 255}` : `198.51.100.${i % 7}`;
  const shapes = [
    `Failed password for root from ${ip} port ${40000 + (i % 20000)} ssh2`,
    `Invalid user admin${i % 50} from ${ip} port ${40000 + (i % 20000)}`,
    `Failed password for invalid user admin${i % 50} from ${ip} port ${40000 + (i % 20000)} ssh2`,
    `pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=${ip}  user=root`,
    `Connection closed by authenticating user root ${ip} port ${40000 + (i % 20000)} [preauth]`,
    `Accepted publickey for deploy from ${ip} port 51022 ssh2: ED25519 SHA256:Vh7bYw3nFzq0T1mD0mQXv2qg0Jm7c3k1pK2rZb6N5ug`,
    `pam_unix(sshd:session): session opened for user deploy(uid=1001) by (uid=0)`,
  ];
  return `${stamp} web-1 sshd[${1000 + (i % 30000)}]: ${shapes[i % shapes.length]}`;
}

const accessLine = (clients: number) => (i: number): string => {
  const d = new Date(base + i);
  const stamp = `22/Nov/2026:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
  const c = (i * 2654435761) % clients; // scattered, not round-robin
  const ip = c % 3 ? `203.0.${(c >> 8) & 255}.${c & 255}` : `2001:db8::${c.toString(16)}`;
  const status = i % 5 === 0 ? 404 : 200;
  return `${ip} - - [${stamp}] "GET /static/app.${i % 97}.js?v=${i} HTTP/1.1" ${status} ${1000 + (i % 5000)} "https://www.example.com/" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36" "-"`;
};

function measure(name: string, source: LogSource, make: (i: number) => string): void {
  const lines = Array.from({ length: count }, (_, i) => make(i));
  let decisions = 0;
  const pipeline = createPipeline({ scenarios: loadScenarios(), isExempt: () => false, onDecision: () => decisions++, now: () => base + 86_400_000, replay: true });
  // Warm up the JIT on a separate pipeline's worth of lines, then time parse alone and the whole pipeline.
  for (let i = 0; i < 20_000; i++) parseLine(lines[i]!, source, base);
  let start = process.hrtime.bigint();
  for (const line of lines) parseLine(line, source, base);
  const parseSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  start = process.hrtime.bigint();
  for (const line of lines) pipeline.push(line, source);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const stats = pipeline.stats().sources[source];
  const rate = (s: number) => Math.round(count / s).toLocaleString('en-US');
  console.log(
    `${name.padEnd(28)} ${count.toLocaleString('en-US')} lines: parse ${rate(parseSeconds)} lines/s; parse+detect+decide ${rate(seconds)} lines/s (${stats.parsed} parsed, ${decisions} decisions)`,
  );
}

process.env.TZ = 'UTC';
console.log(`node ${process.version}`);
measure('auth.log (mixed)', 'sshd-syslog', sshdLine);
measure('nginx, 2,000 clients', 'nginx', accessLine(2000));
measure('nginx, 65,536 clients', 'nginx', accessLine(65_536));
