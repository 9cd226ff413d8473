import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DynamicOverview } from '@rampart/contracts';
import { ok, type ApiCall, type Handler, type MockReply } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/*
 * The situational-awareness pages while the agent is down (the console answers its "not connected"
 * envelope, in the caller's language) and after it is back: the error is on the page with a retry,
 * and polling brings the figures back by themselves. Mocked console; the console has its own tests.
 */

const now = Date.parse('2026-12-06T12:00:00Z');
const overview: DynamicOverview = {
  at: now,
  counts: { today: 3, yesterday: 56, total: 99 },
  trend: [],
  report: [],
  areas: [],
  ips: [],
  latest: [],
  security: [],
  minutes: [],
  server_area: '',
};

/** The console's answers, as it gives them with the agent away and back (`state.up`). */
function consoleWithAgent(state: { up: boolean }): Record<string, Handler> {
  const agentDown = (call: ApiCall): MockReply => {
    const zh = call.headers['Accept-Language'] === 'zh-CN';
    return { body: { code: 2, msg: zh ? '防护服务未连接' : 'The protection service is not connected', lang: zh ? 'zh-CN' : 'en-US' } };
  };
  const when = (data: unknown): Handler => (call) => (state.up ? ok(data) : agentDown(call));
  return {
    'GET /dynamic/overview': when(overview),
    'GET /dynamic/connections': when({ total: 0, states: [], areas: [] }),
    'GET /dynamic/performance': when({ period: '1h', step: 10, points: [] }),
    'GET /dynamic/settings': when({ sound: false, location: '' }),
  };
}

/** Polling is quiet: the page says it once, no modal per failed call. */
const noModal = () => expect(document.querySelector('.ant-modal-confirm')).toBeNull();

describe('situational awareness while the agent is down', () => {
  it('the big screen shows the error on its dark screen in both languages, and recovers by itself', async () => {
    const state = { up: false };
    signedInAs('admin', { handlers: consoleWithAgent(state) });
    renderApp('/dynamic/style_1');
    const screenEl = await screen.findByTestId('dynamic-big-screen');
    const error = await within(screenEl).findByTestId('dynamic-load-error');
    expect(error.textContent).toContain('The situational-awareness figures could not be loaded');
    expect(within(error).getByTestId('dynamic-load-error-reason').textContent).toBe('The protection service is not connected');
    expect(screenEl.querySelector('.ant-spin')).toBeNull();
    noModal();

    await switchToChinese();
    expect(screen.getByTestId('dynamic-load-error').textContent).toContain('态势感知数据加载失败');
    fireEvent.click(screen.getByTestId('dynamic-retry'));
    await waitFor(() => expect(screen.getByTestId('dynamic-load-error-reason').textContent).toBe('防护服务未连接'));
    noModal();

    // The agent is back: the next poll (5 s after a failure) shows the figures, nobody clicks.
    state.up = true;
    expect((await within(screenEl).findByTestId('dynamic-count-yesterday', {}, { timeout: 8000 })).textContent).toContain('56');
    expect(screen.queryByTestId('dynamic-load-error')).toBeNull();
  }, 20_000);

  it('the dashboard shows the error with a retry that brings the figures back', async () => {
    const state = { up: false };
    const api = signedInAs('admin', { handlers: consoleWithAgent(state) });
    renderApp('/dynamic/index');
    expect((await screen.findByTestId('dynamic-load-error-reason')).textContent).toBe('The protection service is not connected');
    noModal();
    state.up = true;
    const asked = api.callsTo('GET /dynamic/overview').length;
    fireEvent.click(screen.getByTestId('dynamic-retry'));
    expect((await screen.findByTestId('dynamic-count-yesterday')).textContent).toContain('56');
    expect(api.callsTo('GET /dynamic/overview').length).toBeGreaterThan(asked);
    expect(screen.queryByTestId('dynamic-load-error')).toBeNull();
  });
});
