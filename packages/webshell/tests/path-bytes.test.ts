import { readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WebshellFileResult } from '@rampart/contracts';
import { bytesOfPath, canonicalPath, pathFromBytes, scanTree } from '../src/index.ts';
import { tempDir } from './support.ts';

/*
 * File names that are not valid UTF-8 (a GBK name from a Windows tool, or an attacker's on purpose)
 * must still be scanned: paths are strings holding a reversible encoding of the name's bytes.
 */

const gbk = Buffer.from([0xb2, 0xe2, 0xca, 0xd4, 0x2e, 0x70, 0x68, 0x70]); // "测试.php" in GBK
const shell = '<?php eval($_POST["x"]);';
const roundTrips = (bytes: Buffer): void => expect(bytesOfPath(pathFromBytes(bytes)).equals(bytes)).toBe(true);

describe('path strings for file names that are bytes', () => {
  it('keeps UTF-8 names as they are and writes other bytes as readable \\xNN escapes', () => {
    expect(pathFromBytes(Buffer.from('/var/www/测试.php'))).toBe('/var/www/测试.php');
    expect(pathFromBytes(Buffer.concat([Buffer.from('/var/www/'), gbk]))).toBe('/var/www/\\xb2\\xe2\\xca\\xd4.php');
    expect(bytesOfPath('/var/www/\\xb2\\xe2\\xca\\xd4.php').equals(Buffer.concat([Buffer.from('/var/www/'), gbk]))).toBe(true);
    // Valid UTF-8 beside invalid bytes stays readable; a cut sequence, an overlong form and a surrogate are bytes.
    expect(pathFromBytes(Buffer.concat([Buffer.from('测'), Buffer.from([0xe6, 0xb5]), Buffer.from('/x')]))).toBe('测\\xe6\\xb5/x');
    expect(pathFromBytes(Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]))).toBe('\\xc0\\xaf\\xed\\xa0\\x80');
  });

  it('round-trips backslashes: doubled only where they would read as an escape', () => {
    expect(pathFromBytes(Buffer.from('/srv/a\\b.php'))).toBe('/srv/a\\b.php');
    expect(pathFromBytes(Buffer.from('/srv/\\xb2.php'))).toBe('/srv/\\\\xb2.php');
    expect(pathFromBytes(Buffer.from('/srv/a\\\\b'))).toBe('/srv/a\\\\\\b');
    expect(pathFromBytes(Buffer.from([0x5c, 0xb2]))).toBe('\\\\\\xb2');
    for (const text of ['/srv/a\\b.php', '/srv/\\xb2.php', '/srv/\\xZZ', '/srv/a\\\\b', '\\', '\\\\\\', 'x\\', '/a\\/b', '\\x4', '\\X41']) roundTrips(Buffer.from(text));
    roundTrips(Buffer.from([0x5c, 0xb2, 0x5c, 0x5c, 0x78, 0x34, 0x31, 0xff, 0x5c]));
    // A hand-typed lone backslash means itself; its canonical form is unchanged.
    expect(canonicalPath('/srv/a\\b')).toBe('/srv/a\\b');
  });

  it('round-trips every byte value, alone and between UTF-8 characters', () => {
    for (let byte = 1; byte < 256; byte += 1) {
      roundTrips(Buffer.from([byte]));
      roundTrips(Buffer.concat([Buffer.from('é'), Buffer.from([byte, byte]), Buffer.from('测')]));
    }
  });
});

describe('a tree scan over names that are not UTF-8', () => {
  it('finds and flags a web shell with a GBK name, and keeps UTF-8 and backslash names exact', async () => {
    const dir = tempDir();
    const dirBytes = Buffer.from(`${dir}/`);
    writeFileSync(Buffer.concat([dirBytes, gbk]), shell);
    writeFileSync(`${dir}/测试.php`, shell);
    writeFileSync(`${dir}/a\\x41\\.php`, shell);
    writeFileSync(`${dir}/clean.php`, '<?php echo "hello";');
    const results: WebshellFileResult[] = [];
    const summary = await scanTree({ roots: [dir], sizeLimitKb: 64, extensions: ['php'], workers: 1, onResult: (r) => results.push(r) });
    expect(summary).toMatchObject({ state: 'complete', done: 4, total: 4 });
    const byPath = new Map(results.map((r) => [r.path, r]));
    const gbkPath = `${dir}/\\xb2\\xe2\\xca\\xd4.php`;
    expect(byPath.get(gbkPath)).toMatchObject({ status: 'scanned', risk: 'high' });
    expect(byPath.get(`${dir}/测试.php`)).toMatchObject({ status: 'scanned', risk: 'high' });
    expect(byPath.get(`${dir}/a\\\\x41\\.php`)).toMatchObject({ status: 'scanned', risk: 'high' });
    expect(byPath.get(`${dir}/clean.php`)?.risk).toBe('none');
    // Every reported path names a file that is there, byte for byte.
    const onDisk = readdirSync(Buffer.from(dir), { encoding: 'buffer' }).map((name) => Buffer.concat([dirBytes, name]).toString('hex')).sort();
    expect(results.map((r) => bytesOfPath(r.path).toString('hex')).sort()).toEqual(onDisk);
    expect(results.some((r) => r.path.includes('\ufffd'))).toBe(false);
  });
});
