import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DynamicOverview } from '@rampart/contracts';
import { FakeWebSocket } from '../helpers/fakeWebSocket.ts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/* The situational-awareness pages against a mocked console (the console, agent and store have their own tests on real parts). */

const now = Date.parse('2026-12-06T12:00:00Z');
const overview: DynamicOverview = {
  at: now,
  counts: { today: 1234, yesterday: 56, total: 98765 },
  trend: Array.from({ length: 7 }, (_, i) => ({ day: `2026-12-0${i}`, count: i * 10 })),
  report: [{ module: 'firewall', kind: 'firewall.blocked', count: 900 }, { module: 'website', kind: 'website.attack', count: 334 }],
  areas: [{ area: 'US', count: 800 }, { area: 'internal', count: 34 }],
  ips: [{ ip: '8.8.8.8', area: 'US', count: 700 }, { ip: '10.0.0.9', area: 'internal', count: 34 }],
  latest: [{ id: 7, time: now - 1000, module: 'firewall', kind: 'firewall.blocked', ip: '8.8.8.8', area: 'US' }],
  security: [{ module: 'website', kind: 'website.challenge', count: 12 }],
  minutes: [],
  server_area: 'DE',
};
const handlers: Record<string, Handler> = {
  'GET /dynamic/overview': ok(overview),
  'GET /dynamic/connections': ok({ total: 5, states: [{ state: 'ESTABLISHED', count: 3 }, { state: 'LISTEN', count: 2 }], areas: [{ area: 'internal', count: 3 }] }),
  'GET /dynamic/performance': ok({ period: '1h', step: 10, points: [{ at: now, cpu: 12, memory: 40, load: 0.2, rx: 0, tx: 0, disk: 10 }] }),
  'GET /dynamic/settings': ok({ sound: false, location: '' }),
  'POST /dynamic/settings': ok({ sound: true, location: 'CN' }, 'Saved'),
};

async function openDynamic(path = '/dynamic/index') {
  const api = signedInAs('admin', { handlers });
  renderApp(path);
  await screen.findByTestId(path === '/dynamic/index' ? 'dynamic-page' : 'dynamic-big-screen');
  return api;
}

describe('situational awareness page', () => {
  it('shows the counts, report, sources, latest attacks, events, connections and charts in both languages', async () => {
    await openDynamic();
    expect(await screen.findByTestId('dynamic-count-today')).toBeTruthy();
    expect(screen.getByTestId('dynamic-count-today').textContent).toContain('1,234');
    expect(screen.getByTestId('dynamic-count-total').textContent).toContain('98,765');
    expect(within(screen.getByTestId('dynamic-report')).getByText('Firewall block')).toBeTruthy();
    expect(within(screen.getByTestId('dynamic-ips')).getByText('United States')).toBeTruthy();
    expect(within(screen.getByTestId('dynamic-ips')).getByText('Internal')).toBeTruthy();
    expect(within(screen.getByTestId('dynamic-security')).getByText('Human verification')).toBeTruthy();
    expect(within(screen.getByTestId('dynamic-connections')).getByText('ESTABLISHED')).toBeTruthy();
    expect(screen.getByTestId('dynamic-map').textContent).toContain('Germany');
    // ECharts draws as SVG once its chunk has loaded.
    await waitFor(() => expect(screen.getByTestId('dynamic-trend-chart').querySelector('svg')).toBeTruthy(), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('dynamic-map-chart').querySelector('svg path')).toBeTruthy(), { timeout: 10_000 });
    await switchToChinese();
    expect(screen.getByTestId('dynamic-count-today').textContent).toContain('今日攻击');
    expect(within(screen.getByTestId('dynamic-report')).getByText('防火墙拦截')).toBeTruthy();
    expect(within(screen.getByTestId('dynamic-ips')).getByText('内网')).toBeTruthy();
  }, 30_000);

  it('adds a pushed block to the latest attacks and today\'s count at once', async () => {
    await openDynamic();
    const socket = FakeWebSocket.latest()!;
    act(() => socket.open());
    await waitFor(() => expect(socket.sent).toContainEqual({ act: 'sub', data: 'attack' }));
    act(() => socket.push({ act: 'attack', data: { list: [{ id: 8, time: now, module: 'website', kind: 'website.attack', ip: '1.1.1.1', area: 'AU' }] } }));
    await waitFor(() => expect(screen.getAllByTestId('dynamic-latest-item')).toHaveLength(2));
    expect(screen.getAllByTestId('dynamic-latest-item')[0]!.textContent).toContain('1.1.1.1');
    expect(screen.getByTestId('dynamic-count-today').textContent).toContain('1,235');
  });

  it('saves the attack sound and the server location as the contract body', async () => {
    const api = await openDynamic();
    fireEvent.click(screen.getByTestId('dynamic-sound'));
    fireEvent.change(screen.getByTestId('dynamic-location'), { target: { value: 'cn' } });
    fireEvent.click(screen.getByTestId('dynamic-settings-save'));
    await waitFor(() => expect(api.callsTo('POST /dynamic/settings')[0]?.body).toEqual({ settings: { sound: true, location: 'CN' } }));
  });

  it('the big screen shows the same figures, dark and over the whole window', async () => {
    await openDynamic('/dynamic/style_1');
    const screenEl = screen.getByTestId('dynamic-big-screen');
    expect(screenEl.style.position).toBe('fixed');
    expect((await within(screenEl).findByTestId('dynamic-count-yesterday')).textContent).toContain('56');
  });
});
