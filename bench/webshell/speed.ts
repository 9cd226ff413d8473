/**
 * Speed: files/s and MB/s of a full scan of the benign set (the kill types), ours with the analysis
 * on beside Debian's `yara` CLI with the same .yar rules, in one run, on the same file list and the
 * same 2 threads. Run by hand: `node bench/webshell/speed.ts` (apt-get install yara first).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanTree, walkTree, whitelistMatcher, builtinRulesDir } from '../../packages/webshell/src/index.ts';
import { benignDir, killTypes } from './sets.ts';

const root = benignDir();
const files: string[] = [];
for await (const path of walkTree(root, { extensions: killTypes, skip: whitelistMatcher([]) })) files.push(path);
const bytes = files.reduce((sum, path) => sum + statSync(path).size, 0);
const list = join(tmpdir(), `ws-speed-list-${process.pid}.txt`);
writeFileSync(list, files.join('\n') + '\n');
const rules = readdirSync(builtinRulesDir).filter((name) => name.endsWith('.yar')).map((name) => join(builtinRulesDir.pathname, name));

const rate = (ms: number) => ({ filesPerS: files.length / (ms / 1000), mbPerS: bytes / 1e6 / (ms / 1000) });
const show = (label: string, ms: number) => {
  const r = rate(ms);
  console.log(`${label.padEnd(28)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${r.filesPerS.toFixed(0).padStart(6)} files/s  ${r.mbPerS.toFixed(2).padStart(6)} MB/s`);
  return ms;
};

console.log(`${files.length} files, ${(bytes / 1e6).toFixed(1)} MB (${killTypes.join(' ')}) under ${root}`);
let t = performance.now();
execFileSync('yara', ['-w', '-p', '2', ...rules, '--scan-list', list], { maxBuffer: 64 << 20 });
const yaraMs = show('yara 4 CLI (-p 2)', performance.now() - t);
t = performance.now();
await scanTree({ roots: [root], sizeLimitKb: 8192, extensions: killTypes, workers: 2 });
const oursMs = show('rampart (2 workers, analysis)', performance.now() - t);
console.log(`ratio ours/yara (rate): ${(yaraMs / oursMs).toFixed(2)}x`);
unlinkSync(list);
