import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { auditReportSchema, type AuditProcess, type AuditRun, type AuditUser, type Language, type PatchItem, type PatchState } from '@rampart/contracts';
import { buildAuditReport, finishedRun, renderReportHtml } from '../src/index.ts';

/*
 * The report's user, process and patch sections: a row per finding (worst first) with its advice,
 * the patch list with level and status, each in the reader's language; and no such section when
 * the console had nothing to give (an agent without an audit root or without apt).
 */

const run: AuditRun = {
  id: 3, status: 'finished', account: 'admin', started_at: Date.UTC(2026, 11, 6, 8, 0, 0), finished_at: Date.UTC(2026, 11, 6, 8, 0, 9),
  duration_ms: 9_000, score: 80, counts: { pass: 0, fail: 0, not_applicable: 0, error: 0 }, failed_by_level: { hint: 0, warning: 0, danger: 0 }, error: null,
};

const user = (name: string, uid: number, findings: AuditUser['findings']): AuditUser => ({
  name, uid, gid: uid, group: name, groups: [], status: 'normal', hash_kind: 'md5', description: '', home: '/root', shell: '/bin/bash',
  last_login: { at: null, from: null, known: false }, created_at: null, sudo: true, remote: { ssh: 'denied', methods: [], rule: null }, findings,
});
const users = [user('toor', 0, [{ kind: 'weak_hash', level: 'warning', detail: 'md5' }, { kind: 'uid0_duplicate', level: 'danger', detail: '/etc/passwd:2' }])];

const processes: AuditProcess[] = [{
  pid: 4242, name: 'kworkerd', user: 'www-data', uid: 33, path: '/tmp/.x/kworkerd', deleted: false, cmdline: '/tmp/.x/kworkerd <b>', start_time: 0,
  parent: { pid: 1, name: 'systemd' }, modules: [], modules_total: 0, listening: [], packaged: false,
  findings: [{ kind: 'unpackaged', level: 'hint', detail: '' }, { kind: 'exe_in_temp', level: 'danger', detail: '/tmp/.x/kworkerd' }],
}];

const item = (name: string, level: PatchItem['level'], status: PatchItem['status']): PatchItem => ({
  name, arch: 'all', current_version: '1.0', new_version: '1.1', origin: 'Debian-Security:bookworm-security', level, urgency: null,
  description: `${name} update`, size: 1000, installed_size_kib: 8, release_date: '2026-12-01', status, progress: null, reason: null,
});
const patch: PatchState = {
  available: true, busy: null, check: { state: 'finished', checked_at: 1, error: null }, last_job: null, reboot_required: true,
  list: [item('rp-alpha', 'optional', 'waiting_update'), item('openssl', 'emergency', 'install_finished')], settings: { auto_update: false, time: '03:00' },
};

const build = (language: Language, extra: { users?: AuditUser[]; processes?: AuditProcess[]; patch?: PatchState | null } = { users, processes, patch }) =>
  auditReportSchema.parse(buildAuditReport({ run: finishedRun(run)!, results: [], reinforce: [], ...extra, language, host: 'web-01', now: Date.UTC(2026, 11, 6, 10, 0, 0) }));
const section = (report: ReturnType<typeof build>, id: string) => {
  const found = report.sections.find((s) => s.id === id);
  if (found?.kind !== 'table') throw new Error(`no table section ${id}`);
  return found;
};

describe('the report’s user, process and patch sections', () => {
  it('come after the system findings and before the passed checks, a row per finding, worst first, in English', () => {
    const en = build('en-US');
    expect(en.sections.map((s) => s.id)).toEqual(['failed', 'reinforced', 'not-run', 'accounts', 'processes', 'patches', 'passed', 'not-applicable']);
    expect(section(en, 'accounts')).toMatchObject({
      title: 'Account findings',
      rows: [
        { account: 'toor (uid 0)', finding: 'Second UID 0', level: 'Danger', detail: '/etc/passwd:2', advice: expect.stringContaining('root under another name') },
        { account: 'toor (uid 0)', finding: 'Weak password hash', level: 'Warning', detail: 'md5' },
      ],
    });
    expect(section(en, 'processes').rows).toMatchObject([
      { process: 'kworkerd', pid: '4242', user: 'www-data', path: '/tmp/.x/kworkerd', finding: 'Runs from a temp directory', level: 'Danger' },
      { finding: 'Not from a package', level: 'Hint' },
    ]);
    expect(section(en, 'patches').rows).toEqual([
      { package: 'openssl', level: 'Emergency', installed: '1.0', new_version: '1.1', origin: 'Debian-Security:bookworm-security', release_date: '2026-12-01', status: 'Install finished' },
      { package: 'rp-alpha', level: 'Optional', installed: '1.0', new_version: '1.1', origin: 'Debian-Security:bookworm-security', release_date: '2026-12-01', status: 'Waiting to update' },
    ]);
  });

  it('are in Chinese for a Chinese reader, and render as tables in the HTML', () => {
    const zh = build('zh-CN');
    expect(zh.sections.filter((s) => ['accounts', 'processes', 'patches'].includes(s.id)).map((s) => s.title)).toEqual(['账号审计发现', '进程审计发现', '待安装补丁']);
    expect(section(zh, 'accounts').rows[0]).toMatchObject({ finding: '多余的 UID 0', level: '危险' });
    expect(section(zh, 'processes').rows[0]).toMatchObject({ finding: '从临时目录运行', level: '危险' });
    expect(section(zh, 'patches').rows[0]).toMatchObject({ level: '紧急', status: '安装完成' });
    const doc = new JSDOM(renderReportHtml(zh)).window.document;
    expect([...doc.querySelectorAll('#accounts tbody tr')].map((r) => r.querySelector('td')?.textContent)).toEqual(['toor (uid 0)', 'toor (uid 0)']);
    expect(doc.querySelector('#patches thead')?.textContent).toContain('新版本');
    expect(doc.querySelector('nav')?.textContent).toContain('进程审计发现 (2)');
  });

  it('say so when nothing was found or patches were never checked; are left out when there was nothing to read', () => {
    const clean = build('en-US', { users: [], processes: [], patch: { ...patch, check: { state: 'never', checked_at: null, error: null }, list: [] } });
    expect(section(clean, 'accounts')).toMatchObject({ rows: [], empty: 'No account has a finding.' });
    expect(section(clean, 'processes')).toMatchObject({ rows: [], empty: 'No process has a finding.' });
    expect(section(clean, 'patches')).toMatchObject({ rows: [], empty: 'Patches were never checked on this server.' });
    expect(section(build('zh-CN', { users: [], patch: { ...patch, list: [] } }), 'patches').empty).toBe('上次检查时没有待更新的软件包。');
    // No audit root, no apt: the report does not pretend those tabs were looked at.
    expect(build('en-US', { patch: { ...patch, available: false } }).sections.map((s) => s.id)).toEqual(['failed', 'reinforced', 'not-run', 'passed', 'not-applicable']);
  });
});
