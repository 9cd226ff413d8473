import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalSaveResult, PortalView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { openAddress } from '../src/utils/reload.ts';
import type * as PortalRestart from '../src/pages/system/portalRestart.ts';
import { type } from './helpers/antd.ts';
import { ok, refused } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { spyFeedback } from './helpers/spyFeedback.ts';

vi.mock('../src/utils/reload.ts', () => ({ reloadPage: vi.fn(), openAddress: vi.fn() }));

/** The probe answers as the test says; polling runs on fake timers. */
const probe = vi.hoisted(() => ({ up: false, calls: 0 }));
vi.mock('../src/pages/system/portalRestart.ts', async (original) => {
  const real = await original<typeof PortalRestart>();
  return {
    ...real,
    waitForPanel: (url: string, token: string | null, onTry: (n: number) => void, _p: unknown, cancelled: () => boolean) =>
      real.waitForPanel(url, token, onTry, async () => {
        probe.calls++;
        return probe.up;
      }, cancelled),
  };
});

const view: PortalView = {
  port: 6688, safe_entry: '', domain: '', https: { enabled: false, cert: '', has_key: false, info: null },
  authorized: { enabled: false, ips: [], areas: [] }, login_notice: false, login_check_mode: 'off',
  login_error_count: 5, session_timeout: 120, address: 'http://127.0.0.1:6688/', client_ip: '192.0.2.7',
};

const saved = (restart: PortalSaveResult['restart'] = null): PortalSaveResult => ({ saved: true, warnings: [], restart, view });

async function open(handlers = {}, lang: 'en-US' | 'zh-CN' = 'en-US') {
  const api = signedInAs('admin', { handlers: { 'GET /system/portal': ok(view), 'POST /system/portal': ok(saved(), 'Saved'), ...handlers } });
  await i18next.changeLanguage(lang);
  renderApp('/system/portal');
  await screen.findByTestId('portal-form');
  return api;
}

const save = () => fireEvent.click(screen.getByTestId('portal-save'));
const error = (path: string) => screen.queryByTestId(`portal-error-${path}`)?.textContent;

beforeEach(() => {
  probe.up = false;
  probe.calls = 0;
  vi.mocked(openAddress).mockClear();
});
afterEach(async () => {
  vi.useRealTimers();
  await i18next.changeLanguage('en-US');
});

describe('portal tab', () => {
  it('shows the stored settings and the caller\'s address', async () => {
    await open();
    expect(screen.getByTestId('portal-address').textContent).toContain('http://127.0.0.1:6688/');
    expect((screen.getByTestId('portal-port') as HTMLInputElement).value).toBe('6688');
    expect((screen.getByTestId('portal-error-count') as HTMLInputElement).value).toBe('5');
    expect(screen.getByTestId('portal-card').textContent).toContain('192.0.2.7');
    expect(screen.getByTestId('portal-cert-info').textContent).toContain('No certificate uploaded');
  });

  it('sends the whole form, IPs one per line', async () => {
    const api = await open();
    type('portal-entry', '/door-123456');
    type('portal-domain', 'panel.example.com');
    fireEvent.click(screen.getByTestId('portal-authorized'));
    fireEvent.change(screen.getByTestId('portal-ips'), { target: { value: '192.0.2.7\n\n 198.51.100.0/24 \n' } });
    fireEvent.click(screen.getByTestId('portal-check-strict'));
    type('portal-error-count', '0');
    type('portal-session-timeout', '0');
    fireEvent.click(screen.getByTestId('portal-login-notice'));
    save();
    await waitFor(() => expect(api.callsTo('POST /system/portal')).toHaveLength(1));
    expect(api.callsTo('POST /system/portal')[0]!.body).toEqual({
      port: 6688, safe_entry: '/door-123456', domain: 'panel.example.com', https: { enabled: false, cert: '', key: '' },
      authorized: { enabled: true, ips: ['192.0.2.7', '198.51.100.0/24'], areas: [] }, login_notice: true, login_check_mode: 'strict',
      login_error_count: 0, session_timeout: 0, confirm: false,
    });
  });

  it('bad input is marked on its field and nothing is sent; a bad IP names its line', async () => {
    const api = await open();
    type('portal-port', '80');
    type('portal-entry', 'ab');
    fireEvent.change(screen.getByTestId('portal-ips'), { target: { value: '192.0.2.1\nnonsense' } });
    save();
    await waitFor(() => expect(error('port')).toMatch(/below 1024/));
    expect(error('safe_entry')).toBe('The safe entry is 6 to 32 letters, digits, underscores or hyphens');
    expect(error('authorized.ips')).toMatch(/^Line 2: Enter a valid IP/);
    expect(api.callsTo('POST /system/portal')).toHaveLength(0);
  });

  it('a refused key is shown on the key field (in Chinese too)', async () => {
    await open({ 'POST /system/portal': refused('私钥与证书不匹配，请上传该证书对应的私钥', 'https.key') }, 'zh-CN');
    fireEvent.change(screen.getByTestId('portal-cert'), { target: { value: '-----BEGIN CERTIFICATE-----' } });
    save();
    await waitFor(() => expect(error('https.key')).toBe('私钥与证书不匹配，请上传该证书对应的私钥'));
    expect(screen.getByTestId('portal-save').textContent).toMatch(/保\s*存/);
  });

  it('warnings are shown for confirmation; confirming sends again with confirm: true', async () => {
    let calls = 0;
    const api = await open({
      'POST /system/portal': () => (++calls === 1
        ? { body: { code: 1, msg: 'Please confirm', data: { saved: false, warnings: [{ key: 'portal_warn_entry_cancel', msg: 'Without a safe entry…' }], restart: null, view: null } } }
        : ok(saved(), 'Saved')),
    });
    save();
    expect((await screen.findByTestId('portal-warning-portal_warn_entry_cancel')).textContent).toBe('Without a safe entry…');
    fireEvent.click(await screen.findByText('Save anyway'));
    await waitFor(() => expect(api.callsTo('POST /system/portal')).toHaveLength(2));
    expect((api.callsTo('POST /system/portal')[1]!.body as { confirm: boolean }).confirm).toBe(true);
  });

  it('after a restart it polls the new address and goes there once it answers', async () => {
    await open({ 'POST /system/portal': ok(saved({ target: 'http://127.0.0.1:7001/', probe: 'ws://127.0.0.1:7001/ws' })) });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    type('portal-port', '7001');
    save();
    await screen.findByTestId('portal-restart');
    await act(() => vi.advanceTimersByTimeAsync(2_100));
    expect(screen.getByTestId('portal-restart-waiting').textContent).toContain('(2/20)');
    probe.up = true;
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await waitFor(() => expect(openAddress).toHaveBeenCalledWith('http://127.0.0.1:7001/'));
    expect(probe.calls).toBe(3);
  });

  it('when the new address never answers (20 tries) it says to press F5 and goes there anyway', async () => {
    await open({ 'POST /system/portal': ok(saved({ target: 'https://panel.example.com:7002/door', probe: 'wss://panel.example.com:7002/ws' })) }, 'zh-CN');
    spyFeedback();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    save();
    await screen.findByTestId('portal-restart');
    await act(() => vi.advanceTimersByTimeAsync(20_500));
    expect(probe.calls).toBe(20);
    expect(screen.getByTestId('portal-restart-failed').textContent).toContain('请按 F5 刷新');
    expect(openAddress).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2_100));
    expect(openAddress).toHaveBeenCalledWith('https://panel.example.com:7002/door');
  });
});
