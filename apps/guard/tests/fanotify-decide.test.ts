import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The fanotify decider's pure decisions (src/fanotify-decide.c), through a small driver
 * (tests/fanotify-decide-check.c). The malformed-name rule it applies is src/malformed-name.h, the
 * same the BPF LSM program applies (tests/lsm-vm.test.ts tries a few of these names in the kernel).
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const checkBin = path.join(guardDir, 'build/fanotify-decide-check');

beforeAll(() => {
  mkdirSync(path.dirname(checkBin), { recursive: true });
  const cc = spawnSync(
    process.env['CC'] ?? 'cc',
    ['-O2', '-Wall', '-Wextra', '-Werror', '-Wno-unused-parameter', '-D_GNU_SOURCE', '-Isrc', '-o', checkBin, 'tests/fanotify-decide-check.c', 'src/fanotify-decide.c'],
    { cwd: guardDir, encoding: 'utf8' },
  );
  if (cc.status !== 0) throw new Error(`cc failed:\n${cc.stdout}${cc.stderr}`);
});

/** Whether the decider calls each name malformed. */
function malformed(names: readonly (string | Buffer)[]): boolean[] {
  const input = names.map((name) => Buffer.from(name).toString('hex')).join('\n');
  const run = spawnSync(checkBin, [], { input: `${input}\n`, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`check failed: ${run.stderr}`);
  return run.stdout.trim().split('\n').map((line) => line === '1');
}

/** A name from text and raw bytes. */
const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('fanotify decider: malformed names', () => {
  const cases: [string, string | Buffer, boolean][] = [
    // control characters
    ['a control byte', 'a\x01b.txt', true],
    ['a tab', 'a\tb.txt', true],
    ['a newline', 'a\nb.txt', true],
    ['DEL', 'a\x7f.txt', true],
    // invalid UTF-8
    ['a byte that is never UTF-8', bytes('a', [0xff], '.txt'), true],
    ['a stray continuation byte', bytes('a', [0x80], '.txt'), true],
    ['a lead byte cut short inside the name', bytes('a', [0xc3], '.txt'), true],
    ['a lead byte cut short at the end', bytes('a.txt', [0xe2, 0x82]), true],
    ['an overlong form', bytes('a', [0xc0, 0xaf], '.txt'), true],
    ['an overlong three-byte form', bytes('a', [0xe0, 0x80, 0xaf], '.txt'), true],
    ['a surrogate', bytes('a', [0xed, 0xa0, 0x80], '.txt'), true],
    ['past U+10FFFF', bytes('a', [0xf4, 0x90, 0x80, 0x80], '.txt'), true],
    ['valid UTF-8 (é, €, 😀)', 'café-€-😀.txt', false],
    ['Chinese', '文件.txt', false],
    // trailing dot or space
    ['a trailing dot', 'a.php.', true],
    ['a trailing dot after a plain name', 'notes.', true],
    ['a trailing space', 'a.jpg ', true],
    ['. and .. are not names', '.', false],
    ['..', '..', false],
    ['a dot file', '.htaccess', false],
    // a script extension before another
    ['a.php.jpg', 'a.php.jpg', true],
    ['a.php5.jpg', 'a.php5.jpg', true],
    ['a.php;.jpg', 'a.php;.jpg', true],
    ['a.ASP;.jpg (any case)', 'a.ASP;.jpg', true],
    ['a.phtml.png', 'a.phtml.png', true],
    ['a.aspx.gif', 'a.aspx.gif', true],
    ['a.jspx.txt', 'a.jspx.txt', true],
    ['a.cgi.txt', 'a.cgi.txt', true],
    ['a.cer.txt', 'a.cer.txt', true],
    ['deeper: a.b.php.jpg', 'a.b.php.jpg', true],
    ['after an empty extension: a..php.jpg', 'a..php.jpg', true],
    ['a.php; (cut at ;)', 'a.php;', true],
    // not malformed
    ['a script extension last is the file’s own', 'a.php', false],
    ['a.php5', 'a.php5', false],
    ['a.jpg.php (its own extension, for a naming pattern to judge)', 'a.jpg.php', false],
    ['a longer word that starts like one: a.phpx.jpg', 'a.phpx.jpg', false],
    ['a shorter one: a.ph.jpg', 'a.ph.jpg', false],
    ['a plain double extension', 'backup.tar.gz', false],
    ['php as the base name', 'php.jpg', false],
    ['a plain name', 'index.html', false],
    ['the longest name', 'a'.repeat(255), false],
  ];

  it('refuses control bytes, invalid UTF-8, trailing dots and spaces, and script extensions before another', () => {
    const got = malformed(cases.map(([, name]) => name));
    expect(Object.fromEntries(cases.map(([why], i) => [why, got[i]]))).toEqual(Object.fromEntries(cases.map(([why, , want]) => [why, want])));
  });

  it('knows every script extension at its full width, in any case', () => {
    const exts = ['php', 'php3', 'php4', 'php5', 'php7', 'phtml', 'pht', 'asp', 'aspx', 'asa', 'cer', 'cdx', 'ashx', 'asmx', 'jsp', 'jspx', 'cgi'];
    const names = exts.flatMap((ext) => [`x.${ext}.jpg`, `x.${ext.toUpperCase()};.txt`, `x.${ext}`, `x.${ext}z.jpg`]);
    expect(malformed(names)).toEqual(exts.flatMap(() => [true, true, false, false]));
  });
});
