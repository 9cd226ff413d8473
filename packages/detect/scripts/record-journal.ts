// Turns `2026-11-22T00:30:00Z identifier[pid]: message` lines (stdin) into the JSON that journalctl
// prints for them: written to a real journal file by systemd-journal-remote, read back with
// `journalctl --directory --output=json`. For fixtures of the sshd-journal source.
//   usage: node scripts/record-journal.ts < entries.txt > sshd-journal.log
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JournalWriter } from '../tests/helpers/journal-writer.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-journal-'));
const writer = new JournalWriter(dir, 'fixture');
for (const line of readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  const m = /^(\S+) ([^[\s]+)\[(\d+)\]: (.*)$/.exec(line);
  if (!m) throw new Error(`not "time identifier[pid]: message": ${line}`);
  // \xNN in the input stands for a raw byte, to record journalctl's byte-array form.
  const message = Buffer.from(m[4]!.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  writer.write({ time: Date.parse(m[1]!), identifier: m[2]!, pid: Number(m[3]), message });
}
await writer.close();
process.stdout.write(execFileSync('journalctl', [`--directory=${dir}`, '--output=json', '--all', '--no-pager'], { encoding: 'utf8' }));
rmSync(dir, { recursive: true, force: true });
