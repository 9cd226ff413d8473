import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DynamicOverview } from '@rampart/contracts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/* The attack map's World / China switch against a mocked console (the areas' origin, the agent's geo-IP lookup, has its own test). */

const now = Date.parse('2026-12-06T12:00:00Z');
const overview: DynamicOverview = {
  at: now,
  counts: { today: 30, yesterday: 0, total: 30 },
  trend: [],
  report: [],
  areas: [{ area: 'CN-GD', count: 12 }, { area: 'US', count: 7 }, { area: 'CN-BJ', count: 5 }, { area: 'CN', count: 2 }, { area: 'internal', count: 4 }],
  ips: [{ ip: '198.51.100.9', area: 'CN-GD', count: 12 }],
  latest: [],
  security: [],
  minutes: [],
  server_area: 'CN-SH',
};
const handlers: Record<string, Handler> = {
  'GET /dynamic/overview': ok(overview),
  'GET /dynamic/connections': ok({ total: 0, states: [], areas: [] }),
  'GET /dynamic/performance': ok({ period: '1h', step: 10, points: [] }),
  'GET /dynamic/settings': ok({ sound: false, location: '' }),
};

const selected = (panel: HTMLElement) => panel.querySelector('.ant-segmented-item-selected')?.textContent;

async function openMap(path = '/dynamic/index') {
  signedInAs('admin', { handlers });
  renderApp(path);
  return screen.findByTestId('dynamic-map');
}

describe('attack map: World / China', () => {
  it('starts on the world map, switches to China with provinces and the sources outside China, and remembers the choice', async () => {
    let panel = await openMap();
    expect(selected(panel)).toBe('World');
    expect(screen.queryByTestId('dynamic-map-outside')).toBeNull();
    // Provinces are named as such wherever an area is shown.
    expect(panel.textContent).toContain('Shanghai');
    expect(within(screen.getByTestId('dynamic-ips')).getByText('Guangdong')).toBeTruthy();

    fireEvent.click(within(panel).getByText('China'));
    await waitFor(() => expect(screen.getByTestId('dynamic-china-map-chart').querySelector('svg path')).toBeTruthy(), { timeout: 10_000 });
    expect(screen.queryByTestId('dynamic-map-chart')).toBeNull();
    // US 7 + internal 4 are on no China map; CN without a province is counted apart.
    expect(screen.getByTestId('dynamic-map-outside').textContent).toBe('Outside China: 11 · China, province unknown: 2');
    expect(localStorage.getItem('rampart.dynamic.map')).toBe('china');
    await switchToChinese();
    expect(screen.getByTestId('dynamic-map-outside').textContent).toBe('境外：11 · 中国（省份未知）：2');

    // The big screen (and any later visit) opens on the view chosen last.
    cleanup();
    panel = await openMap('/dynamic/style_1');
    expect(selected(panel)).toBe('中国');
    expect(screen.getByTestId('dynamic-map-outside').textContent).toContain('11');
    fireEvent.click(within(panel).getByText('世界'));
    expect(selected(panel)).toBe('世界');
    expect(screen.queryByTestId('dynamic-map-outside')).toBeNull();
    expect(localStorage.getItem('rampart.dynamic.map')).toBe('world');
  }, 40_000);
});
