import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ShortcutView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { type } from './helpers/antd.ts';
import { ok, refused, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const hourMs = 3_600_000;
const row = (patch: Partial<ShortcutView> = {}): ShortcutView => ({
  id: 1, name: 'Night pause', action: { operation: 'pause_protection', minutes: 30 }, enabled: true, expires_at: null, max_uses: 0, uses: 2,
  last_used_at: new Date(2026, 10, 1, 8, 0, 0).getTime(), last_used_ip: '198.51.100.7', created_at: 0, created_by: 'admin', status: 'active', ...patch,
});
const unblock = row({
  id: 2, name: 'Office', action: { operation: 'unblock_ip', ip: '203.0.113.9' }, max_uses: 1, uses: 1, status: 'used_up',
  last_used_at: null, last_used_ip: '', expires_at: new Date(2026, 11, 31, 23, 0, 0).getTime(),
});
const token = 'T'.repeat(43);

async function openTab(handlers: Record<string, Handler> = {}, role: 'admin' = 'admin') {
  const api = signedInAs(role, { handlers: { 'GET /system/shortcut': ok({ list: [row(), unblock], max: 50 }), ...handlers } });
  renderApp('/system/shortcut');
  await screen.findByTestId('sc-row-1');
  return api;
}
const text = (id: string) => screen.getByTestId(id).textContent;
const error = (path: string) => screen.queryByTestId(`sc-form-error-${path}`)?.textContent;

describe('shortcut tab', () => {
  it('lists the shortcuts with their operation, state, validity, uses and last run', async () => {
    await openTab();
    expect(text('sc-name-1')).toBe('Night pause');
    expect(text('sc-operation-1')).toBe('Pause protection · 30 minutes');
    expect(text('sc-status-1')).toBe('Active');
    expect(text('sc-uses-1')).toBe('2 / no limit');
    expect(text('sc-last-1')).toBe('2026-11-01 08:00:00 198.51.100.7');
    expect(text('sc-operation-2')).toBe('Unblock an IP · 203.0.113.9');
    expect(text('sc-status-2')).toBe('Used up');
    expect(text('sc-uses-2')).toBe('1 / 1');
    expect(text('sc-last-2')).toBe('Never');
    expect(text('sc-row-2')).toContain('2026-12-31 23:00:00');
    expect(text('sc-row-1')).toContain('No end');
    expect(text('sc-count')).toBe('2 / 50');
  });

  it('adds an unblock link: checks the address on the field first, then shows the new link once with a QR code', async () => {
    const api = await openTab({
      'POST /system/shortcut': (call) => ok({ shortcut: { ...unblock, id: 3, ...(call.body as object), status: 'active' }, link: `/shortcut/${token}` }, 'Shortcut created'),
    });
    fireEvent.click(screen.getByTestId('sc-add'));
    await screen.findByTestId('sc-form');
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(error('name')).toBe('Please enter a name for the shortcut'));
    type('sc-form-name', 'Office');
    await waitFor(() => expect(error('name')).toBeUndefined());
    fireEvent.click(screen.getByTestId('sc-op-unblock_ip'));
    type('sc-form-ip', '10.0.0.0/8');
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(error('action.ip')).toBe('Enter one IP address (IPv4 or IPv6)'));
    type('sc-form-hours', '0');
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(error('expires_at')).toBe('Enter a whole number of hours from 1 to 8760'));
    expect(api.callsTo('POST /system/shortcut')).toHaveLength(0);

    type('sc-form-ip', ' 203.0.113.9 ');
    type('sc-form-hours', '2');
    type('sc-form-max-uses', '1');
    const before = Date.now();
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(api.callsTo('POST /system/shortcut')).toHaveLength(1));
    const body = api.callsTo('POST /system/shortcut')[0]!.body as { expires_at: number };
    expect(body).toMatchObject({ name: 'Office', action: { operation: 'unblock_ip', ip: '203.0.113.9' }, enabled: true, max_uses: 1 });
    expect(body).not.toHaveProperty('id');
    expect(body.expires_at).toBeGreaterThanOrEqual(before + 2 * hourMs);
    expect(body.expires_at).toBeLessThan(before + 2 * hourMs + 60_000);
    expect(await screen.findByTestId('sc-link-modal')).toBeTruthy();
    expect(text('sc-link-url')).toBe(`${window.location.origin}/shortcut/${token}`);
    expect(screen.getByTestId('sc-link-modal').textContent).toContain('shown only now');
    expect(screen.getByTestId('sc-link-qr')).toBeTruthy();
    fireEvent.click(screen.getByTestId('sc-link-close'));
    await waitFor(() => expect(screen.queryByTestId('sc-link-modal')).toBeNull());
  });

  it('shows the server\'s refusal on its field', async () => {
    await openTab({ 'POST /system/shortcut': refused('The pause is a whole number of minutes from 1 to 525600', 'action.minutes') });
    fireEvent.click(screen.getByTestId('sc-add'));
    await screen.findByTestId('sc-form-name');
    type('sc-form-name', 'x');
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(error('action.minutes')).toBe('The pause is a whole number of minutes from 1 to 525600'));
  });

  it('edits without a new link and keeps the current end unless told otherwise', async () => {
    const api = await openTab({ 'POST /system/shortcut': (call) => ok({ shortcut: { ...unblock, ...(call.body as object) }, link: null }, 'Saved') });
    fireEvent.click(screen.getByTestId('sc-edit-2'));
    await screen.findByTestId('sc-form');
    expect((screen.getByTestId('sc-form-ip') as HTMLInputElement).value).toBe('203.0.113.9');
    expect(screen.getByTestId('sc-validity-keep').textContent).toContain('2026-12-31 23:00:00');
    type('sc-form-name', 'Office 2');
    fireEvent.click(screen.getByTestId('sc-form-save'));
    await waitFor(() => expect(api.callsTo('POST /system/shortcut')).toHaveLength(1));
    expect(api.callsTo('POST /system/shortcut')[0]!.body).toEqual({
      id: 2, name: 'Office 2', action: { operation: 'unblock_ip', ip: '203.0.113.9' }, enabled: true, expires_at: unblock.expires_at, max_uses: 1,
    });
    await waitFor(() => expect(screen.queryByTestId('sc-form')).toBeNull());
    expect(screen.queryByTestId('sc-link-modal')).toBeNull();
  });

  it('tests, re-issues (after a confirmation) and deletes (after a confirmation)', async () => {
    const api = await openTab({
      'POST /system/shortcut/test': ok({ ready: true }, 'Check passed'),
      'POST /system/shortcut/reissue': ok({ shortcut: row(), link: `/shortcut/${token}` }, 'New link'),
      'POST /system/shortcut/delete': ok({ removed: 1 }, 'Deleted'),
      'POST /system/shortcut/send': ok({ sent: 1, failed: 0 }, 'Sent'),
    });
    fireEvent.click(screen.getByTestId('sc-test-1'));
    await waitFor(() => expect(api.callsTo('POST /system/shortcut/test').map((c) => c.body)).toEqual([{ id: 1 }]));

    fireEvent.click(screen.getByTestId('sc-reissue-1'));
    expect(await screen.findByText('The current link of "Night pause" stops working at once.')).toBeTruthy();
    expect(api.callsTo('POST /system/shortcut/reissue')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('sc-reissue-confirm'));
    expect((await screen.findByTestId('sc-link-url')).textContent).toContain(`/shortcut/${token}`);
    expect(api.callsTo('POST /system/shortcut/reissue').map((c) => c.body)).toEqual([{ id: 1 }]);
    fireEvent.click(screen.getByTestId('sc-link-close'));

    fireEvent.click(screen.getByTestId('sc-send-1'));
    expect(await screen.findByText(/A new link for "Night pause" goes out by the notification methods/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('sc-send-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/shortcut/send').map((c) => c.body)).toEqual([{ id: 1, origin: window.location.origin }]));

    fireEvent.click(screen.getByTestId('sc-delete-2'));
    fireEvent.click(await screen.findByTestId('sc-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/shortcut/delete').map((c) => c.body)).toEqual([{ ids: [2] }]));
  });

  it('speaks Chinese', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    try {
      await openTab();
      expect(text('sc-operation-1')).toBe('暂停系统防护 · 30 分钟');
      expect(text('sc-status-2')).toBe('次数已用完');
      expect(text('sc-uses-1')).toBe('2 / 不限');
      expect(text('sc-add')).toContain('添加快捷操作');
    } finally {
      await act(() => i18next.changeLanguage('en-US'));
    }
  });
});
