/**
 * The quality benchmark without sockets: the same requests as `run.ts` (gotestwaf sets, CRS
 * regression stages, the generated legitimate set), parsed from their wire bytes into `WafRequest`s
 * and handed to the engine's `inspect()` directly, in loose and strict mode. Seconds instead of
 * minutes, so detector changes can be measured as they are made.
 *
 *   node bench/waf-quality/in-process.ts [--mode loose,strict] [--top 15] [--misses set-prefix] [--fp set-prefix] [--show 10]
 *        [--id id1,id2 (print these requests and their verdicts)] [--out blocked.json] [--against blocked.json] [--engine other/packages/waf/src/index.ts]
 *        [--check-wire (parseWire against a real Node server on loopback, request by request)]
 *
 * `--fp legit/code-posts` prints the first `--show` blocked legitimate requests of that set (rule,
 * location, evidence); `--misses gotestwaf` the first passed attacks. The wire parsing follows what
 * Node's HTTP parser hands the gateway (raw target, raw header pairs, de-chunked body). A request
 * the parser cannot read (the list is at `parseWire`) is what the gateway refuses with the site's
 * block response as `protocol.unparseable` (apps/gateway/src/unparseable-request.ts), so it counts
 * as blocked, in both modes; the two refusals Node makes before the gateway sees anything (CONNECT,
 * HTTP/1.1 without Host: a plain 400 or a closed socket) count as passed, as they do in `run.ts`.
 * `--out blocked.json` saves the ids blocked per mode; `--against blocked.json` prints the requests
 * whose verdict changed since that run (detector work: what a change gained and lost).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { METHODS } from 'node:http';
import type { Decision, InspectOptions, WafRequest } from '@rampart/waf';
import { pathToFileURL } from 'node:url';
import type { BenchRequest } from './bench-request.ts';
import { corporaDir } from './corpora.ts';
import { loadCrsRegression } from './crs-regression.ts';
import { loadGotestwaf } from './gotestwaf.ts';
import { generateLegit } from './legit/index.ts';
import { loadRecorded } from './recorded.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const modes = (option('mode') ?? 'loose,strict').split(',') as ('loose' | 'strict')[];
const top = Number(option('top') ?? 15);
// `--engine path/to/index.ts`: another copy of the engine (say, the last commit's) to compare with.
const engine = option('engine');
const { inspect } = (await import(engine ? pathToFileURL(engine).href : '@rampart/waf')) as {
  inspect: (request: WafRequest, options: InspectOptions) => Decision;
};
const show = Number(option('show') ?? 10);

/**
 * De-chunks a chunked body as llhttp does: a size line of hex digits (an extension after ';'), the
 * data, then CRLF. A malformed line is null (Node answers 400); a body cut short ends where it
 * stops (Node would wait for the rest). `rest` is what follows the last chunk's trailer.
 */
function dechunk(body: Buffer): { body: Buffer; rest: Buffer } | null {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return body.indexOf('\n', at) >= 0 ? null : { body: Buffer.concat(parts), rest: Buffer.alloc(0) };
    const sizeText = body.subarray(at, eol).toString('latin1').split(';')[0]!;
    if (!/^[0-9A-Fa-f]+$/.test(sizeText)) return null;
    const size = parseInt(sizeText, 16);
    if (size === 0) {
      // Trailer fields end at an empty line.
      const end = body.indexOf('\r\n\r\n', eol);
      const restAt = body.subarray(eol, eol + 4).toString('latin1') === '\r\n\r\n' ? eol + 4 : end < 0 ? body.length : end + 4;
      return { body: Buffer.concat(parts), rest: body.subarray(restAt) };
    }
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size;
    if (at + 2 <= body.length && body.subarray(at, at + 2).toString('latin1') !== '\r\n') return null;
    at += 2;
  }
  return { body: Buffer.concat(parts), rest: Buffer.alloc(0) };
}

/** llhttp's methods (Node's METHODS); PRI is only the HTTP/2 preface, CONNECT is handled below. */
const knownMethods = new Set(METHODS.filter((m) => m !== 'PRI'));
const tokenChars = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value: tab, visible ASCII, space and bytes 0x80-0xFF (obs-text); no other control byte. */
const valueChars = /^[\t\x20-\x7e\x80-\xff]*$/;
/** The request target: visible ASCII only (no space, control or non-ASCII byte). */
const targetChars = /^[\x21-\x7e]+$/;

/**
 * Why Node does not hand a request to the gateway's handler: `unreadable` — llhttp's parse error
 * (the server's 'clientError', where the gateway answers); `no-host` — HTTP/1.1 without Host, which
 * Node answers 400 itself; `connect` — CONNECT, whose socket Node closes (no 'connect' listener).
 */
export type WireRefusal = 'unreadable' | 'no-host' | 'connect';
const isRefusal = (r: WafRequest | WireRefusal): r is WireRefusal => typeof r === 'string';

/** Would llhttp refuse the bytes after a complete request (a pipelined next one) at once, and why? */
function refusesNext(rest: Buffer): WireRefusal | null {
  const text = rest.toString('latin1').replace(/^(\r\n)+/, '');
  if (text === '') return null;
  // A whole next request: refused as its own would be (its head or its body framing).
  if (text.includes('\r\n\r\n')) {
    const next = parseWire(Buffer.from(text, 'latin1'));
    return isRefusal(next) ? next : null;
  }
  const eol = text.indexOf('\r\n');
  if (eol >= 0) return parseRequestLine(text.slice(0, eol)) === null ? 'unreadable' : null;
  const space = text.indexOf(' ');
  if (space >= 0) return knownMethods.has(text.slice(0, space)) ? null : 'unreadable';
  // A method still arriving: llhttp refuses it at its first byte that no method continues with.
  return [...knownMethods].some((m) => m.startsWith(text)) ? null : 'unreadable';
}

function parseRequestLine(line: string): { method: string; target: string; version: string } | null {
  const m = /^([^ ]+) +([^ ]+) HTTP\/(\d)\.(\d)$/.exec(line);
  if (!m || !knownMethods.has(m[1]!) || !targetChars.test(m[2]!)) return null;
  const version = `${m[3]}.${m[4]}`;
  if (!['0.9', '1.0', '1.1', '2.0'].includes(version)) return null;
  const target = m[2]!;
  if (!(target.startsWith('/') || target === '*' || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target))) return null;
  return { method: m[1]!, target, version };
}

/**
 * The wire bytes as the gateway's `wafRequest()` would see them, or why Node's HTTP parser (llhttp,
 * Node 24, default options) does not hand them over; each case checked against a real
 * `http.createServer` on loopback (`--check-wire`):
 *  - no CRLF CRLF head end; a line ending in a bare LF; a bare CR, LF, NUL or other control byte
 *    (tab excepted) in a field value; an obs-fold continuation line;
 *  - a method llhttp does not know (TEST, FOO, lowercase get, PRI; PROPFIND, QUERY, PURGE are known);
 *    CONNECT (`connect`: the gateway has no 'connect' listener, Node closes the socket without an answer);
 *  - a version other than HTTP/0.9, 1.0, 1.1, 2.0 (HTTP/1.2, HTTP/2, http/1.1 are refused);
 *  - a target with a space, control or non-ASCII byte, or that is neither /path, * nor scheme://;
 *  - a field name with a non-token byte, an empty name, a space before the colon, a line with no colon;
 *  - HTTP/1.1 without Host (`no-host`: Node's requireHostHeader); two Hosts and an empty Host are accepted;
 *  - Content-Length that is not plain digits (`+1`, `-1`, `1, 1`), twice (even equal), or together
 *    with Transfer-Encoding; a Transfer-Encoding whose last coding is not chunked (`gzip`,
 *    `chunked, identity`, `xchunked`; `identity, chunked` and `CHUNKED` are accepted);
 *  - a chunk size that is not hex, chunk data not followed by CRLF;
 *  - bytes after the request that cannot start the next one (a GET with `Content-Length: 0` and a
 *    body; a POST body with no length), and any bytes after a request with `Connection: close`:
 *    Node answers that 400 before the response to the first (the next request's own reason).
 * Every other case is `unreadable`.
 * Accepted as Node does: `"`, `{`, `#` in the target, two spaces after the method, HTTP/1.0 without
 * Host, obs-text bytes in values. A body shorter than its Content-Length is inspected as far as it
 * goes (Node would wait for the rest).
 */
export function parseWire(wire: Buffer): WafRequest | WireRefusal {
  const end = wire.indexOf('\r\n\r\n');
  if (end < 0) return 'unreadable';
  // Node decodes the head as latin1 (bytes), the engine re-reads UTF-8 where it matters.
  const lines = wire.subarray(0, end).toString('latin1').split('\r\n');
  // CONNECT takes an authority (`host:port`) as its target, which parseRequestLine refuses.
  if (/^CONNECT [\x21-\x7e]+ HTTP\/1\.[01]$/.test(lines[0] ?? '')) return 'connect';
  const requestLine = parseRequestLine(lines[0] ?? '');
  if (!requestLine) return 'unreadable';
  if (requestLine.method === 'CONNECT') return 'connect';
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0 || !tokenChars.test(line.slice(0, colon))) return 'unreadable';
    const value = line.slice(colon + 1);
    if (!valueChars.test(value)) return 'unreadable';
    headers.push([line.slice(0, colon), value.trim()]);
  }
  const all = (name: string) => headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  if (requestLine.version === '1.1' && all('host').length === 0) return 'no-host';
  const lengths = all('content-length');
  const codings = all('transfer-encoding');
  if (lengths.length > 1 || (lengths.length === 1 && codings.length > 0)) return 'unreadable';
  if (lengths.length === 1 && !/^\d+$/.test(lengths[0]!)) return 'unreadable';
  let body: Buffer = wire.subarray(end + 4);
  let rest: Buffer;
  if (codings.length > 0) {
    if (codings.join(',').split(',').pop()!.trim().toLowerCase() !== 'chunked') return 'unreadable';
    const chunked = dechunk(body);
    if (chunked === null) return 'unreadable';
    ({ body, rest } = chunked);
  } else {
    const length = lengths.length === 1 ? Number(lengths[0]) : 0;
    rest = body.subarray(length);
    body = body.subarray(0, length);
  }
  // llhttp takes no bytes after a request that said `Connection: close` ("Data after Connection: close").
  const closes = all('connection').some((v) => /(^|,)\s*close\s*(,|$)/i.test(v));
  if (closes && rest.toString('latin1').replace(/^(\r\n)+/, '') !== '') return 'unreadable';
  const next = closes ? null : refusesNext(rest);
  if (next !== null) return next;
  return {
    method: requestLine.method,
    target: requestLine.target,
    headers,
    clientIp: '127.0.0.1',
    body: body.length > 0 ? body : null,
    bodyTruncated: false,
    now: Date.now(),
  };
}

const corpora = corporaDir();
const requests: BenchRequest[] = [];
if (corpora) requests.push(...loadGotestwaf(corpora).requests, ...loadCrsRegression(corpora).requests);
else console.warn('corpora missing (set RAMPART_CORPORA): only the generated legitimate set is measured');
requests.push(...generateLegit());
const recorded = loadRecorded();
requests.push(...recorded);
const parsed = requests.map((r) => parseWire(r.wire));
if (argv.includes('--check-wire')) process.exit(await checkWire());

/**
 * `--check-wire`: every request's bytes sent to a real `http.createServer` on loopback (Node's own
 * parser, no 'connect' listener, like the gateway); prints each request where `parseWire` and Node
 * disagree on refusing it, exit 1 if any. A request Node neither answers nor refuses in time (a body
 * shorter than its Content-Length) is left out.
 */
async function checkWire(): Promise<number> {
  const { createServer } = await import('node:http');
  const { connect } = await import('node:net');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.on('clientError', (_e, socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const answer = (wire: Buffer) =>
    new Promise<'ok' | 'refused' | 'waiting'>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let got = '';
      const timer = setTimeout(() => (socket.destroy(), resolve('waiting')), 1500);
      const settle = () => (clearTimeout(timer), socket.destroy(), resolve(got.startsWith('HTTP/1.1 200') ? 'ok' : 'refused'));
      socket.on('data', (d) => ((got += d.toString('latin1')), got.includes('\r\n\r\n') && settle()));
      socket.on('close', settle);
      socket.on('error', () => undefined);
      socket.write(wire);
    });
  let differ = 0;
  const queue = requests.map((r, i) => [r, parsed[i]] as const);
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const node = await answer(item[0].wire);
      if (node === 'waiting' || (node === 'ok') === !isRefusal(item[1]!)) continue;
      differ++;
      console.log(`  ${item[0].set} ${item[0].id}: node ${node}, parseWire ${isRefusal(item[1]!) ? `refuses (${item[1]})` : 'accepts'}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  server.close();
  console.log(`${requests.length} requests: ${differ} where parseWire and Node's parser disagree`);
  return differ > 0 ? 1 : 0;
}

const groups: [string, (r: BenchRequest) => boolean][] = [
  ['gotestwaf attacks (owasp, owasp-api, community)', (r) => r.set.startsWith('gotestwaf/') && r.expect === 'attack'],
  ['gotestwaf false-pos, FP', (r) => r.set === 'gotestwaf/false-pos'],
  ['CRS attacks', (r) => r.set.startsWith('crs/') && r.expect === 'attack'],
  ['CRS must-pass, FP', (r) => r.set.startsWith('crs/') && r.expect === 'legit'],
  ['legit, FP', (r) => r.set.startsWith('legit/')],
  ...['wordpress', 'api', 'forms', 'code-posts', 'search', 'uploads', 'browsing'].map(
    (s) => [`  legit/${s}`, (r: BenchRequest) => r.set === `legit/${s}`] as [string, (r: BenchRequest) => boolean],
  ),
  // Recorded from real software (recorded/*.ndjson): the sets that were not written by us.
  ...[...new Set(recorded.map((r) => r.set))].map((s) => [`${s} (recorded), FP`, (r: BenchRequest) => r.set === s] as [string, (r: BenchRequest) => boolean]),
];

const describe = (d: Decision) =>
  d.action === 'block' || d.action === 'record' ? `${d.action === 'record' ? 'record ' : ''}${d.rule} @${'location' in d ? d.location : ''}:${'name' in d ? (d.name ?? '') : ''} ${JSON.stringify(('evidence' in d ? d.evidence : '') ?? '').slice(0, 140)}` : d.action;

/** The gateway's answer to a request Node did not hand over: its block for an unreadable one, else Node's own refusal (passes the firewall's count). */
const refusalDecision = (refusal: WireRefusal): Decision =>
  refusal === 'unreadable' ? { action: 'block', rule: 'protocol.unparseable', kind: 'protocol' } : { action: 'pass' };

const saved: Record<string, string[]> = {};
const against = option('against');
const before = against && existsSync(against) ? (JSON.parse(readFileSync(against, 'utf8')) as Record<string, string[]>) : null;

for (const mode of modes) {
  const started = performance.now();
  const decisions = parsed.map((req) => (isRefusal(req) ? refusalDecision(req) : inspect(req, { mode })));
  const ms = performance.now() - started;
  console.log(`\n== ${mode}: ${requests.length} requests in ${(ms / 1000).toFixed(1)} s (${((1000 * ms) / requests.length).toFixed(0)} µs each)`);
  for (const [label, pick] of groups) {
    let n = 0;
    let blocked = 0;
    requests.forEach((r, i) => {
      if (!pick(r)) return;
      n++;
      if (decisions[i]!.action === 'block') blocked++;
    });
    console.log(`${label.padEnd(50)} ${String(blocked).padStart(5)} / ${String(n).padStart(5)} blocked  ${((100 * blocked) / Math.max(n, 1)).toFixed(2).padStart(6)} %`);
  }
  const rules = new Map<string, number>();
  requests.forEach((r, i) => {
    const d = decisions[i]!;
    if (r.expect === 'legit' && d.action === 'block') rules.set(`${r.set.split('/')[0]} ${d.rule}`, (rules.get(`${r.set.split('/')[0]} ${d.rule}`) ?? 0) + 1);
  });
  console.log('rules behind false positives:');
  for (const [rule, n] of [...rules].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${String(n).padStart(5)}  ${rule}`);
  const blockedIds = requests.filter((_r, i) => decisions[i]!.action === 'block').map((r) => `${r.set} ${r.id}`);
  saved[mode] = blockedIds;
  if (before?.[mode]) {
    const was = new Set(before[mode]);
    const now = new Set(blockedIds);
    const lost = [...was].filter((id) => !now.has(id));
    const gained = [...now].filter((id) => !was.has(id));
    console.log(`since ${against}: ${lost.length} no longer blocked, ${gained.length} newly blocked`);
    for (const id of lost.slice(0, 40)) console.log(`  - ${id}`);
    for (const id of gained.slice(0, 40)) console.log(`  + ${id}`);
  }
  const ids = option('id')?.split(',') ?? [];
  requests.forEach((r, i) => {
    if (!ids.includes(r.id)) return;
    const refusal = parsed[i]!;
    const how = isRefusal(refusal) && refusal !== 'unreadable' ? `refused by Node itself (${refusal})` : `${isRefusal(refusal) ? "unreadable by Node's HTTP parser: " : ''}${describe(decisions[i]!)}`;
    console.log(`--- ${r.set} ${r.id}: ${how}\n${r.wire.toString('utf8').slice(0, 1500)}`);
  });
  const fp = option('fp');
  if (fp) {
    console.log(`first blocked legitimate requests of ${fp}:`);
    requests
      .map((r, i) => [r, decisions[i]!] as const)
      .filter(([r, d]) => r.set.startsWith(fp) && r.expect === 'legit' && d.action === 'block')
      .slice(0, show)
      .forEach(([r, d]) => console.log(`  ${r.id}: ${describe(d)}`));
  }
  const misses = option('misses');
  if (misses) {
    console.log(`first passed attacks of ${misses}:`);
    requests
      .map((r, i) => [r, decisions[i]!, parsed[i]!] as const)
      .filter(([r, d]) => r.set.startsWith(misses) && r.expect === 'attack' && d.action !== 'block')
      .slice(0, show)
      // Node's own refusals are marked: the gateway never sees those requests.
      // A recorded finding is named: what strict would have refused it for.
      .forEach(([r, d, wire]) => console.log(`  ${r.id}${isRefusal(wire) ? `  (refused by Node itself: ${wire})` : d.action === 'record' ? `  ${describe(d)}` : ''}`));
  }
}
const out = option('out');
if (out) writeFileSync(out, JSON.stringify(saved));
