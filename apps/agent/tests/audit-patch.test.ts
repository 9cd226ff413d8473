import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchStateSchema, type PatchItem, type PatchState } from '@rampart/contracts';
import { PatchService } from '../src/audit/patch-service.ts';
import { holdLock, makeAptSandbox, removeAptSandbox, type AptSandbox } from '../../../packages/audit/tests/apt-sandbox.ts';

/*
 * The patch tab's service running the real apt-get against a sandbox apt world (local repositories
 * built with dpkg-deb + apt-ftparchive, a dpkg root in a temp dir): check, levels and sizes, the apt
 * lock, download into the cache, install into the sandbox root, a broken package, "execution in
 * progress", what survives a restart, and the daily auto update on an injected clock.
 */

let sandbox: AptSandbox;
let stateDir: string;
let service: PatchService;
let clock = new Date(2026, 11, 6, 12, 0, 0).getTime();
const now = () => clock;

beforeAll(() => {
  sandbox = makeAptSandbox([
    { name: 'alpha', suite: 'main', installedSizeKib: 12 },
    { name: 'beta', suite: 'security', auto: true },
    { name: 'gamma', suite: 'security', urgency: 'critical' },
    { name: 'delta', suite: 'main', broken: true },
  ]);
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'rampart-patch-state-'));
  service = new PatchService({ stateDir, apt: sandbox.apt, log: () => {}, now, timers: false });
});
afterAll(() => {
  service.close();
  removeAptSandbox(sandbox);
  rmSync(stateDir, { recursive: true, force: true });
});

const state = (): PatchState => patchStateSchema.parse(service.status());
const item = (name: string): PatchItem => state().list.find((i) => i.name === name)!;
const debSize = (name: string, suite: string) => statSync(path.join(sandbox.dir, 'repo', suite, `${name}_1.1_all.deb`)).size;

describe('patch management with the real apt in a sandbox', () => {
  it('checks: every pending update with its level, description, size and release date', async () => {
    expect(state().check.state).toBe('never');
    expect(await service.check('admin')).toEqual({ started: true, refused: null });
    expect(state()).toMatchObject({ busy: 'check', check: { state: 'checking' } });
    await service.idle();
    const after = state();
    expect(after.check).toMatchObject({ state: 'finished', checked_at: clock, error: null });
    expect(after.list.map((i) => i.name).sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(item('alpha')).toMatchObject({ level: 'optional', current_version: '1.0', new_version: '1.1', description: 'alpha patch test package', size: debSize('alpha', 'main'), installed_size_kib: 12, status: 'waiting_update', origin: 'Debian:bookworm' });
    // A security origin is important; its changelog's urgency is not known before the download.
    expect(item('beta')).toMatchObject({ level: 'important', origin: 'Debian-Security:bookworm-security', urgency: null });
    expect(item('gamma').level).toBe('important');
    // The Release file's date: apt-ftparchive wrote today's (UTC).
    expect(item('beta').release_date).toBe(new Date().toISOString().slice(0, 10));
  });

  it('refuses with "another package manager is running" while dpkg\'s lock is held, changing nothing', async () => {
    const before = state().list;
    const lock = await holdLock(sandbox.lockFile);
    try {
      expect(await service.download(['beta'], 'admin')).toEqual({ started: false, refused: 'audit_patch_locked' });
      expect(await service.install(null, 'admin')).toEqual({ started: false, refused: 'audit_patch_locked' });
    } finally {
      lock.release();
    }
    expect(state().list).toEqual(before);
    expect(state().busy).toBeNull();
  });

  it('refuses an unknown package and an empty selection', async () => {
    expect(await service.download(['no-such-package'], 'admin')).toEqual({ started: false, refused: 'audit_patch_unknown_package' });
    expect(await service.install([], 'admin')).toEqual({ started: false, refused: 'audit_patch_nothing_selected' });
  });

  it('downloads into apt\'s cache, and reads the urgency and date of the changelog (critical security: emergency)', async () => {
    expect(await service.download(['beta', 'gamma'], 'admin')).toEqual({ started: true, refused: null });
    expect(item('beta').status).toMatch(/^(waiting_download|downloading)$/);
    expect(item('alpha').status).toBe('waiting_update');
    await service.idle();
    expect(existsSync(path.join(sandbox.archives, 'beta_1.1_all.deb'))).toBe(true);
    expect(existsSync(path.join(sandbox.archives, 'gamma_1.1_all.deb'))).toBe(true);
    expect(item('beta')).toMatchObject({ status: 'download_finished', level: 'important' });
    expect(item('gamma')).toMatchObject({ status: 'download_finished', level: 'emergency', urgency: 'critical', release_date: '2026-12-01' });
    expect(state().last_job).toMatchObject({ kind: 'download', account: 'admin', error: null });
  });

  it('installs the selected updates into the root, and suggests a reboot', async () => {
    expect(await service.install(['alpha', 'beta', 'gamma'], 'admin')).toEqual({ started: true, refused: null });
    // One apt job at a time, shared with the audit's runs.
    expect(await service.check('admin')).toEqual({ started: false, refused: 'audit_execution_in_progress' });
    await service.idle();
    for (const name of ['alpha', 'beta', 'gamma']) {
      expect(item(name)).toMatchObject({ status: 'install_finished', progress: 100, reason: null });
      expect(readFileSync(path.join(sandbox.root, 'usr/share', name, 'hello.txt'), 'utf8')).toBe(`${name} 1.1\n`);
    }
    expect(readFileSync(path.join(sandbox.root, 'var/lib/dpkg/status'), 'utf8')).toMatch(/Package: alpha\nStatus: install ok installed\n(?:.*\n)*?Version: 1\.1/);
    expect(item('delta').status).toBe('waiting_update');
    expect(state().reboot_required).toBe(true);
    // beta was installed as a dependency: installing it by name leaves it so (autoremove still sees it).
    expect(readFileSync(path.join(sandbox.dir, 'state/extended_states'), 'utf8')).toMatch(/Package: beta\n(?:.*\n)*?Auto-Installed: 1/);
  });

  it('reports a package dpkg cannot unpack as install failed, with dpkg\'s reason', async () => {
    expect(await service.install(['delta'], 'admin')).toEqual({ started: true, refused: null });
    await service.idle();
    const delta = item('delta');
    expect(delta.status).toBe('install_failed');
    expect(delta.reason?.key).toBe('audit_patch_install_failed');
    expect(delta.reason?.values?.['error']).toMatch(/delta|gzip|unexpected|corrupt|data/i);
    expect(existsSync(path.join(sandbox.root, 'usr/share/delta/hello.txt'))).toBe(false);
  });

  it('keeps the list and settings across a restart; the auto update runs once at its time of day', async () => {
    expect(service.setSettings({ auto_update: true, time: '12:30' })).toEqual({ auto_update: true, time: '12:30' });
    service.close();
    service = new PatchService({ stateDir, apt: sandbox.apt, log: () => {}, now, timers: false });
    expect(state().settings).toEqual({ auto_update: true, time: '12:30' });
    expect(item('alpha').status).toBe('install_finished');
    // 12:00, the slot is at 12:30: nothing runs yet.
    await service.tick();
    expect(state().last_job?.account).toBe('admin');
    clock += 31 * 60_000;
    await service.tick();
    // The check found only delta pending, and the auto update tried to install it.
    expect(state().last_job).toMatchObject({ kind: 'install', account: 'auto_update', started_at: clock });
    expect(state().list.map((i) => [i.name, i.status])).toEqual([['delta', 'install_failed']]);
  });

  it('waits for the audit: a run or reinforcement in progress refuses patch jobs', async () => {
    const dirs = [mkdtempSync(path.join(os.tmpdir(), 'rampart-patch-other-')), mkdtempSync(path.join(os.tmpdir(), 'rampart-patch-none-'))];
    const other = new PatchService({ stateDir: dirs[0]!, apt: sandbox.apt, log: () => {}, timers: false, otherBusy: () => true });
    expect(await other.check('admin')).toEqual({ started: false, refused: 'audit_execution_in_progress' });
    // A package's own request for a reboot (update-notifier's file in the target root) is suggested too.
    expect(other.status().reboot_required).toBe(false);
    mkdirSync(path.join(sandbox.root, 'run'), { recursive: true });
    writeFileSync(path.join(sandbox.root, 'run/reboot-required'), '*** System restart required ***\n');
    expect(other.status().reboot_required).toBe(true);
    other.close();
    const none = new PatchService({ stateDir: dirs[1]!, apt: null, log: () => {}, timers: false });
    expect(await none.check('admin')).toEqual({ started: false, refused: 'audit_patch_not_available' });
    expect(none.status().available).toBe(false);
    none.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
});
