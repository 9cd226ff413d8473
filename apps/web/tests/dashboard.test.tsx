import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18next } from '../src/i18n/index.ts';
import { reloadPage } from '../src/utils/reload.ts';
import { FakeWebSocket } from './helpers/fakeWebSocket.ts';
import { computeSystemStatus, defaultModuleFlags, modulesInBuild, type ModuleFlags, type ModuleKey, type SystemStatusInput } from '@rampart/contracts';
import { homeIndexFixture } from './helpers/fixtures.ts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

vi.mock('../src/utils/reload.ts', () => ({ reloadPage: vi.fn(), openAddress: vi.fn() }));

const text = (id: string) => screen.getByTestId(id).textContent ?? '';

async function openDashboard(handlers = {}) {
  const api = signedInAs('admin', { handlers });
  const view = renderApp('/dashboard');
  await screen.findByTestId('dashboard');
  return { api, view };
}

describe('dashboard figures', () => {
  it('shows the figures of GET /home/index', async () => {
    await openDashboard();
    expect(text('dash-status-headline')).toBe('Temporarily off, back on in 42 minutes');
    expect(text('dash-kernel')).toContain('Abnormal');
    expect(text('dash-kernel')).toContain('Debian GNU/Linux 12, kernel 6.1.0-18-amd64');
    expect(text('dash-kernel')).toContain('the agent is not running as root');
    expect(text('dash-kernel')).toContain('nftables (nft) is not installed');
    expect(text('dash-version')).toBe('0.1.0');
    expect(text('dash-expiry')).toBe('2027-01-31');
    expect(text('dash-virlib')).toBe('Not installed');
    expect(text('dash-memory')).toContain('4.0 GB / 16.0 GB');
    expect(text('dash-memory')).toContain('25%');
    expect(text('dash-cores')).toBe('8 cores');
    expect(text('dash-load')).toBe('0.50 / 1.25 / 2.00 (light)');
    expect(text('dash-disk-/')).toContain('25.0 GB / 100.0 GB');
    expect(text('dash-disk-/data')).toContain('1.5 TB / 2.0 TB');
    expect(text('dash-disk-/data')).toContain('75%');
    expect(text('dash-rx')).toBe('1.5 Mbps');
    expect(text('dash-tx')).toBe('2.5 Kbps');
  });

  it('says the protection service is not connected instead of showing numbers', async () => {
    await openDashboard({ 'GET /home/index': ok(homeIndexFixture({ agent: 'unreachable', host: null, rates: null })) });
    expect(screen.getByTestId('dash-not-connected')).toBeTruthy();
    expect(text('dash-protection')).toBe('The protection service is not connected');
    for (const id of ['dash-memory', 'dash-cores', 'dash-load', 'dash-rx', 'dash-tx']) expect(screen.queryByTestId(id)).toBeNull();
  });

  it('updates the rates from the websocket "rates" topic', async () => {
    await openDashboard();
    const socket = FakeWebSocket.latest()!;
    expect(socket.protocols).toEqual(['test-token']);
    act(() => socket.open());
    expect(socket.sent).toContainEqual({ act: 'sub', data: 'rates' });
    act(() => socket.push({ act: 'rates', data: { rx: 3_000_000, tx: 4000, at: 2000 } }));
    expect(text('dash-rx')).toBe('3.0 Mbps');
    expect(text('dash-tx')).toBe('4.0 Kbps');
  });

  it('polls GET /home/performance while the websocket is down, and stops once it is up', async () => {
    const { api } = await openDashboard({ 'GET /home/performance': ok({ rx: 8000, tx: 9_000_000_000, at: 5000 }) });
    await waitFor(() => expect(text('dash-rx')).toBe('8.0 Kbps'));
    expect(text('dash-tx')).toBe('9.0 Gbps');
    expect(api.callsTo('GET /home/performance').length).toBeGreaterThan(0);
    act(() => FakeWebSocket.latest()!.open());
    act(() => FakeWebSocket.latest()!.push({ act: 'rates', data: { rx: 1000, tx: 1000, at: 6000 } }));
    expect(text('dash-rx')).toBe('1.0 Kbps');
  });
});

describe('dashboard system status', () => {
  const on = (modules: ModuleKey[]): ModuleFlags => ({ ...defaultModuleFlags(), ...Object.fromEntries(modules.map((m) => [m, 1])) });
  const home = (modules: ModuleFlags, health: SystemStatusInput['health']) =>
    homeIndexFixture({ protection: { mode: 'on', minutes_left: null }, modules, system_status: computeSystemStatus({ modules, protection: 'on', agent: 'connected', health }) });
  const allOff = home(defaultModuleFlags(), {});
  const allOn = home(on([...modulesInBuild]), Object.fromEntries(modulesInBuild.map((m) => [m, { state: 'ok' as const }])));
  const oneFailing = home(on(['firewall', 'tamper', 'remote']), {
    firewall: { state: 'failing', reason: 'firewall_unavailable' },
    tamper: { state: 'partly', reason: 'guard_fanotify' },
    remote: { state: 'ok' },
  });
  const zh = async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
  };

  it('every module off: not protected, and lists them (en-US)', async () => {
    await openDashboard({ 'GET /home/index': ok(allOff) });
    expect(text('dash-status-headline')).toBe('Not protected');
    expect(text('dash-status-no-module')).toBe('Every module is off: nothing protects this server');
    expect(text('dash-status-off')).toBe('Off: Firewall, Trojan protection, Remote protection, User protection, Tamper protection, Process protection, Website protection, Cloud protection');
    expect(text('dash-protection')).not.toContain('Protected');
  });

  it('every module off: not protected, and lists them (zh-CN)', async () => {
    await zh();
    await openDashboard({ 'GET /home/index': ok(allOff) });
    expect(text('dash-status-headline')).toBe('未防护');
    expect(text('dash-status-no-module')).toBe('所有模块均未开启，服务器没有受到保护');
    expect(text('dash-status-off')).toBe('未开启：防火墙、木马防护、远程防护、用户防护、防篡改、进程防护、网站防护、云防护');
    expect(text('dash-protection')).not.toContain('防护中');
  });

  it('every module on and healthy: protected, nothing listed (both languages)', async () => {
    await openDashboard({ 'GET /home/index': ok(allOn) });
    expect(text('dash-protection')).toBe('Protected');
    for (const id of ['dash-status-off', 'dash-status-failing', 'dash-status-partly', 'dash-status-no-module']) expect(screen.queryByTestId(id)).toBeNull();
    await zh();
    await waitFor(() => expect(text('dash-protection')).toBe('防护中'));
  });

  it('one failing, one partly: partly protected and says which and why (en-US)', async () => {
    await openDashboard({ 'GET /home/index': ok(oneFailing) });
    expect(text('dash-status-headline')).toBe('Partly protected');
    expect(text('dash-status-failing')).toBe('On but not enforcing: Firewall (no root or no nftables, no rules in the kernel)');
    expect(text('dash-status-partly')).toBe('Partly enforced: Tamper protection (fanotify fallback, some operations are not denied)');
    expect(text('dash-status-off')).toBe('Off: Trojan protection, User protection, Process protection, Website protection, Cloud protection');
  });

  it('one failing, one partly: partly protected and says which and why (zh-CN)', async () => {
    await zh();
    await openDashboard({ 'GET /home/index': ok(oneFailing) });
    expect(text('dash-status-headline')).toBe('部分防护');
    expect(text('dash-status-failing')).toBe('已开启但未生效：防火墙（无 root 权限或未安装 nftables，规则未写入内核）');
    expect(text('dash-status-partly')).toBe('部分生效：防篡改（fanotify 降级模式，部分操作无法拦截）');
  });
});

describe('dashboard actions', () => {
  it('closing all basic modules asks first, then posts module "basic" status 0', async () => {
    const { api } = await openDashboard({ 'POST /module_switch': ok(null) });
    fireEvent.click(screen.getByTestId('close-basic'));
    expect((await screen.findAllByText(/Close every basic module/)).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /module_switch')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('close-basic-confirm'));
    await waitFor(() => expect(api.callsTo('POST /module_switch').map((c) => c.body)).toEqual([{ module: 'basic', status: 0 }]));
  });

  it('opening all basic modules is one click', async () => {
    const { api } = await openDashboard({ 'POST /module_switch': ok(null) });
    fireEvent.click(screen.getByTestId('open-basic'));
    await waitFor(() => expect(api.callsTo('POST /module_switch').map((c) => c.body)).toEqual([{ module: 'basic', status: 1 }]));
  });

  const partlyOpened = {
    modules: { firewall: 1, trojan: 0, remote: 1, account: 1, tamper: 1, process: 1, website: 0, cloud: 0 },
    switched: ['firewall', 'remote', 'account', 'tamper', 'process'],
    not_switched: [{ module: 'trojan', reason: 'not_in_build' }],
  };

  it('opening all basic modules says which it opened and which it could not, with why (en-US)', async () => {
    await openDashboard({
      'POST /module_switch': { body: { code: 1, msg: 'Turned on: Firewall. Not turned on: Trojan protection (not in this build yet)', data: partlyOpened, lang: 'en-US' } },
    });
    fireEvent.click(screen.getByTestId('open-basic'));
    await screen.findByTestId('open-basic-result');
    expect(text('open-basic-opened')).toBe('Turned on: Firewall, Remote protection, User protection, Tamper protection, Process protection');
    expect(text('open-basic-not-opened')).toBe('Not turned on: Trojan protection (not in this build yet)');
  });

  it('opening all basic modules says which it opened and which it could not, with why (zh-CN)', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openDashboard({ 'POST /module_switch': { body: { code: 1, msg: '', data: partlyOpened, lang: 'zh-CN' } } });
    fireEvent.click(screen.getByTestId('open-basic'));
    await screen.findByTestId('open-basic-result');
    expect(text('open-basic-opened')).toBe('已开启：防火墙、远程防护、用户防护、防篡改、进程防护');
    expect(text('open-basic-not-opened')).toBe('未能开启：木马防护（此版本暂未包含）');
  });

  it('when every basic module opened there is nothing it could not open', async () => {
    await openDashboard({ 'POST /module_switch': ok({ ...partlyOpened, switched: ['firewall', 'remote'], not_switched: [] }) });
    fireEvent.click(screen.getByTestId('open-basic'));
    await screen.findByTestId('open-basic-result');
    expect(text('open-basic-opened')).toBe('Turned on: Firewall, Remote protection');
    expect(screen.queryByTestId('open-basic-not-opened')).toBeNull();
  });

  it('restart software: confirm, POST /restart?t=1, "restarting…", poll /global, reload', async () => {
    const { api } = await openDashboard({ 'POST /restart': ok(null) });
    fireEvent.click(screen.getByTestId('restart-software'));
    fireEvent.click(await screen.findByTestId('power-confirm'));
    expect(await screen.findByTestId('restarting')).toBeTruthy();
    expect(api.callsTo('POST /restart').map((c) => c.query.get('t'))).toEqual(['1']);
    const globalCallsBefore = api.callsTo('GET /global').length;
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(api.callsTo('GET /global').length).toBeGreaterThan(globalCallsBefore);
  });
});
