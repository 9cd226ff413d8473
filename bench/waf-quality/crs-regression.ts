/**
 * CRS regression tests (go-ftw YAML, tests/regression/tests/<RULE-FILE>/<rule>.yaml) in status
 * mode: without CRS's rule ids to read back from a log, a stage whose output expects rule ids
 * (`log.expect_ids`, legacy `log_contains`) is an attack that should be blocked, and one that only
 * lists ids that must NOT fire (`no_expect_ids`, `no_log_contains`) is legitimate and must pass.
 * Stages checked by response status or regex only, and the RESPONSE-* files (they need go-ftw's
 * reflecting backend to produce the response under test), are skipped with the reason.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRequest } from './bench-request.ts';
import { readCorpusYaml } from './corpora.ts';
import type { Skipped } from './gotestwaf.ts';

interface FtwInput {
  method?: string;
  uri?: string;
  version?: string;
  headers?: Record<string, string | number>;
  data?: string;
  encoded_request?: string;
  autocomplete_headers?: boolean;
}
interface FtwLog { expect_ids?: number[]; no_expect_ids?: number[]; log_contains?: string; no_log_contains?: string }
interface FtwStage { input?: FtwInput; output?: { log?: FtwLog; status?: number | number[] } }
interface FtwFile { rule_id?: number; tests?: { test_id: number; stages: (FtwStage | { stage: FtwStage })[] }[] }

/** Go's url.QueryEscape. */
function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : c === ' ' ? '+' : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/**
 * go-ftw's encodeDataParameters: urlencoded data that is not escaped yet (no '+', no '%') has each
 * key and value escaped, the '=' and '&' kept.
 */
function encodeFormData(data: string): string {
  if (data.includes('+') || data.includes('%')) return data;
  return data.split('&').map((token) => {
    const eq = token.indexOf('=');
    return eq < 0 ? queryEscape(token) : `${queryEscape(token.slice(0, eq))}=${queryEscape(token.slice(eq + 1))}`;
  }).join('&');
}

/**
 * The request as go-ftw (ftwhttp/request.go BuildRequest) writes it: the request line as given;
 * headers as a case-sensitive map written in sorted order; with autocomplete (the default) and data,
 * `Content-Type: application/x-www-form-urlencoded` when absent and the form data escaped; multipart
 * bodies with every LF turned into CRLF; then `Connection: close` and a Content-Length when absent.
 * `encoded_request` is sent as its decoded bytes. Every stage goes over a fresh connection.
 */
export function ftwWire(input: FtwInput): Buffer {
  if (input.encoded_request) return Buffer.from(input.encoded_request, 'base64');
  const method = input.method ?? 'GET';
  const headers = new Map<string, string>(Object.entries(input.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const add = (k: string, v: string) => { if (!headers.get(k)) headers.set(k, v); };
  const autocomplete = input.autocomplete_headers !== false;
  let data = input.data == null ? '' : String(input.data);
  if (data && autocomplete) {
    add('Content-Type', 'application/x-www-form-urlencoded');
    if (headers.get('Content-Type') === 'application/x-www-form-urlencoded') data = encodeFormData(data);
  }
  if ((headers.get('Content-Type') ?? '').startsWith('multipart/form-data;')) data = data.replaceAll('\n', '\r\n');
  const body = Buffer.from(data, 'utf8');
  if (autocomplete) {
    add('Connection', 'close');
    // go-ftw's own pattern, `^POST|PUT|PATCH|DELETE$`, kept as it is.
    if (body.length > 0 || /^POST|PUT|PATCH|DELETE$/.test(method)) add('Content-Length', String(body.length));
  }
  const names = [...headers.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const head = `${method} ${input.uri ?? '/'} ${input.version ?? 'HTTP/1.1'}\r\n${names.map((k) => `${k}: ${headers.get(k)}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

/** 'attack', 'legit', or why the stage cannot be judged by status alone. */
export function classifyStage(stage: FtwStage): 'attack' | 'legit' | string {
  const log = stage.output?.log;
  if (log?.expect_ids?.length || log?.log_contains) return 'attack';
  if (log?.no_expect_ids?.length || log?.no_log_contains) return 'legit';
  return 'checked by status or regex only';
}

export interface CrsLoad {
  requests: BenchRequest[];
  skipped: Skipped[];
  /** Request id → the rule ids its test expects to fire (for the paranoia-level split). */
  expectIds: Map<string, number[]>;
}

/** `set` is `crs/REQUEST-942-APPLICATION-ATTACK-SQLI`; ids are `<rule>-<test>[/<stage>]`. */
export function loadCrsRegression(corpora: string): CrsLoad {
  const root = join(corpora, 'waf/crs-regression/tests/regression/tests');
  const requests: BenchRequest[] = [];
  const skipped: Skipped[] = [];
  const expectIds = new Map<string, number[]>();
  for (const folder of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const set = `crs/${folder}`;
    for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith('.yaml')).sort()) {
      const doc = readCorpusYaml(join(root, folder, file)) as FtwFile | null;
      for (const test of doc?.tests ?? []) {
        test.stages.forEach((wrapped, s) => {
          const stage = 'stage' in wrapped ? wrapped.stage : wrapped;
          const id = `${doc!.rule_id ?? file}-${test.test_id}${test.stages.length > 1 ? `/${s + 1}` : ''}`;
          const kind = classifyStage(stage);
          if (folder.startsWith('RESPONSE-')) skipped.push({ set, id, reason: 'response rule: needs a reflecting backend' });
          else if (kind !== 'attack' && kind !== 'legit') skipped.push({ set, id, reason: kind });
          else if (!stage.input) skipped.push({ set, id, reason: 'no input' });
          else {
            requests.push({ set, id, expect: kind, wire: ftwWire(stage.input), fresh: true });
            const ids = stage.output?.log?.expect_ids ?? (doc!.rule_id ? [doc!.rule_id] : []);
            if (kind === 'attack') expectIds.set(`${set} ${id}`, ids);
          }
        });
      }
    }
  }
  return { requests, skipped, expectIds };
}
