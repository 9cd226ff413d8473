import { chmod, mkdir, mkdtemp, rm, stat, symlink, utimes, writeFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardFingerprint, planGuard, resolveExecutables, resolveGuard, type ResolveRoots } from '../src/index.ts';
import { baseInput, namingRule, tamperRule } from './fixtures.ts';

/* The resolver against real files in a temp dir (and the real /proc for running processes). */

let root: string;
let roots: ResolveRoots;

async function exe(file: string, mode = 0o755): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, mode);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rampart-guard-resolve-'));
  await mkdir(path.join(root, 'www/site1/uploads'), { recursive: true });
  await mkdir(path.join(root, 'www/site2'), { recursive: true });
  await mkdir(path.join(root, 'www/other'), { recursive: true });
  await exe(path.join(root, 'bin/myapp'));
  await exe(path.join(root, 'bin/notexec'), 0o644);
  await symlink(path.join(root, 'bin/myapp'), path.join(root, 'bin/myapp-link'));
  await exe(path.join(root, 'lib/a/b/c/php-fpm8.2'));
  await exe(path.join(root, 'lib/a/b/c/d/e/f/g/too-deep-php-fpm'));
  await writeFile(path.join(root, 'dpkg-status'), 'x');
  roots = { binDirs: [path.join(root, 'bin')], trees: [path.join(root, 'lib')], proc: null, packageFiles: [path.join(root, 'dpkg-status')], maxDepth: 4, maxEntries: 10_000 };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('guard resolver', () => {
  it('stats rule paths, expands prefix*, resolves sub-path directories, records missing paths as null', async () => {
    const www = path.join(root, 'www');
    const tamper = [
      tamperRule(1, { path: `${www}/site*`, sub_path: 'uploads/*.php' }),
      tamperRule(2, { path: `${root}/missing` }),
      tamperRule(3, { path: `${www}/*` }),
    ];
    const result = await resolveGuard(tamper, [namingRule(1, { dir: `${www}/site1/uploads` })], [`${root}/self`], roots);
    const siteInfo = await stat(`${www}/site1`);
    expect(result.resolved[`${www}/site1`]).toEqual({ dev: siteInfo.dev, ino: siteInfo.ino, dir: true });
    expect(result.resolved[`${www}/site2`]?.dir).toBe(true);
    expect(result.resolved[`${www}/other`]).toBeUndefined();
    expect(result.resolved[`${www}/site1/uploads`]?.dir).toBe(true);
    expect(result.resolved[`${www}/site2/uploads`]).toBeNull();
    expect(result.resolved[`${root}/missing`]).toBeNull();
    expect(result.resolved[`${root}/self`]).toBeNull();
    expect(result.resolved[www]?.dir).toBe(true);

    // and the planner turns that into objects
    const { plan, ruleStates } = planGuard(baseInput({ tamper, resolved: result.resolved, exes: result.exes }));
    expect(plan.objects.map((o) => o.path)).toEqual([www, `${www}/site1/uploads`]);
    expect(ruleStates.tamper).toEqual({ 1: 'active', 2: 'path_missing', 3: 'active' });
  });

  it('follows symlinks for protected paths (the target is protected)', async () => {
    await symlink(path.join(root, 'www/site1'), path.join(root, 'site-link'));
    const result = await resolveGuard([tamperRule(1, { path: `${root}/site-link` })], [], [], roots);
    expect(result.resolved[`${root}/site-link`]?.ino).toBe((await stat(path.join(root, 'www/site1'))).ino);
  });

  it('resolves process patterns: exact paths, wildcards over bin dirs and bounded trees, executables only', async () => {
    const { exes } = await resolveExecutables([`${root}/bin/myapp`, '*php-fpm*', `${root}/bin/my*`, `${root}/bin/notexec`, '*'], roots);
    const myapp = await stat(`${root}/bin/myapp`);
    expect(exes[`${root}/bin/myapp`]).toEqual([{ dev: myapp.dev, ino: myapp.ino, path: `${root}/bin/myapp` }]);
    // the symlink is a candidate by its own name, with its target's inode
    expect(exes[`${root}/bin/my*`]!.map((e) => [e.path, e.ino])).toEqual([
      [`${root}/bin/myapp`, myapp.ino],
      [`${root}/bin/myapp-link`, myapp.ino],
    ]);
    // within maxDepth only
    expect(exes['*php-fpm*']!.map((e) => path.basename(e.path))).toEqual(['php-fpm8.2']);
    expect(exes[`${root}/bin/notexec`]).toEqual([]);
    expect(exes['*']).toBeUndefined();
  });

  it('finds the executables of running processes in /proc', async () => {
    const { exes } = await resolveExecutables([`*/${path.basename(process.execPath)}`], { ...roots, binDirs: [], trees: [], proc: '/proc' });
    const self = await stat(process.execPath);
    expect(exes[`*/${path.basename(process.execPath)}`]!.some((e) => e.ino === self.ino && e.dev === self.dev)).toBe(true);
  });

  it('the fingerprint changes when a package file changes, a binary is replaced, or a prefix directory gains an entry', async () => {
    const tamper = [tamperRule(1, { path: `${root}/www/site*`, process: `${root}/bin/myapp` })];
    const first = await resolveGuard(tamper, [], [], roots);
    const before = await guardFingerprint(first.watch);
    expect(await guardFingerprint(first.watch)).toBe(before);

    await utimes(path.join(root, 'dpkg-status'), new Date(), new Date(Date.now() + 5000));
    const afterPackage = await guardFingerprint(first.watch);
    expect(afterPackage).not.toBe(before);

    // an upgrade writes a new file and renames it over the old one: a new inode
    await exe(`${root}/bin/myapp.new`);
    await rename(`${root}/bin/myapp.new`, `${root}/bin/myapp`);
    const afterUpgrade = await guardFingerprint(first.watch);
    expect(afterUpgrade).not.toBe(afterPackage);

    await new Promise((resolve) => setTimeout(resolve, 20));
    await mkdir(`${root}/www/site3`);
    expect(await guardFingerprint(first.watch)).not.toBe(afterUpgrade);
  });
});
