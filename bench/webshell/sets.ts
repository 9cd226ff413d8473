/**
 * The bench's two sets, each unpacked into a fresh temp folder (never under a served directory):
 * the malicious corpus from the shared tarball, and Debian's WordPress, phpMyAdmin and MediaWiki
 * (apt-get download + dpkg-deb -x; needs root for apt). WEBSHELL_CORPUS_DIR / WEBSHELL_BENIGN_DIR
 * point at folders unpacked earlier, to run the bench again without unpacking.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const corpusTarball = '/work/shared/corpora/webshell/tennc-webshell.tar.xz';

export function corpusDir(): string {
  if (process.env.WEBSHELL_CORPUS_DIR) return process.env.WEBSHELL_CORPUS_DIR;
  const dir = mkdtempSync(join(tmpdir(), 'ws-corpus-'));
  execFileSync('tar', ['-xJf', corpusTarball, '-C', dir]);
  return dir;
}

export function benignDir(): string {
  if (process.env.WEBSHELL_BENIGN_DIR) return process.env.WEBSHELL_BENIGN_DIR;
  const dir = mkdtempSync(join(tmpdir(), 'ws-benign-'));
  execFileSync('apt-get', ['download', 'wordpress', 'phpmyadmin', 'mediawiki'], { cwd: dir, stdio: 'inherit' });
  for (const deb of readdirSync(dir).filter((name) => name.endsWith('.deb'))) {
    execFileSync('dpkg-deb', ['-x', join(dir, deb), join(dir, 'root')]);
  }
  return join(dir, 'root');
}

/** The kill types of the spec's example: what a web-server administrator scans. */
export const killTypes = ['php', 'asp', 'asa', 'inc', 'aspx', 'asax', 'ashx', 'jsp', 'js'];
