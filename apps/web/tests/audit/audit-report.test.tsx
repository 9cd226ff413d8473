import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsOf, type Action, type AuditRun, type AuditStatus } from '@rampart/contracts';
import { file, ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { spyFeedback } from '../helpers/spyFeedback.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/* The system audit's "Export report" control against a mocked console (jsdom cannot download). */

const at = new Date(2026, 11, 6, 10).getTime();
const run = (id: number, extra: Partial<AuditRun> = {}): AuditRun => ({
  id, status: 'finished', account: 'admin', started_at: at, finished_at: at + 2000, duration_ms: 2000, score: 61,
  counts: { pass: 51, fail: 56, not_applicable: 13, error: 0 }, failed_by_level: { hint: 10, warning: 30, danger: 16 }, error: null, ...extra,
});
const status = (latest: AuditRun | null, running = false): AuditStatus => ({
  available: true, running, run: latest, progress: running ? { phase: 'facts', done: 0, total: 120, category: null } : null, reinforce: { running: false, done: 0, total: 0, results: [] },
});

function open(latest: AuditRun | null, handlers: Record<string, Handler> = {}, info = {}, running = false) {
  const api = signedInAs('admin', {
    info,
    handlers: {
      'GET /audit/status': ok(status(latest, running)),
      'GET /audit/results': ok({ run: latest?.status === 'finished' ? latest : null, total: 0, list: [] }),
      'GET /audit/history': ok({ total: 0, list: [] }),
      'GET /audit/report': file('<!doctype html><p>61</p>', 'rampart-audit-3-2026-12-06.html'),
      ...handlers,
    },
  });
  renderApp('/audit/system');
  return api;
}

const saved: string[] = [];
beforeEach(() => {
  saved.length = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});

/** The first render of the app is slow on a busy machine. */
const loaded = () => screen.findByTestId('audit-summary', {}, { timeout: 10_000 });
const enabled = (format: string) => !screen.getByTestId(`audit-report-${format}`).hasAttribute('disabled');

describe('the audit report export control', () => {
  it('downloads the finished run as HTML, PDF or JSON in the reader’s language, with the token', async () => {
    const api = open(run(3), { 'GET /audit/report': (call) => file('report', `rampart-audit-3-2026-12-06.${call.query.get('format')}`) });
    await loaded();
    expect(screen.getByTestId('audit-report-export').getAttribute('data-run')).toBe('3');
    expect(screen.getByTestId('audit-report-export').textContent).toContain('Export report');
    expect(['html', 'pdf', 'json'].map((f) => screen.getByTestId(`audit-report-${f}`).textContent)).toEqual(['HTML (printable)', 'PDF', 'JSON']);
    for (const format of ['pdf', 'html', 'json']) {
      fireEvent.click(screen.getByTestId(`audit-report-${format}`));
      await waitFor(() => expect(saved.at(-1)).toBe(`rampart-audit-3-2026-12-06.${format}`));
    }
    const calls = api.callsTo('GET /audit/report');
    expect(calls.map((c) => Object.fromEntries([...c.query].filter(([k]) => k !== 't')))).toEqual([
      { run_id: '3', format: 'pdf', lang: 'en' }, { run_id: '3', format: 'html', lang: 'en' }, { run_id: '3', format: 'json', lang: 'en' },
    ]);
    expect(calls[0]?.headers.Authorization).toBe('Bearer test-token');
  });

  it('is disabled without a finished run', async () => {
    open(run(4, { status: 'interrupted', score: null, counts: null, failed_by_level: null }));
    await screen.findByTestId('audit-interrupted', {}, { timeout: 10_000 });
    expect(['html', 'pdf', 'json'].some(enabled)).toBe(false);
  });

  it('is hidden from a role that may read the audit but not export it', async () => {
    const permissions = [...permissionsOf('admin').filter((p) => p.perm_id !== 'audit'), { perm_id: 'audit' as const, actions: ['query', 'get', 'edit'] as Action[] }];
    open(run(5), {}, { role: { id: 'admin', name: 'admin', permissions } });
    await loaded();
    expect(screen.queryByTestId('audit-report-export')).toBeNull();
  });

  it('reads in Chinese, asks for a Chinese report, and shows the server’s refusal', async () => {
    await switchToChinese();
    const api = open(run(6), { 'GET /audit/report': { body: { code: 2, msg: '服务器缺少中文字体', lang: 'zh-CN' } } });
    await loaded();
    // The app installs its own modals when it mounts: spy after that.
    const feedback = spyFeedback();
    expect(enabled('pdf')).toBe(true);
    expect(screen.getByTestId('audit-report-export').textContent).toContain('导出报告');
    expect(screen.getByTestId('audit-report-html').textContent).toBe('HTML（可打印）');
    fireEvent.click(screen.getByTestId('audit-report-pdf'));
    await waitFor(() => expect(feedback.error).toHaveBeenCalled());
    expect(JSON.stringify(feedback.error.mock.calls[0])).toContain('服务器缺少中文字体');
    expect(api.callsTo('GET /audit/report').at(-1)?.query.get('lang')).toBe('zh');
    expect(saved).toEqual([]);
  });
});
