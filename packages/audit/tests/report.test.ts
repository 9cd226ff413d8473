import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, describe, expect, it } from 'vitest';
import { auditReportSchema, type AuditResultRow, type AuditRun, type Language, type ReinforceItem } from '@rampart/contracts';
import { buildAuditReport, describeChecks, finishedRun, renderReportHtml, renderReportPdf, reportFileName, ReportFontMissingError } from '../src/index.ts';

/*
 * The audit report's builder and renderers on a run made of the real catalogue's checks. Evidence
 * holds what a hostile config file could put there; the HTML must show it as text. The PDF's text
 * is read back with poppler's pdftotext (scripts/setup.sh installs poppler-utils for the tests).
 */

const catalogue = new Map(describeChecks().map((c) => [c.id, c]));
const hostile = '<script>alert(1)</script><img src=x onerror="fetch(\'//evil\')">';

function row(id: string, outcome: AuditResultRow['outcome'], evidence: AuditResultRow['evidence'] = []): AuditResultRow {
  const c = catalogue.get(id);
  if (!c) throw new Error(`no check ${id}`);
  return { id, cis_section: c.cisSection, category: c.category, level: c.level, outcome, fixable: c.fixable && outcome === 'fail', title: c.title, advice: c.advice, evidence };
}

const ids = [...catalogue.values()];
const hint = ids.find((c) => c.level === 'hint')!;
const warning = ids.find((c) => c.level === 'warning')!;
const results: AuditResultRow[] = [
  row(hint.id, 'fail'),
  row(warning.id, 'pass'),
  row('ssh.permit_root_login_password', 'fail', [{ file: '/etc/ssh/sshd_config', line: 3, found: hostile, expected: 'prohibit-password' }]),
  row('accounts.uid0_only_root', 'error', [{ note: 'cannot read /etc/passwd & <b>shadow</b>' }]),
  row('ssh.permit_empty_passwords', 'not_applicable'),
];
const run: AuditRun = {
  id: 7, status: 'finished', account: 'admin<x>', started_at: Date.UTC(2026, 11, 6, 8, 0, 0), finished_at: Date.UTC(2026, 11, 6, 8, 0, 42),
  duration_ms: 42_300, score: 61, counts: { pass: 1, fail: 2, not_applicable: 1, error: 1 }, failed_by_level: { hint: 1, warning: 0, danger: 1 }, error: null,
};
const permit = catalogue.get('ssh.permit_root_login_password')!;
const reinforce: ReinforceItem[] = [
  { id: permit.id, category: 'ssh', level: 'danger', title: permit.title, advice: permit.advice, applied: true, applied_at: Date.UTC(2026, 11, 6, 9, 0, 0), effect: 'reload', service: 'ssh', last: { checkId: permit.id, status: 'applied', effect: 'reload', service: 'ssh' } },
  { id: hint.id, category: hint.category, level: 'hint', title: hint.title, advice: hint.advice, applied: false, applied_at: null, effect: null, service: null, last: null },
];
const build = (language: Language) => buildAuditReport({ run: finishedRun(run)!, results, reinforce, language, host: 'web-01', now: Date.UTC(2026, 11, 6, 10, 0, 0) });

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-report-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'r.pdf'), pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
}

describe('the audit report document', () => {
  it('is the JSON schema’s shape, in the reader’s language, worst findings first, with what was fixed', () => {
    const en = auditReportSchema.parse(build('en-US'));
    expect(en).toMatchObject({ format: 'rampart-audit-report', version: 1, language: 'en-US', host: 'web-01', run: { id: 7, score: 61 } });
    expect(en.sections.map((s) => s.id)).toEqual(['failed', 'reinforced', 'not-run', 'passed', 'not-applicable']);
    const failed = en.sections[0]!;
    if (failed.kind !== 'findings') throw new Error('findings first');
    expect(failed.findings.map((f) => [f.id, f.level, f.fixed])).toEqual([['ssh.permit_root_login_password', 'danger', true], [hint.id, 'hint', false]]);
    expect(failed.findings[0]).toMatchObject({ title: permit.title['en-US'], advice: permit.advice['en-US'], evidence: [{ found: hostile }] });
    expect(en.sections[1]).toMatchObject({ kind: 'table', rows: [{ title: permit.title['en-US'], effect: 'Service reloaded', service: 'ssh' }] });
    expect(en.reinforced).toEqual([{ id: permit.id, title: permit.title['en-US'], applied_at: Date.UTC(2026, 11, 6, 9, 0, 0), effect: 'reload', service: 'ssh' }]);
    expect(en.sections[3]).toMatchObject({ rows: [{ id: warning.id, title: warning.title['en-US'] }] });

    const zh = build('zh-CN');
    expect(zh.title).toBe('Rampart 安全体检报告');
    expect(zh.sections.map((s) => s.title)).toEqual(['发现的问题', '已修复（加固）', '无法检查的项目', '已通过的检查项', '不适用的检查项']);
    expect(zh.sections[0]).toMatchObject({ findings: [{ title: permit.title['zh-CN'] }, { title: hint.title['zh-CN'] }] });
  });

  it('is made only of a finished run', () => {
    expect(finishedRun({ ...run, status: 'running', finished_at: null, score: null })).toBeNull();
    expect(finishedRun({ ...run, status: 'interrupted' })).toBeNull();
    expect(finishedRun(null)).toBeNull();
  });

  it('names its file with digits, letters and dashes only', () => {
    expect(reportFileName(7, run.finished_at!, 'pdf')).toMatch(/^rampart-audit-7-\d{4}-\d{2}-\d{2}\.pdf$/);
  });
});

describe('the HTML report', () => {
  const page = renderReportHtml(build('en-US'));
  const dom = new JSDOM(page);
  const doc = dom.window.document;

  it('shows hostile evidence as text: no element, attribute or script comes from it', () => {
    expect(doc.querySelectorAll('script, img, iframe, object, embed, link, base').length).toBe(0);
    expect([...doc.querySelectorAll('*')].flatMap((e) => e.getAttributeNames()).filter((a) => a.startsWith('on'))).toEqual([]);
    expect(doc.body.textContent).toContain(hostile);
    expect(doc.body.textContent).toContain('cannot read /etc/passwd & <b>shadow</b>');
    expect(doc.body.textContent).toContain('admin<x>');
  });

  it('is self-contained and printable: inline CSS, nothing to fetch, a page per section', () => {
    expect(page).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:|\/\/)|url\(|@import/i);
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const css = doc.querySelector('style')?.textContent ?? '';
    expect(css.slice(css.indexOf('@media print'))).toContain('section{break-before:page}');
    expect([...doc.querySelectorAll('section')].map((s) => s.id)).toEqual(['failed', 'reinforced', 'not-run', 'passed', 'not-applicable']);
  });

  it('carries the score, every finding with its advice and evidence, and the fixes, in the reader’s language', () => {
    expect(doc.querySelector('.score')?.getAttribute('data-score')).toBe('61');
    const findings = [...doc.querySelectorAll('#failed .finding')];
    expect(findings.map((f) => f.id)).toEqual(['check-ssh.permit_root_login_password', `check-${hint.id}`]);
    expect(findings[0]?.textContent).toContain(permit.advice['en-US']);
    expect(findings[0]?.textContent).toContain('Fixed by reinforcement');
    expect(findings[0]?.querySelector('.evidence')?.textContent).toContain('/etc/ssh/sshd_config line 3');
    expect(doc.querySelector('#reinforced td')?.textContent).toBe(permit.title['en-US']);
    expect(doc.documentElement.lang).toBe('en-US');

    const zh = new JSDOM(renderReportHtml(build('zh-CN'))).window.document;
    expect(zh.documentElement.lang).toBe('zh-CN');
    expect(zh.querySelector('h1')?.textContent).toBe('Rampart 安全体检报告');
    expect(zh.querySelector('#failed .finding h3')?.textContent).toContain(permit.title['zh-CN']);
    expect(zh.querySelector('#failed .finding')?.textContent).toContain('已通过加固修复');
  });
});

describe('the PDF report', () => {
  it('has the score and the findings as text, in Chinese and in English', async () => {
    const zh = await renderReportPdf(build('zh-CN'));
    expect(zh.subarray(0, 5).toString()).toBe('%PDF-');
    const zhText = pdfText(zh).replace(/\s+/g, '');
    expect(zhText).toContain('得分:61');
    expect(zhText).toContain(permit.title['zh-CN'].replace(/\s+/g, ''));
    expect(zhText).toContain('已修复（加固）');

    const enText = pdfText(await renderReportPdf(build('en-US'))).replace(/\s+/g, ' ');
    expect(enText).toContain('Score: 61');
    expect(enText).toContain(permit.title['en-US']);
  });

  it('refuses Chinese without a CJK font rather than draw boxes; English falls back to Helvetica', async () => {
    const none = [{ path: '/nonexistent/font.ttc', family: 'X' }];
    await expect(renderReportPdf(build('zh-CN'), { fonts: none })).rejects.toBeInstanceOf(ReportFontMissingError);
    const text = pdfText(await renderReportPdf(build('en-US'), { fonts: none }));
    expect(text).toContain('Score: 61');
    expect(text).toContain(permit.title['en-US']);
  });
});
