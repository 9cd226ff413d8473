import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultLogSettings, localDay, type BackupRuleInput } from '@rampart/contracts';
import { LogService } from '../src/logs/log-service.ts';
// Real peers, shared with the packages' own tests: rsyslogd, ftp-srv and s3rver on loopback.
import { Rsyslog, freePort } from '../../../packages/syslog/tests/rsyslog.ts';
import { startFtpServer } from '../../../packages/log-backup/tests/support/ftp-server.ts';
import { S3_ACCESS_ID, startS3Server } from '../../../packages/log-backup/tests/support/s3-server.ts';

const day = 24 * 60 * 60 * 1000;
let dir: string;
let clock: { now: number };
let service: LogService;

async function open(): Promise<LogService> {
  return LogService.open({ stateDir: dir, log: () => {}, now: () => clock.now, background: false, backupTimeoutMs: 5000 });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-logs-'));
  clock = { now: new Date(2026, 10, 20, 12, 0, 0).getTime() };
  service = await open();
});
afterEach(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const failedLogin = (time: number, ip: string) => ({ time, kind: 'panel.login_failed', module: 'system' as const, level: 'warning' as const, source: 'test', ip, account: 'root', params: { account: 'root' } });

describe('settings', () => {
  it('persists settings and reopens with them; a damaged file falls back to the defaults', async () => {
    const h = service.handlers();
    await h['logs.settings.set']({ settings: { ...defaultLogSettings, keep_days: 60, mode: 'full' } });
    await service.close();
    service = await open();
    expect(service.config.settings.keep_days).toBe(60);
    expect(service.store.mode()).toBe('full');
    await service.close();
    writeFileSync(join(dir, 'logging.json'), '{"settings": {"mode": "loud"');
    service = await open();
    expect(service.config.settings).toEqual(defaultLogSettings);
  });
});

describe('retention and disk alert', () => {
  it('removes events and archives older than the keep days, and records it', async () => {
    await service.handlers()['logs.settings.set']({ settings: { ...defaultLogSettings, keep_days: 30, mode: 'full' } });
    service.store.append([failedLogin(clock.now - 40 * day, '192.0.2.1'), failedLogin(clock.now - 10 * day, '192.0.2.2')]);
    service.store.flush();
    expect(await service.archives.write(service.store, localDay(clock.now - 40 * day))).toBe(1);
    const removed = await service.enforceRetention();
    expect(removed).toBe(1);
    service.store.flush();
    const left = service.store.query({ limit: 10 }).list;
    expect(left.map((e) => e.ip)).toContain('192.0.2.2');
    expect(left.map((e) => e.ip)).not.toContain('192.0.2.1');
    expect(left.find((e) => e.kind === 'log.retention')?.params).toEqual({ days: 30, count: 1 });
    expect(await service.archives.list()).toEqual([]);
  });

  it('raises one disk alert a day when the log store outgrows the limit', async () => {
    expect(await service.checkDiskUse()).toBe(false); // limit 0: no alert
    await service.handlers()['logs.settings.set']({ settings: { ...defaultLogSettings, disk_limit_mb: 1 } });
    service.store.append(Array.from({ length: 3000 }, (_, i) => ({ ...failedLogin(clock.now, `10.9.${i >> 8}.${i & 255}`), detail: 'x'.repeat(1000) })));
    service.store.flush();
    expect(await service.checkDiskUse()).toBe(true);
    expect(await service.checkDiskUse()).toBe(false);
    expect(service.store.listNotices(0, 10).list.map((n) => n.kind)).toEqual(['disk_alert']);
    clock.now += day;
    expect(await service.checkDiskUse()).toBe(true);
  });
});

describe('syslog forwarding to rsyslog', () => {
  let rsyslog: Rsyslog | undefined;
  afterAll(async () => rsyslog?.stop());

  it('forwards each stored event of the chosen kinds, as rsyslog parses it', async () => {
    const port = await freePort('tcp', '127.0.0.1');
    rsyslog = await Rsyslog.start([{ transport: 'tcp', address: '127.0.0.1', port }], 'UTC');
    await service.handlers()['logs.settings.set']({
      settings: { ...defaultLogSettings, mode: 'full', syslog: { enabled: true, protocol: 'rfc5424', charset: 'utf-8', lang: 'zh-CN', kinds: ['security'], servers: [{ host: '127.0.0.1', port, transport: 'tcp' }] } },
    });
    service.store.append([
      failedLogin(clock.now, '198.51.100.7'),
      { kind: 'panel.action', module: 'system', level: 'info', source: 'console', account: 'admin', ip: '127.0.0.1', params: { account: 'admin', action: 'POST /x', result: 'ok' } },
    ]);
    service.store.flush();
    const [got] = await rsyslog.waitFor((r) => r.appName === 'rampart');
    expect(got!.msgId).toBe('panel.login_failed');
    expect(got!.severity).toBe('4');
    expect(got!.facility).toBe('20');
    expect(Buffer.from(got!.msg, 'latin1').toString('utf8')).toBe('账号 root 登录面板失败');
    expect(got!.structuredData).toContain('ip="198.51.100.7"');
    expect(got!.structuredData).toContain('module="system"');
    // The operation kind was not chosen: only one message arrived.
    await new Promise((r) => setTimeout(r, 300));
    expect(rsyslog.received().filter((r) => r.appName === 'rampart')).toHaveLength(1);
  });

  it('keeps storing while the receiver is down', async () => {
    const port = await freePort('tcp', '127.0.0.1');
    await service.handlers()['logs.settings.set']({
      settings: { ...defaultLogSettings, mode: 'full', syslog: { ...defaultLogSettings.syslog, enabled: true, servers: [{ host: '127.0.0.1', port, transport: 'tcp' }] } },
    });
    const started = performance.now();
    for (let i = 0; i < 50; i++) service.store.append([failedLogin(clock.now, `203.0.113.${i}`)]);
    service.store.flush();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(service.store.stats().events).toBe(50);
  });
});

describe('backups', () => {
  const rule = (fields: Partial<BackupRuleInput>): BackupRuleInput => ({
    enabled: true, type: 'ftp', bucket: '', domain: '', ip: '127.0.0.1', port: 0, username: 'logs', password: 'ftp-pass',
    access_id: '', access_secret: '', save_path: 'srv/rampart', remark: '', ...fields,
  });

  it('archives whole days and uploads them to FTP and S3, verified, once each', async () => {
    const ftpRoot = mkdtempSync(join(tmpdir(), 'rampart-ftp-'));
    const s3Dir = mkdtempSync(join(tmpdir(), 'rampart-s3-'));
    const ftp = await startFtpServer(ftpRoot, 'logs', 'ftp-pass');
    const s3 = await startS3Server(s3Dir, 's3-secret', ['rampart-logs-bucket']);
    try {
      service.store.append([failedLogin(clock.now - day, '192.0.2.10'), failedLogin(clock.now - 2 * day, '192.0.2.11'), failedLogin(clock.now, '192.0.2.12')]);
      await service.handlers()['logs.backup.set']({
        rules: [
          rule({ port: ftp.port }),
          rule({ type: 's3', domain: s3.endpoint, ip: '', bucket: 'rampart-logs-bucket', username: '', password: '', access_id: S3_ACCESS_ID, access_secret: 's3-secret', save_path: 'daily' }),
        ],
      });
      const results = await service.backupNow();
      expect(results.filter((r) => !r.ok)).toEqual([]);
      const yesterday = `events-${localDay(clock.now - day)}.jsonl.gz`;
      expect(results.map((r) => r.file).sort()).toContain(yesterday);
      // Today is not a whole day yet: it is not archived.
      expect(results.map((r) => r.file)).not.toContain(`events-${localDay(clock.now)}.jsonl.gz`);
      const uploaded = gunzipSync(readFileSync(join(ftpRoot, 'srv/rampart/rampart-logs', yesterday))).toString('utf8');
      expect(JSON.parse(uploaded.trim()).ip).toBe('192.0.2.10');
      expect(readdirSync(join(ftpRoot, 'srv/rampart/rampart-logs')).sort()).toHaveLength(2);
      const views = (await service.handlers()['logs.backup.get']({})).rules;
      expect(views.every((v) => v.last?.ok)).toBe(true);
      // A second run has nothing left to send.
      expect((await service.backupNow()).every((r) => r.ok && r.file === '')).toBe(true);
    } finally {
      await ftp.close();
      await s3.close();
      rmSync(ftpRoot, { recursive: true, force: true });
      rmSync(s3Dir, { recursive: true, force: true });
    }
  });

  it('reports a failure as an event and a notice, and retries on the next run', async () => {
    const ftpRoot = mkdtempSync(join(tmpdir(), 'rampart-ftp-'));
    const ftp = await startFtpServer(ftpRoot, 'logs', 'right-pass');
    try {
      service.store.append([failedLogin(clock.now - day, '192.0.2.20')]);
      await service.handlers()['logs.backup.set']({ rules: [rule({ port: ftp.port, password: 'wrong-pass' })] });
      const [failed] = await service.backupNow();
      expect(failed!.ok).toBe(false);
      expect(failed!.error).toMatch(/auth/i);
      const notices = service.store.listNotices(0, 10).list;
      expect(notices.map((n) => n.kind)).toEqual(['backup_failed']);
      service.store.flush();
      expect(service.store.query({ limit: 10, keyword: { text: 'x', kinds: ['log.backup_failed'] } }).list).toHaveLength(1);
      // The administrator fixes the password (the rest stays): the next run sends the archive.
      const id = (await service.handlers()['logs.backup.get']({})).rules[0]!.id;
      await service.handlers()['logs.backup.set']({ rules: [rule({ id, port: ftp.port, password: 'right-pass' })] });
      const [retried] = await service.backupNow();
      expect(retried).toMatchObject({ ok: true });
    } finally {
      await ftp.close();
      rmSync(ftpRoot, { recursive: true, force: true });
    }
  });
});
