import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { basicModules, defaultModuleFlags, type HomeWizardView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { homeIndexFixture } from './helpers/fixtures.ts';
import { ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const pending: HomeWizardView = { state: 'pending', client_ip: '203.0.113.7', address: 'untrusted' };
const text = (id: string) => screen.getByTestId(id).textContent ?? '';
const allOn = { ...defaultModuleFlags(), ...Object.fromEntries(basicModules.map((m) => [m, 1])) };

async function openDashboard(role: 'admin' | 'technician', view: HomeWizardView, handlers = {}) {
  const api = signedInAs(role, {
    handlers: {
      'GET /home/wizard': ok(view),
      'POST /home/wizard': (call: ApiCall) => ok({ state: (call.body as { state: string }).state }),
      'POST /home/wizard/trust': ok({ ip: view.client_ip, added: true, address: 'trusted' }, 'added'),
      'POST /module_switch': ok({ modules: allOn, switched: [...basicModules], not_switched: [] }),
      'GET /website/server/discover': ok({ sites: [] }),
      'GET /website/server': ok({ list: [], is_any_open: false }),
      ...handlers,
    },
  });
  renderApp('/dashboard');
  await screen.findByTestId('dashboard');
  return api;
}

describe('the quick configuration wizard', () => {
  it('is offered on the dashboard while pending and walks through its steps, whitelist first (zh-CN)', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    const api = await openDashboard('admin', pending);
    fireEvent.click(await screen.findByTestId('wizard-offer-start'));

    // Step 1: the caller's own address, explained; the call carries no address.
    expect(text('wizard-trust-ip')).toBe('面板看到的您的地址：203.0.113.7');
    expect(text('wizard-next')).toBe('跳过此步');
    fireEvent.click(screen.getByTestId('wizard-trust-add'));
    await waitFor(() => expect(text('wizard-trust-state')).toBe('您的地址已在超级白名单中，无需添加。'));
    expect(api.callsTo('POST /home/wizard/trust')[0]!.body).toBeUndefined();
    fireEvent.click(screen.getByTestId('wizard-next'));

    // Step 2: the existing "open all basic modules" call.
    fireEvent.click(await screen.findByTestId('wizard-modules-open'));
    await waitFor(() => expect(text('wizard-modules-result')).toContain('已开启：防火墙'));
    expect(api.callsTo('POST /module_switch')[0]!.body).toEqual({ module: 'basic', status: 1 });
    fireEvent.click(screen.getByTestId('wizard-next'));

    // Step 3: discovery finds nothing here and says so.
    fireEvent.click(await screen.findByTestId('wizard-sites-find'));
    expect(await screen.findByTestId('wizard-sites-none')).toBeTruthy();
    fireEvent.click(screen.getByTestId('wizard-next'));

    // Finish: on and off as the home index reads now, then "done" is kept.
    expect(await screen.findByTestId('wizard-finish')).toBeTruthy();
    expect(text('wizard-finish-trust')).toBe('您的地址 203.0.113.7 已在超级白名单中。');
    fireEvent.click(screen.getByTestId('wizard-done'));
    await waitFor(() => expect(api.callsTo('POST /home/wizard').map((c) => c.body)).toEqual([{ state: 'done' }]));
    await waitFor(() => expect(screen.queryByTestId('wizard-finish')).toBeNull());
  });

  it('can be skipped from the offer (en-US)', async () => {
    const api = await openDashboard('admin', pending);
    expect((await screen.findByTestId('wizard-offer')).textContent).toContain('Protect this server in three steps');
    fireEvent.click(screen.getByTestId('wizard-offer-skip'));
    await waitFor(() => expect(api.callsTo('POST /home/wizard').map((c) => c.body)).toEqual([{ state: 'skipped' }]));
  });

  it('once settled it is not offered, reopens from the home page, and closing it leaves "done" alone (en-US)', async () => {
    const api = await openDashboard('admin', { ...pending, state: 'done' });
    fireEvent.click(await screen.findByTestId('wizard-open'));
    expect(await screen.findByTestId('wizard-trust')).toBeTruthy();
    expect(screen.queryByTestId('wizard-offer')).toBeNull();
    fireEvent.click(screen.getByTestId('wizard-skip'));
    await waitFor(() => expect(screen.queryByTestId('wizard-trust')).toBeNull());
    expect(api.callsTo('POST /home/wizard')).toEqual([]);
  });

  it('tells a loopback caller nothing needs adding (en-US)', async () => {
    await openDashboard('admin', { ...pending, client_ip: '127.0.0.1', address: 'loopback' });
    fireEvent.click(await screen.findByTestId('wizard-offer-start'));
    expect(text('wizard-trust-state')).toBe('You are connected from this machine itself. Loopback is always reachable, so nothing needs to be added.');
    expect(screen.queryByTestId('wizard-trust-add')).toBeNull();
    expect(text('wizard-next')).toBe('Next');
  });

  it('a technician sees the step but not the add button', async () => {
    await openDashboard('technician', pending, { 'GET /home/index': ok(homeIndexFixture()) });
    fireEvent.click(await screen.findByTestId('wizard-offer-start'));
    expect(await screen.findByTestId('wizard-trust-no-permission')).toBeTruthy();
    expect(screen.queryByTestId('wizard-trust-add')).toBeNull();
  });
});

describe('the host performance chart on the dashboard', () => {
  it('draws the series of the chosen period, and says when there is no sample yet (en-US)', async () => {
    const point = { at: Date.UTC(2026, 0, 1, 10, 0), cpu: 12, memory: 40, load: 0.3, rx: 1000, tx: 2000, disk: 55 };
    const api = await openDashboard('admin', { ...pending, state: 'done' }, {
      'GET /home/performance': (call: ApiCall) => {
        const period = call.query.get('period');
        if (!period) return ok({ rx: 0, tx: 0, at: 0 });
        return ok({ period, step: period === '1h' ? 10 : 60, points: period === '1h' ? [point, { ...point, at: point.at + 10_000 }] : [] });
      },
    });
    await screen.findByTestId('dash-perf-chart', {}, { timeout: 5000 });
    expect(screen.getByTestId('dash-perf-chart').querySelector('svg')).toBeTruthy();
    fireEvent.click(screen.getByText('Last 24 hours'));
    expect(await screen.findByTestId('dash-perf-empty')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === '/home/performance').map((c) => c.query.get('period'))).toEqual(expect.arrayContaining(['1h', '24h']));
  });
});
