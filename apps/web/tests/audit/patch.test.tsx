import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PatchItem, PatchState } from '@rampart/contracts';
import { ok } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/*
 * The patch tab in jsdom against a mocked console API (the product's browser tests run without a
 * sandbox apt, so the real apt flow is covered by the agent and console tests instead).
 */

const item = (name: string, extra: Partial<PatchItem> = {}): PatchItem => ({
  name, arch: 'all', current_version: '1.0', new_version: '1.1', origin: 'Debian-Security:bookworm-security', level: 'important', urgency: null,
  description: `${name} library`, size: 2048, installed_size_kib: 8, release_date: '2026-12-01', status: 'waiting_update', progress: null, reason: null, ...extra,
});
const base: PatchState = {
  available: true, busy: null, check: { state: 'never', checked_at: null, error: null }, last_job: null, list: [], reboot_required: false, settings: { auto_update: false, time: '03:00' },
};

function open(getState: () => PatchState, handlers: Record<string, () => ReturnType<typeof ok>> = {}) {
  const api = signedInAs('admin', { handlers: { 'GET /audit/patch/status': () => ok(getState()), ...handlers } });
  renderApp('/audit/patch');
  return api;
}

describe('the patch tab', () => {
  it('checks (check → checking → again), lists levels, sizes and states, installs a selection after a confirmation', async () => {
    let state: PatchState = base;
    const api = open(() => state, {
      'POST /audit/patch/check': () => {
        state = { ...base, busy: 'check', check: { state: 'checking', checked_at: null, error: null } };
        return ok({ started: true, refused: null }, 'Patch check started');
      },
      'POST /audit/patch/install': () => ok({ started: true, refused: null }),
      'POST /audit/patch/settings': () => ok({ auto_update: true, time: '04:30' }),
    });
    expect((await screen.findByTestId('audit-patch-empty-text')).textContent).toContain('Check for patches');
    const button = screen.getByTestId('audit-patch-check');
    expect(button.textContent).toBe('Check for patches');
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('audit-patch-state').getAttribute('data-state')).toBe('checking'));
    expect(screen.getByTestId('audit-patch-busy').textContent).toBe('Execution in progress, please wait');

    state = {
      ...base, check: { state: 'finished', checked_at: Date.now(), error: null },
      list: [item('libssl3', { level: 'emergency', urgency: 'critical' }), item('curl', { status: 'downloading', progress: 40 }), item('vim', { level: 'optional', status: 'install_failed', reason: { key: 'audit_patch_install_failed', values: { error: 'dpkg error' } } })],
    };
    await waitFor(() => expect(screen.getByTestId('audit-patch-check').textContent).toBe('Check again'), { timeout: 3000 });
    const row = screen.getByTestId('audit-patch-row-libssl3');
    expect(row.textContent).toContain('Emergency');
    expect(row.textContent).toContain('2026-12-01');
    expect(row.textContent).toContain('libssl3 library');
    expect(screen.getByTestId('audit-patch-status-curl').textContent).toContain('Downloading');
    expect(screen.getByTestId('audit-patch-status-curl').textContent).toContain('40%');
    expect(screen.getByTestId('audit-patch-reason-vim').textContent).toBe('Install failed: dpkg error');

    fireEvent.click(within(screen.getByTestId('audit-patch-row-libssl3')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('audit-patch-install'));
    expect(api.callsTo('POST /audit/patch/install')).toHaveLength(0);
    fireEvent.click(await screen.findByTestId('audit-patch-install-confirm'));
    await waitFor(() => expect(api.callsTo('POST /audit/patch/install').map((c) => c.body)).toEqual([{ names: ['libssl3'] }]));

    fireEvent.change(screen.getByTestId('audit-patch-auto-time'), { target: { value: '04:30' } });
    fireEvent.click(screen.getByTestId('audit-patch-auto-switch'));
    fireEvent.click(screen.getByTestId('audit-patch-auto-save'));
    await waitFor(() => expect(api.callsTo('POST /audit/patch/settings').map((c) => c.body)).toEqual([{ auto_update: true, time: '04:30' }]));
  });

  it('reads in Chinese: levels, states, the reboot suggestion, install all', async () => {
    const state: PatchState = {
      ...base, check: { state: 'finished', checked_at: Date.now(), error: null }, reboot_required: true,
      list: [item('openssl'), item('bash', { status: 'install_finished', progress: 100 })],
    };
    const api = open(() => state, { 'POST /audit/patch/install': () => ok({ started: true, refused: null }) });
    await screen.findByTestId('audit-patch-row-openssl');
    await switchToChinese();
    await waitFor(() => expect(screen.getByTestId('audit-patch-check').textContent).toBe('重新检查'));
    expect(screen.getByTestId('audit-patch-row-openssl').textContent).toContain('重要');
    expect(screen.getByTestId('audit-patch-status-openssl').textContent).toBe('等待更新');
    expect(screen.getByTestId('audit-patch-status-bash').textContent).toContain('安装完成');
    expect(screen.getByTestId('audit-patch-reboot').textContent).toBe('已安装补丁：建议重启服务器，使全部更新生效。');
    fireEvent.click(screen.getByTestId('audit-patch-install-all'));
    fireEvent.click(await screen.findByTestId('audit-patch-install-confirm'));
    await waitFor(() => expect(api.callsTo('POST /audit/patch/install').map((c) => c.body)).toEqual([{ all: true }]));
  });
});
