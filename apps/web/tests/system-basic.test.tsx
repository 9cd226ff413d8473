import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultNtpSettings, type BasicView, type NtpView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { type } from './helpers/antd.ts';
import { ok, refused, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const basic: BasicView = { server_alias: 'web-01', temp_minutes: 720, protection: { mode: 'on', until: null, minutes_left: null, since: null, account: '' } };
const idle: NtpView['status'] = { state: 'idle', at: null, server: '', time: null, offset_ms: null, delay_ms: null, clock_set: false, error: '' };
const ntp: NtpView = { settings: { ...defaultNtpSettings, servers: ['ntp.example.com', '192.0.2.1:1123'] }, status: idle };

/** `readOnly`: a role that may read the system settings but not change them. */
async function openTab(handlers: Record<string, Handler> = {}, readOnly = false) {
  const info = readOnly ? { role: { id: 'admin' as const, name: 'Viewer', permissions: [{ perm_id: 'system' as const, actions: ['get' as const] }] } } : {};
  const api = signedInAs('admin', { info, handlers: { 'GET /system/basic': ok(basic), 'GET /system/basic/ntp': ok(ntp), ...handlers } });
  const app = renderApp('/system/basic');
  await screen.findByTestId('protection-card');
  await screen.findByTestId('ntp-card');
  return { api, app };
}

const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
const confirmDialog = () => screen.findByTestId('protection-disable-confirm');

afterEach(async () => {
  localStorage.removeItem('rampart.lang');
  await act(() => i18next.changeLanguage('en-US'));
});

describe('system basic tab: cards', () => {
  it('shows protection, alias and NTP cards above the log settings', async () => {
    await openTab();
    const page = screen.getByTestId('system-basic-page');
    const order = ['protection-card', 'alias-card', 'ntp-card', 'logset-card'].map((id) => within(page).getByTestId(id));
    for (let i = 1; i < order.length; i++) expect(order[i - 1]!.compareDocumentPosition(order[i]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('protection-state-on').textContent).toBe('Protected');
    expect(value('protection-minutes')).toBe('720');
    expect(value('alias-input')).toBe('web-01');
    expect(value('ntp-servers')).toBe('ntp.example.com\n192.0.2.1:1123');
    expect(value('ntp-interval')).toBe('60');
    expect(screen.getByTestId('ntp-state-idle').textContent).toBe('Not synchronized yet');
  });
});

describe('protection card', () => {
  it('disable temporarily asks first, then posts the minutes; the card shows the countdown', async () => {
    const paused = { mode: 'temp_off', until: Date.UTC(2026, 10, 22, 15, 0), minutes_left: 30, since: 1, account: 'admin' };
    let current: BasicView = basic;
    const { api } = await openTab({
      'GET /system/basic': () => ok(current),
      'POST /system/basic/protection': () => {
        current = { ...basic, protection: paused as BasicView['protection'] };
        return ok(paused, 'Protection is off for 30 minutes; it comes back by itself');
      },
    });
    type('protection-minutes', '30');
    fireEvent.click(screen.getByTestId('protection-disable'));
    expect((await screen.findAllByText('Disable protection temporarily?')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /system/basic/protection')).toHaveLength(0);
    fireEvent.click(await confirmDialog());
    await waitFor(() => expect(api.callsTo('POST /system/basic/protection')).toHaveLength(1));
    expect(api.callsTo('POST /system/basic/protection')[0]?.body).toEqual({ mode: 'temp_off', minutes: 30 });
    expect((await screen.findByTestId('protection-state-temp_off')).textContent).toContain('back on in 30 minutes');
    // On again.
    fireEvent.click(screen.getByTestId('protection-enable'));
    await waitFor(() => expect(api.callsTo('POST /system/basic/protection')).toHaveLength(2));
    expect(api.callsTo('POST /system/basic/protection')[1]?.body).toEqual({ mode: 'on' });
  });

  it('minutes 0 is refused on the field and nothing is sent; saving valid minutes posts alias and minutes', async () => {
    const { api } = await openTab({ 'POST /system/basic': ok({ ...basic, temp_minutes: 45 }, 'Saved') });
    type('protection-minutes', '0');
    fireEvent.click(screen.getByTestId('protection-disable'));
    await waitFor(() => expect(screen.getByTestId('protection-error-temp_minutes').textContent).toBe('Minutes is a whole number from 1 to 525600'));
    fireEvent.click(screen.getByTestId('protection-minutes-save'));
    expect(api.callsTo('POST /system/basic/protection')).toHaveLength(0);
    expect(api.callsTo('POST /system/basic')).toHaveLength(0);
    type('protection-minutes', '45');
    fireEvent.click(screen.getByTestId('protection-minutes-save'));
    await waitFor(() => expect(api.callsTo('POST /system/basic')).toHaveLength(1));
    expect(api.callsTo('POST /system/basic')[0]?.body).toEqual({ server_alias: 'web-01', temp_minutes: 45 });
  });

  it('says the protection service is not connected when the agent is away, and offers no action', async () => {
    await openTab({ 'GET /system/basic': ok({ ...basic, protection: null }) });
    expect(screen.getByTestId('protection-state-unknown').textContent).toBe('The protection service is not connected');
    expect(screen.queryByTestId('protection-disable')).toBeNull();
    expect(screen.queryByTestId('protection-enable')).toBeNull();
  });

  it('shows permanently off with only "turn on again"', async () => {
    await openTab({ 'GET /system/basic': ok({ ...basic, protection: { mode: 'off', until: null, minutes_left: null, since: 1, account: 'admin' } }) });
    expect(screen.getByTestId('protection-state-off').textContent).toBe('Permanently off (turn it on again by hand)');
    expect(screen.getByTestId('protection-enable')).toBeTruthy();
    expect(screen.queryByTestId('protection-disable')).toBeNull();
  });

  it('a role that may only read sees the state but cannot change it', async () => {
    await openTab({}, true);
    expect((screen.getByTestId('protection-disable') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('alias-save') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('server alias card', () => {
  it('saves the alias and reads the user info again (the title follows it)', async () => {
    const { api } = await openTab({ 'POST /system/basic': ok({ ...basic, server_alias: 'db-02' }, 'Saved') });
    const infoCalls = api.callsTo('GET /info').length;
    type('alias-input', 'db-02');
    fireEvent.click(screen.getByTestId('alias-save'));
    await waitFor(() => expect(api.callsTo('POST /system/basic')).toHaveLength(1));
    expect(api.callsTo('POST /system/basic')[0]?.body).toEqual({ server_alias: 'db-02', temp_minutes: 720 });
    await waitFor(() => expect(api.callsTo('GET /info').length).toBeGreaterThan(infoCalls));
  });

  it('a server refusal is shown on the field', async () => {
    await openTab({ 'POST /system/basic': refused('The server alias has at most 64 characters and no control characters', 'server_alias') });
    type('alias-input', 'fine');
    fireEvent.click(screen.getByTestId('alias-save'));
    expect((await screen.findByTestId('alias-error-server_alias')).textContent).toBe('The server alias has at most 64 characters and no control characters');
  });

  it('too long an alias is refused before sending', async () => {
    const { api } = await openTab();
    type('alias-input', 'x'.repeat(65));
    fireEvent.click(screen.getByTestId('alias-save'));
    expect((await screen.findByTestId('alias-error-server_alias')).textContent).toContain('at most 64 characters');
    expect(api.callsTo('POST /system/basic')).toHaveLength(0);
  });
});

describe('NTP card', () => {
  it('sync now: shows fetching while the call runs, then the time, offset and server', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const success: NtpView = {
      settings: { enabled: true, servers: ['127.0.0.1:1123'], interval_minutes: 5 },
      status: { state: 'success', at: Date.UTC(2026, 10, 22, 3, 0), server: '127.0.0.1:1123', time: Date.UTC(2026, 10, 22, 3, 0), offset_ms: 1.25, delay_ms: 0.5, clock_set: true, error: '' },
    };
    const { api } = await openTab({
      'POST /system/basic/ntp': async () => {
        await gate;
        return ok(success, 'Time synchronized from 127.0.0.1:1123');
      },
    });
    fireEvent.click(screen.getByTestId('ntp-enabled'));
    fireEvent.change(screen.getByTestId('ntp-servers'), { target: { value: '\n 127.0.0.1:1123 \n\n' } });
    type('ntp-interval', '5');
    fireEvent.click(screen.getByTestId('ntp-sync'));
    expect((await screen.findByTestId('ntp-state-fetching')).textContent).toBe('Fetching the time…');
    expect(api.callsTo('POST /system/basic/ntp')[0]?.body).toEqual({ settings: { enabled: true, servers: ['127.0.0.1:1123'], interval_minutes: 5 }, sync: true });
    release();
    expect((await screen.findByTestId('ntp-state-success')).textContent).toBe('Synchronized');
    expect(screen.getByTestId('ntp-server').textContent).toBe('Server: 127.0.0.1:1123');
    expect(screen.getByTestId('ntp-card').textContent).toContain('Clock offset: 1.25 ms');
  });

  it('a failed sync shows "Failed to fetch time from NTP server!" with the reason read back', async () => {
    let status = idle;
    await openTab({
      'GET /system/basic/ntp': () => ok({ ...ntp, status }),
      'POST /system/basic/ntp': () => {
        status = { ...idle, state: 'failure', at: 1, server: 'ntp.example.com', error: 'no answer from 192.0.2.1:123 within 3000 ms' };
        return { body: { code: 2, msg: 'Failed to fetch time from NTP server!', lang: 'en-US' } };
      },
    });
    fireEvent.click(screen.getByTestId('ntp-sync'));
    const failed = await screen.findByTestId('ntp-failed');
    expect(failed.textContent).toContain('Failed to fetch time from NTP server!');
    expect(failed.textContent).toContain('no answer from 192.0.2.1:123');
  });

  it('interval 0, a bad server (named by its line), 11 servers: refused before sending', async () => {
    const { api } = await openTab();
    type('ntp-interval', '0');
    fireEvent.change(screen.getByTestId('ntp-servers'), { target: { value: 'ntp.example.com\nbad host!' } });
    fireEvent.click(screen.getByTestId('ntp-save'));
    await waitFor(() => expect(screen.getByTestId('ntp-error-interval_minutes').textContent).toBe('The interval is a whole number of minutes from 1 to 10080'));
    expect(screen.getByTestId('ntp-error-servers').textContent).toBe('Line 2: Enter a valid NTP server (IP or domain name, optionally with :port)');
    fireEvent.change(screen.getByTestId('ntp-servers'), { target: { value: Array.from({ length: 11 }, (_, i) => `ntp${i}.example.com`).join('\n') } });
    type('ntp-interval', '60');
    fireEvent.click(screen.getByTestId('ntp-save'));
    await waitFor(() => expect(screen.getByTestId('ntp-error-servers').textContent).toBe('At most 10 NTP servers'));
    expect(api.callsTo('POST /system/basic/ntp')).toHaveLength(0);
  });

  it('in Chinese', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openTab();
    expect(screen.getByTestId('protection-state-on').textContent).toBe('防护中');
    expect(screen.getByTestId('ntp-card').textContent).toContain('立即同步');
    type('ntp-interval', '0');
    fireEvent.click(screen.getByTestId('ntp-save'));
    await waitFor(() => expect(screen.getByTestId('ntp-error-interval_minutes').textContent).toBe('同步间隔须为 1-10080 之间的整数分钟'));
  });
});
