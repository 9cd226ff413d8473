import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AptConfig } from '../src/patch/apt-run.ts';

/*
 * A real apt world in a temp dir for the patch tests: tiny packages built with `dpkg-deb --build`
 * (no maintainer scripts), indexed with `apt-ftparchive` into two local repositories (a
 * "bookworm" and a "bookworm-security" suite) served through `copy:` sources (apt copies the .debs
 * into its cache as it would download them), a dpkg root whose status has version 1.0 of each
 * package installed, and an apt.conf (APT_CONFIG) that points every apt directory, and dpkg's
 * root and admindir, into the sandbox. apt reads no part of the host's package state.
 */

export interface SandboxPackage {
  name: string;
  suite: 'main' | 'security';
  /** The changelog's first line urgency (the package then ships usr/share/doc/<name>/changelog.Debian.gz). */
  urgency?: string;
  /** Corrupt the .deb's data member, so dpkg fails to unpack it. */
  broken?: boolean;
  installedSizeKib?: number;
  /** Installed as a dependency (apt's extended_states says Auto-Installed). */
  auto?: boolean;
}

export interface AptSandbox {
  dir: string;
  root: string;
  apt: AptConfig;
  archives: string;
  lockFile: string;
}

const changelogDate = 'Tue, 01 Dec 2026 10:00:00 +0000';

function buildDeb(build: string, out: string, pkg: SandboxPackage): void {
  const tree = path.join(build, pkg.name);
  mkdirSync(path.join(tree, 'DEBIAN'), { recursive: true });
  mkdirSync(path.join(tree, 'usr/share', pkg.name), { recursive: true });
  writeFileSync(path.join(tree, 'usr/share', pkg.name, 'hello.txt'), `${pkg.name} 1.1\n`);
  if (pkg.urgency) {
    mkdirSync(path.join(tree, 'usr/share/doc', pkg.name), { recursive: true });
    const changelog = `${pkg.name} (1.1) bookworm-security; urgency=${pkg.urgency}\n\n  * Fix CVE-2026-0001.\n\n -- Test <t@example.com>  ${changelogDate}\n\n${pkg.name} (1.0) bookworm; urgency=medium\n\n  * First.\n\n -- Test <t@example.com>  Mon, 02 Mar 2026 10:00:00 +0000\n`;
    writeFileSync(path.join(tree, 'usr/share/doc', pkg.name, 'changelog.Debian.gz'), gzipSync(changelog));
  }
  const control = [
    `Package: ${pkg.name}`,
    'Version: 1.1',
    'Architecture: all',
    'Maintainer: Test <t@example.com>',
    `Installed-Size: ${pkg.installedSizeKib ?? 8}`,
    `Description: ${pkg.name} patch test package`,
    ' A tiny package for the patch tests.',
    '',
  ].join('\n');
  writeFileSync(path.join(tree, 'DEBIAN/control'), control);
  execFileSync('dpkg-deb', ['-Zgzip', '--root-owner-group', '--build', tree, out], { stdio: 'pipe' });
  if (pkg.broken) {
    // The data member is the last in the ar archive: zeroing its middle breaks the gzip stream inside.
    const size = statSync(out).size;
    const fd = openSync(out, 'r+');
    writeSync(fd, Buffer.alloc(48), 0, 48, size - 120);
    closeSync(fd);
  }
}

function statusStanza(name: string): string {
  return [`Package: ${name}`, 'Status: install ok installed', 'Priority: optional', 'Section: misc', 'Installed-Size: 4', 'Maintainer: Test <t@example.com>', 'Architecture: all', 'Version: 1.0', `Description: ${name} (old)`, '', ''].join('\n');
}

export function makeAptSandbox(packages: readonly SandboxPackage[]): AptSandbox {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-apt-'));
  const root = path.join(dir, 'root');
  const admin = path.join(root, 'var/lib/dpkg');
  for (const sub of ['build', 'etc/sources.list.d', 'etc/parts', 'etc/preferences.d', 'state/lists/partial', 'cache/archives/partial', 'log']) mkdirSync(path.join(dir, sub), { recursive: true });
  for (const sub of ['info', 'updates', 'triggers']) mkdirSync(path.join(admin, sub), { recursive: true });
  writeFileSync(path.join(admin, 'status'), packages.map((p) => statusStanza(p.name)).join(''));
  writeFileSync(path.join(admin, 'available'), '');
  // apt's record of automatically installed packages (what `apt-mark auto` writes).
  writeFileSync(path.join(dir, 'state/extended_states'), packages.filter((p) => p.auto).map((p) => `Package: ${p.name}\nArchitecture: all\nAuto-Installed: 1\n\n`).join(''));
  const sources: string[] = [];
  for (const suite of ['main', 'security'] as const) {
    const repo = path.join(dir, 'repo', suite);
    mkdirSync(repo, { recursive: true });
    for (const pkg of packages.filter((p) => p.suite === suite)) buildDeb(path.join(dir, 'build'), path.join(repo, `${pkg.name}_1.1_all.deb`), pkg);
    const packagesIndex = execFileSync('apt-ftparchive', ['packages', '.'], { cwd: repo, encoding: 'utf8' });
    writeFileSync(path.join(repo, 'Packages'), packagesIndex);
    const name = suite === 'security' ? 'bookworm-security' : 'bookworm';
    const label = suite === 'security' ? 'Debian-Security' : 'Debian';
    const release = execFileSync('apt-ftparchive', ['-o', `APT::FTPArchive::Release::Suite=${name}`, '-o', `APT::FTPArchive::Release::Codename=${name}`, '-o', 'APT::FTPArchive::Release::Origin=Debian', '-o', `APT::FTPArchive::Release::Label=${label}`, 'release', '.'], { cwd: repo, encoding: 'utf8' });
    writeFileSync(path.join(repo, 'Release'), release);
    sources.push(`deb [trusted=yes] copy:${repo} ./`);
  }
  writeFileSync(path.join(dir, 'etc/sources.list'), `${sources.join('\n')}\n`);
  const conf = [
    `Dir::Etc::parts "${dir}/etc/parts";`,
    `Dir::Etc::main "/dev/null";`,
    `Dir::Etc::SourceList "${dir}/etc/sources.list";`,
    `Dir::Etc::SourceParts "${dir}/etc/sources.list.d";`,
    `Dir::Etc::Preferences "${dir}/etc/preferences";`,
    `Dir::Etc::PreferencesParts "${dir}/etc/preferences.d";`,
    `Dir::State "${dir}/state";`,
    `Dir::State::status "${admin}/status";`,
    `Dir::Cache "${dir}/cache";`,
    `Dir::Log "${dir}/log";`,
    'Acquire::Languages "none";',
    `DPkg::Options { "--root=${root}"; "--admindir=${admin}"; "--force-script-chrootless"; "--force-not-root"; "--log=${dir}/log/dpkg.log"; };`,
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'apt.conf'), conf);
  return {
    dir,
    root,
    apt: { options: [], root, env: { APT_CONFIG: path.join(dir, 'apt.conf') } },
    archives: path.join(dir, 'cache/archives'),
    lockFile: path.join(admin, 'lock-frontend'),
  };
}

export function removeAptSandbox(sandbox: AptSandbox): void {
  rmSync(sandbox.dir, { recursive: true, force: true });
}

/** Holds dpkg's frontend lock the way apt does (an fcntl lock; `flock` would not conflict) until released. */
export async function holdLock(file: string): Promise<{ release: () => void }> {
  const { spawn } = await import('node:child_process');
  const child = spawn('python3', ['-c', 'import fcntl,sys\nf=open(sys.argv[1],"a")\nfcntl.lockf(f,fcntl.LOCK_EX)\nprint("locked",flush=True)\nsys.stdin.read()', file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
  });
  return { release: () => child.kill() };
}
