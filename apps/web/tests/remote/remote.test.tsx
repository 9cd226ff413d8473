import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultModuleFlags, type FirewallChange, type RemoteView } from '@rampart/contracts';
import { type } from '../helpers/antd.ts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

const view = (extra: Partial<RemoteView> = {}): RemoteView => ({
  enabled: true,
  enforced: true,
  access: { ips: ['10.9.0.0/16'], areas: [], windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }], notify_login: true },
  bruteforce: { enabled: true, attempts_per_hour: 10, block_minutes: 60, seconds: 3600 },
  sshd: { ok: true, ports: [22, 2222], password_authentication: true, permit_root_login: 'without-password', message: '' },
  utc_offset_minutes: 480,
  next_offset_change: null,
  warnings: [],
  computer_name_rule: { available: false, reason: 'remote_computer_name_windows_only' },
  ...extra,
});
const done: FirewallChange = { refused: null, probation: null, warnings: [], changed: 1 };

async function openRemote(handlers: Record<string, Handler> = {}, moduleOn = true) {
  const api = signedInAs('admin', {
    info: { module_list: { ...defaultModuleFlags(), remote: moduleOn ? 1 : 0, firewall: 1 } },
    handlers: { 'GET /remote/settings': ok(view()), 'GET /resource/area': ok({ list: [] }), 'POST /remote/access': ok(done, 'Saved'), 'POST /remote/bruteforce': ok({ ok: true }, 'Saved'), ...handlers },
  });
  renderApp('/remote/index');
  await screen.findByTestId('remote-access');
  return api;
}

describe('remote protection page', () => {
  it("shows sshd's port, the enforcement and the computer-name rule disabled with the reason", async () => {
    await openRemote();
    expect(screen.getByTestId('remote-port').textContent).toBe('22, 2222');
    expect(screen.getByTestId('remote-enforced').textContent).toBe('Enforced in the kernel');
    expect((screen.getByTestId('remote-computer-name') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('remote-computer-name-why').textContent).toContain('Windows Remote Desktop (RDP)');
  });

  it('when sshd -T fails now, shows the ports still guarded from the last reading and why', async () => {
    const failing = { ok: false, password_authentication: null, permit_root_login: null, message: 'Bad configuration option: NoSuchOption' };
    await openRemote({ 'GET /remote/settings': ok(view({ sshd: { ...failing, ports: [2222] } })) });
    expect(screen.getByTestId('remote-port').textContent).toBe('2222 (as last read; sshd -T now fails: Bad configuration option: NoSuchOption)');
  });

  it('says sshd cannot be read when it never could', async () => {
    await openRemote({ 'GET /remote/settings': ok(view({ sshd: { ok: false, ports: [], password_authentication: null, permit_root_login: null, message: 'cannot run sshd' } })) });
    expect(screen.getByTestId('remote-port').textContent).toBe('cannot be read: cannot run sshd');
  });

  it('saves the access rule as the contract body', async () => {
    const api = await openRemote();
    type('remote-ips', '10.9.0.0/16\n192.0.2.7');
    fireEvent.click(screen.getByTestId('remote-access-save'));
    await waitFor(() => expect(api.callsTo('POST /remote/access')).toHaveLength(1));
    expect(api.callsTo('POST /remote/access')[0]!.body).toEqual({
      ips: ['10.9.0.0/16', '192.0.2.7'],
      areas: [],
      windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }],
      notify_login: true,
    });
  });

  it('refuses a window whose end is not after its start, without calling the console', async () => {
    const api = await openRemote();
    type('remote-window-0-end', '08:00');
    fireEvent.click(screen.getByTestId('remote-access-save'));
    expect((await screen.findByTestId('remote-window-0-error')).textContent).toBe('The end time must be later than the start time');
    expect(api.callsTo('POST /remote/access')).toHaveLength(0);
  });

  it('warns, in Chinese too, when the module is on and nothing is authorized', async () => {
    await openRemote({ 'GET /remote/settings': ok(view({ access: { ips: [], areas: [], windows: [], notify_login: true } })) });
    expect(screen.getByTestId('remote-nothing-authorized').textContent).toContain('except the super whitelist');
    await switchToChinese();
    expect(screen.getByTestId('remote-nothing-authorized').textContent).toContain('除超级白名单外');
    expect(screen.getByTestId('remote-computer-name-why').textContent).toContain('Windows 远程桌面');
  });

  it('saves the brute-force limit per hour', async () => {
    const api = await openRemote();
    fireEvent.change(screen.getByTestId('remote-attempts'), { target: { value: '7' } });
    fireEvent.click(screen.getByTestId('remote-bruteforce-save'));
    await waitFor(() => expect(api.callsTo('POST /remote/bruteforce')).toHaveLength(1));
    expect(api.callsTo('POST /remote/bruteforce')[0]!.body).toEqual({ enabled: true, attempts_per_hour: 7, block_minutes: 60 });
  });
});
