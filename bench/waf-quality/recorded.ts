/**
 * Legitimate sets recorded from real software (issue 25): every `recorded/*.ndjson` file is one set,
 * `real/<file name>`, one request per line as the recorder saw it at its socket (method, target,
 * raw header pairs, body base64). Replayed byte for byte except hop-by-hop `Connection`. The Host
 * keeps the recorder's port: the beacons name their collector's URL with it, and a target answers
 * any Host as its default site. A line may name a `part` of its set (the SQL an administrator types
 * into phpMyAdmin's SQL box), which is then counted as the set `real/<file>/<part>`, so the rates can
 * be read with and without it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpRequest, type BenchRequest, type HeaderList } from './bench-request.ts';

const folder = join(dirname(fileURLToPath(import.meta.url)), 'recorded');

interface RecordedLine {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
  /** A part of the set (phpMyAdmin's SQL box): replayed as the set `real/<file>/<part>`. */
  part?: string;
}

export function loadRecorded(dir = folder): BenchRequest[] {
  const out: BenchRequest[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.ndjson')).sort();
  } catch {
    return out;
  }
  for (const file of files) {
    const set = `real/${file.replace(/\.ndjson$/, '')}`;
    const lines = readFileSync(join(dir, file), 'utf8').split('\n').filter((l) => l.trim() !== '');
    lines.forEach((line, i) => {
      const r = JSON.parse(line) as RecordedLine;
      const headers: HeaderList = r.headers
        .filter(([n]) => n.toLowerCase() !== 'connection');
      const body = Buffer.from(r.body, 'base64');
      out.push({ set: r.part ? `${set}/${r.part}` : set, id: `${file}:${i + 1}`, expect: 'legit', wire: httpRequest(r.method, r.target, headers, body.length > 0 ? body : null), fresh: false });
    });
  }
  return out;
}
