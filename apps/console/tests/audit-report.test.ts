import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedExecutor, type Executor } from '@rampart/audit';
import { auditReportSchema, auditStatusSchema, patchStateSchema, type AuditReport } from '@rampart/contracts';
import { baseAccounts, makeRoot, removeRoots } from '../../../packages/audit/tests/fixture-root.ts';
import { makeAptSandbox, removeAptSandbox, type AptSandbox } from '../../../packages/audit/tests/apt-sandbox.ts';
import { auth, magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The audit report download through the console: a real agent on a real socket audits a small
 * Debian-like root in a temp dir (recorded command outputs, never the host's /etc); the console
 * builds the report from the agent's answers. A gate in the executor holds one run open so the
 * "not finished" refusal is met for real. The root has a second uid 0 (`toor`) for the report's
 * account section; the agent's patch tab runs the real apt-get on a sandbox apt world (one pending
 * security update) for its patch section; the process section is this machine's real /proc.
 */

let h: Harness;
let token: string;
let release: (() => void) | undefined;
let apt: AptSandbox;
let root: string;
const recorded = recordedExecutor({ 'sshd -t': {}, systemctl: {} });
/** While `release` is set, the next command waits: the run stays `running`. */
const gated: Executor = async (command, args) => {
  if (release) await new Promise<void>((resolve) => { const r = release!; release = () => { r(); resolve(); }; });
  return recorded(command, args);
};

beforeAll(async () => {
  apt = makeAptSandbox([{ name: 'rp-gamma', suite: 'security' }]);
  root = makeRoot({
    ...baseAccounts,
    '/etc/passwd': { mode: 0o644, text: `${(baseAccounts['/etc/passwd'] as { text: string }).text}toor:x:0:0::/root:/bin/bash\n` },
    '/etc/shadow': { mode: 0o640, text: `${(baseAccounts['/etc/shadow'] as { text: string }).text}toor:$y$j9T$ghi:19700:0:99999:7:::\n` },
    '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n',
    '/etc/ssh/sshd_config.d': { dir: true },
    '/etc/login.defs': { text: '# login.defs\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n', mode: 0o644 },
  });
  h = await startHarness({
    agent: () => ({
      guard: { spawn: false, background: false },
      audit: { root, executor: gated },
      patch: { apt: apt.apt, timers: false },
    }),
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  release?.();
  await h.close();
  removeRoots();
  removeAptSandbox(apt);
});

type Lang = 'zh-CN' | 'en-US';
const get = (url: string, lang: Lang = 'en-US', as = token) => h.app.inject({ method: 'GET', url: `/magapi${url}`, headers: { ...auth(as), 'accept-language': lang } });

async function finish() {
  for (let i = 0; i < 500; i++) {
    const status = auditStatusSchema.parse((await magapi(h.app, 'GET', '/audit/status', { token })).body.data);
    if (!status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the audit did not finish');
}

describe('the audit report download', () => {
  it('refuses before any run, in the caller’s language', async () => {
    expect((await get('/audit/report')).json()).toMatchObject({ code: 2, msg: 'Run a system audit first' });
    expect((await get('/audit/report?format=pdf', 'zh-CN')).json()).toMatchObject({ code: 2, msg: '请先完成一次系统体检' });
  });

  it('refuses a run that has not finished, then exports it once it has', async () => {
    release = () => undefined;
    const started = await magapi(h.app, 'POST', '/audit/start', { token });
    const runId = started.body.data.run_id as number;
    for (const [lang, msg] of [['en-US', 'This audit run has not finished; only a finished run can be exported'], ['zh-CN', '该次体检未完成，只能导出已完成的体检报告']] as const) {
      const res = await get(`/audit/report?run_id=${runId}&format=html`, lang);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.json()).toMatchObject({ code: 2, msg });
    }
    const open = release;
    release = undefined;
    open();
    const status = await finish();
    expect(status.run).toMatchObject({ id: runId, status: 'finished' });
  });

  it('downloads HTML, JSON and PDF of the finished run with a safe file name, in the asked language', async () => {
    const status = await finish();
    const run = status.run!;
    const name = new RegExp(`^attachment; filename="rampart-audit-${run.id}-\\d{4}-\\d{2}-\\d{2}\\.(html|json|pdf)"$`);

    const html = await get(`/audit/report?run_id=${run.id}&format=html&lang=en`, 'zh-CN');
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-disposition']).toMatch(name);
    expect(html.body).toContain('<html lang="en-US">');
    expect(html.body).toContain(`data-score="${run.score}"`);
    expect(html.body).toContain('root can log in over SSH with a password');

    // No lang: the caller's language; no run_id: the latest finished run.
    const zh = await get('/audit/report', 'zh-CN');
    expect(zh.headers['content-disposition']).toMatch(name);
    expect(zh.body).toContain('Rampart 安全体检报告');
    expect(zh.body).toContain('root 可以用密码远程登录');

    const json = await get(`/audit/report?run_id=${run.id}&format=json&lang=zh`);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const report = auditReportSchema.parse(json.json());
    expect(report).toMatchObject({ language: 'zh-CN', run: { id: run.id, score: run.score } });
    // Every result of the run is in exactly one of the system audit's sections.
    const system = report.sections.filter((s) => ['failed', 'not-run', 'passed', 'not-applicable'].includes(s.id));
    const listed = system.reduce((n, s) => n + (s.kind === 'findings' ? s.findings.length : s.rows.length), 0);
    const counts = run.counts!;
    expect(listed).toBe(counts.pass + counts.fail + counts.not_applicable + counts.error);

    const pdf = await get(`/audit/report?run_id=${run.id}&format=pdf&lang=en`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(name);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const file = join(h.dir, 'report.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(`Score: ${run.score}`);
    expect(text).toContain('root can log in over SSH with a password');
  });

  it('adds the account and process findings and the checked patch list, in the asked language', async () => {
    const section = (report: AuditReport, id: string) => report.sections.find((s) => s.id === id);
    // Before any patch check: the section says so.
    const before = auditReportSchema.parse((await get('/audit/report?format=json&lang=en')).json());
    expect(section(before, 'patches')).toMatchObject({ rows: [], empty: 'Patches were never checked on this server.' });
    expect((await magapi(h.app, 'POST', '/audit/patch/check', { token })).body).toMatchObject({ code: 0, data: { started: true } });
    for (let i = 0; i < 300; i++) {
      const state = patchStateSchema.parse((await magapi(h.app, 'GET', '/audit/patch/status', { token })).body.data);
      if (state.check.state === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    for (const [lang, texts] of [
      ['en', { accounts: 'Account findings', uid0: 'Second UID 0', danger: 'Danger', processes: 'Process findings', patches: 'Pending patches', important: 'Important', waiting: 'Waiting to update' }],
      ['zh', { accounts: '账号审计发现', uid0: '多余的 UID 0', danger: '危险', processes: '进程审计发现', patches: '待安装补丁', important: '重要', waiting: '等待更新' }],
    ] as const) {
      const report = auditReportSchema.parse((await get(`/audit/report?format=json&lang=${lang}`)).json());
      expect(report.sections.map((s) => s.id)).toEqual(['failed', 'reinforced', 'not-run', 'accounts', 'processes', 'patches', 'passed', 'not-applicable']);
      expect(section(report, 'accounts')).toMatchObject({ title: texts.accounts, rows: [{ account: 'toor (uid 0)', finding: texts.uid0, level: texts.danger, detail: expect.stringContaining('/etc/passwd:5') }] });
      // This machine's processes: the test's own node is not from a Debian package.
      const processes = section(report, 'processes');
      expect(processes?.title).toBe(texts.processes);
      expect(processes?.kind === 'table' && processes.rows.some((r) => r.pid === String(process.pid))).toBe(true);
      expect(section(report, 'patches')).toMatchObject({ title: texts.patches, rows: [{ package: 'rp-gamma', level: texts.important, installed: '1.0', new_version: '1.1', status: texts.waiting }] });
    }
    const html = await get('/audit/report?format=html&lang=zh');
    expect(html.body).toContain('<section id="accounts"><h2>账号审计发现</h2>');
    expect(html.body).toContain('rp-gamma');
  });

  it('shows the account and process findings saved with each run, and says a run from before that saved none', async () => {
    const report = async (runId: number, lang: 'en' | 'zh') => auditReportSchema.parse((await get(`/audit/report?run_id=${runId}&format=json&lang=${lang}`)).json());
    const accounts = (r: AuditReport) => r.sections.find((s) => s.id === 'accounts');
    const old = (await finish()).run!;
    // Change the fact: the second uid 0 is now called zeta.
    for (const file of ['etc/passwd', 'etc/shadow']) writeFileSync(join(root, file), readFileSync(join(root, file), 'utf8').replace(/^toor:/m, 'zeta:'));
    expect((await magapi(h.app, 'POST', '/audit/start', { token })).body).toMatchObject({ code: 0, data: { started: true } });
    const now = (await finish()).run!;
    expect(now.id).toBeGreaterThan(old.id);
    expect(accounts(await report(old.id, 'en'))).toMatchObject({ rows: [{ account: 'toor (uid 0)' }] });
    expect(accounts(await report(now.id, 'en'))).toMatchObject({ rows: [{ account: 'zeta (uid 0)' }] });

    // A run finished before runs saved their findings has none in the agent's store.
    const db = new DatabaseSync(join(h.dir, 'agent', 'audit.db'));
    db.prepare('UPDATE audit_runs SET inventory = NULL WHERE id = ?').run(old.id);
    db.close();
    for (const [lang, empty] of [
      ['en', 'This audit ran before account and process findings were saved with each run'],
      ['zh', '该次体检早于随体检保存账号与进程发现的版本'],
    ] as const) {
      const r = await report(old.id, lang);
      for (const id of ['accounts', 'processes']) expect(r.sections.find((s) => s.id === id), id).toMatchObject({ rows: [], empty: expect.stringContaining(empty) });
    }
    const html = await get(`/audit/report?run_id=${old.id}&format=html&lang=zh`);
    expect(html.body).toContain('该次体检早于随体检保存账号与进程发现的版本');
    expect(html.body).not.toContain('zeta');
  });

  it('answers bad parameters with a clear 400 in both languages and an unknown run with a message', async () => {
    const cases: [string, string, string][] = [
      ['format=doc', 'The report format must be html, pdf or json', '报告格式须为 html、pdf 或 json'],
      ['lang=fr', 'The report language must be zh or en', '报告语言须为 zh 或 en'],
      ['run_id=abc', 'The audit run id must be a positive integer', '体检编号须为正整数'],
      ['run_id=0', 'The audit run id must be a positive integer', '体检编号须为正整数'],
      ['file=../../etc/passwd', 'The request is not valid', '请求参数有误'],
    ];
    for (const [query, en, zh] of cases) {
      const res = await get(`/audit/report?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().msg, query).toBe(en);
      expect((await get(`/audit/report?${query}`, 'zh-CN')).json().msg, query).toBe(zh);
    }
    expect((await get('/audit/report?run_id=9999')).json()).toMatchObject({ code: 2, msg: 'No such audit run' });
    expect((await get('/audit/report?run_id=9999', 'zh-CN')).json()).toMatchObject({ code: 2, msg: '没有找到该次体检记录' });
  });

  it('is for roles that may export the audit: technician yes, auditor no', async () => {
    const technician = await h.addUser('technician');
    const auditor = await h.addUser('auditor');
    expect((await get('/audit/report?format=json', 'en-US', technician.token)).statusCode).toBe(200);
    const refused = await get('/audit/report?format=json', 'en-US', auditor.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-disposition']).toBeUndefined();
  });
});
