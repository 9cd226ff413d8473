import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditResultRow, AuditRun, AuditStatus, ReinforceItem } from '@rampart/contracts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

const at = new Date(2025, 4, 6, 10).getTime();
const run = (id: number, extra: Partial<AuditRun> = {}): AuditRun => ({
  id, status: 'finished', account: 'admin', started_at: at, finished_at: at + 2000, duration_ms: 2000, score: 61,
  counts: { pass: 51, fail: 56, not_applicable: 13, error: 0 }, failed_by_level: { hint: 10, warning: 30, danger: 16 }, error: null, ...extra,
});
const idle = (latest: AuditRun | null): AuditStatus => ({ available: true, running: false, run: latest, progress: null, reinforce: { running: false, done: 0, total: 0, results: [] } });
const row: AuditResultRow = {
  id: 'ssh.permit_root_login', cis_section: '5.1.20', category: 'ssh', level: 'danger', outcome: 'fail', fixable: true,
  title: { 'en-US': 'Root cannot log in over SSH', 'zh-CN': '禁止 root 通过 SSH 登录' },
  advice: { 'en-US': 'Set PermitRootLogin no', 'zh-CN': '设置 PermitRootLogin no' },
  evidence: [{ file: '/etc/ssh/sshd_config', line: 2, found: 'PermitRootLogin yes', expected: 'PermitRootLogin no' }],
};
const item = (id: string, extra: Partial<ReinforceItem> = {}): ReinforceItem => ({
  id, category: 'pam', level: 'warning', title: { 'en-US': `Title ${id}`, 'zh-CN': `标题 ${id}` }, advice: { 'en-US': 'Advice', 'zh-CN': '建议' },
  applied: false, applied_at: null, effect: null, service: null, last: null, ...extra,
});

function open(path: string, handlers: Record<string, Handler>) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /audit/status': ok(idle(null)),
      'GET /audit/results': ok({ run: null, total: 0, list: [] }),
      'GET /audit/history': ok({ total: 0, list: [] }),
      'GET /audit/reinforce/items': ok({ list: [] }),
      ...handlers,
    },
  });
  renderApp(path);
  return api;
}

describe('the system audit tab', () => {
  it('goes start → auditing with progress → finished with the score, counts and findings; filters by level and outcome', async () => {
    let status: AuditStatus = idle(null);
    const api = open('/audit/system', {
      'GET /audit/status': () => ok(status),
      'POST /audit/start': () => {
        status = { ...idle(run(1, { status: 'running', score: null, counts: null, failed_by_level: null, finished_at: null, duration_ms: null })), running: true, progress: { phase: 'checks', done: 60, total: 120, category: 'files' } };
        return ok({ started: true, run_id: 1, refused: null }, 'Audit started');
      },
      'GET /audit/results': () => ok(status.running || !status.run ? { run: null, total: 0, list: [] } : { run: status.run, total: 1, list: [row] }),
      'GET /audit/history': () => ok({ total: status.run ? 1 : 0, list: status.run ? [status.run] : [] }),
    });
    const button = await screen.findByTestId('audit-start');
    expect(button.textContent).toBe('Start audit');
    expect(screen.getByTestId('audit-state').getAttribute('data-state')).toBe('start');
    fireEvent.click(button);
    await screen.findByTestId('audit-progress');
    expect(screen.getByTestId('audit-progress').textContent).toContain('Checking: File permissions (60 / 120)');
    expect(screen.getByTestId('audit-state').getAttribute('data-state')).toBe('auditing');

    status = idle(run(1));
    await waitFor(() => expect(screen.getByTestId('audit-state').getAttribute('data-state')).toBe('finished'), { timeout: 4000 });
    expect(screen.getByTestId('audit-start').textContent).toBe('Audit again');
    expect(screen.getByTestId('audit-score').textContent).toContain('61');
    expect(screen.getByTestId('audit-failed-danger').textContent).toBe('16');
    const found = await screen.findByTestId('audit-result-ssh.permit_root_login');
    for (const text of ['Danger', 'Root cannot log in over SSH', 'Set PermitRootLogin no', '/etc/ssh/sshd_config:2', 'PermitRootLogin yes → PermitRootLogin no', 'Can be reinforced']) expect(found.textContent).toContain(text);
    expect((await screen.findByTestId('audit-history-1')).textContent).toContain('61');
    // Failed checks are shown first; the filters ask the console again.
    expect(api.callsTo('GET /audit/results').at(-1)!.query.get('outcome')).toBe('fail');
    fireEvent.mouseDown(within(screen.getByTestId('audit-filter-level')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Danger'));
    await waitFor(() => expect(api.callsTo('GET /audit/results').at(-1)!.query.get('level')).toBe('danger'));
  });

  it('reads in Chinese', async () => {
    await switchToChinese();
    open('/audit/system', { 'GET /audit/status': ok(idle(run(1))), 'GET /audit/results': ok({ run: run(1), total: 1, list: [row] }) });
    const found = await screen.findByTestId('audit-result-ssh.permit_root_login');
    for (const text of ['危险', '禁止 root 通过 SSH 登录', '设置 PermitRootLogin no', '可加固']) expect(found.textContent).toContain(text);
    expect(screen.getByTestId('audit-start').textContent).toBe('重新体检');
  });
});

describe('the reinforcement tab', () => {
  it('nothing selected: the spec message; apply asks first and sends the selection; refusals show their reason', async () => {
    let status = idle(run(1));
    const api = open('/audit/system_reinforce', {
      'GET /audit/status': () => ok(status),
      'GET /audit/reinforce/items': ok({ list: [item('pam.pass_max_days'), item('ssh.password_authentication', { category: 'ssh' })] }),
      'POST /audit/reinforce/apply': () => {
        status = { ...idle(run(1)), reinforce: { running: false, done: 2, total: 2, results: [
          { checkId: 'pam.pass_max_days', status: 'applied', effect: 'none' },
          { checkId: 'ssh.password_authentication', status: 'refused', effect: 'none', reason: { key: 'audit_lockout_password_auth' } },
        ] } };
        return ok({ started: true, refused: null });
      },
    });
    fireEvent.click(await screen.findByTestId('audit-reinforce-apply'));
    expect(await screen.findByText('Select the items to reinforce')).toBeTruthy();
    expect(api.callsTo('POST /audit/reinforce/apply')).toHaveLength(0);

    await screen.findByTestId('audit-reinforce-row-pam.pass_max_days');
    fireEvent.click(screen.getByTestId('audit-reinforce-check-pam.pass_max_days'));
    fireEvent.click(screen.getByTestId('audit-reinforce-check-ssh.password_authentication'));
    fireEvent.click(screen.getByTestId('audit-reinforce-apply'));
    expect((await screen.findAllByText(/This changes 2 settings of the server/)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('audit-reinforce-apply-confirm'));
    await waitFor(() => expect(api.callsTo('POST /audit/reinforce/apply').map((c) => c.body)).toEqual([{ checkIds: ['pam.pass_max_days', 'ssh.password_authentication'] }]));
    const reason = await screen.findByTestId('audit-reinforce-reason-ssh.password_authentication');
    expect(reason.textContent).toMatch(/^Refused to turn SSH password login off/);
  });

  it('an applied item reverts after a confirmation; revert all asks too; a reboot is suggested where an item needs one', async () => {
    const api = open('/audit/system_reinforce', {
      'GET /audit/reinforce/items': ok({ list: [item('pam.pass_max_days', { applied: true, applied_at: at, effect: 'none' }), item('modules.usb_storage', { applied: true, applied_at: at, effect: 'reboot' })] }),
      'POST /audit/reinforce/revert': ok({ results: [] }, 'Reverted 1 reinforcement items'),
    });
    expect(await screen.findByTestId('audit-reinforce-reboot')).toBeTruthy();
    expect(screen.getByTestId('audit-reinforce-state-modules.usb_storage').textContent).toContain('Reboot suggested');
    fireEvent.click(screen.getByTestId('audit-reinforce-revert-pam.pass_max_days'));
    expect((await screen.findAllByText(/Puts back the files this item changed: Title pam.pass_max_days/)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('audit-reinforce-revert-confirm'));
    await waitFor(() => expect(api.callsTo('POST /audit/reinforce/revert').map((c) => c.body)).toEqual([{ checkIds: ['pam.pass_max_days'] }]));
    fireEvent.click(screen.getByTestId('audit-reinforce-revert-all'));
    expect((await screen.findAllByText(/all 2 applied items/)).length).toBeGreaterThan(0);
    // The first dialog may still be closing: the newest confirm button is the last one.
    fireEvent.click(screen.getAllByTestId('audit-reinforce-revert-confirm').at(-1)!);
    await waitFor(() => expect(api.callsTo('POST /audit/reinforce/revert').map((c) => c.body)).toEqual([{ checkIds: ['pam.pass_max_days'] }, { all: true }]));
  });
});
