import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { switchLanguage } from '../src/components/LanguageSwitch.tsx';
import { reloadPage } from '../src/utils/reload.ts';
import { FakeWebSocket } from './helpers/fakeWebSocket.ts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

vi.mock('../src/utils/reload.ts', () => ({ reloadPage: vi.fn(), openAddress: vi.fn() }));

describe('websocket chat', () => {
  it('shows an incoming chat message as an info notification', async () => {
    signedInAs('admin');
    renderApp('/dashboard');
    await screen.findByTestId('dashboard');
    const ws = FakeWebSocket.latest()!;
    act(() => ws.open());
    expect(ws.sent).toContainEqual({ act: 'sub', data: 'chat' });
    act(() => ws.push({ act: 'chat', data: { from: 'ops-bot', text: 'Maintenance at 22:00', at: 1 } }));
    expect(await screen.findByText('Maintenance at 22:00')).toBeTruthy();
    expect(screen.getByText('ops-bot')).toBeTruthy();
  });

  it('the notice topic updates the unread badge', async () => {
    signedInAs('admin');
    renderApp('/dashboard');
    await waitFor(() => expect(screen.getByTestId('notice-badge').textContent).toContain('3'));
    act(() => FakeWebSocket.latest()!.open());
    act(() => FakeWebSocket.latest()!.push({ act: 'notice', data: { unread: 12 } }));
    await waitFor(() => expect(screen.getByTestId('notice-badge').textContent).toContain('12'));
  });
});

describe('language switch', () => {
  it('is in the header with the stored language selected', async () => {
    signedInAs('admin');
    renderApp('/dashboard');
    const select = await screen.findByTestId('lang-switch');
    expect(select.textContent).toContain('English');
  });

  it('stores the language, tells the server when signed in, then reloads', async () => {
    const api = signedInAs('admin', { handlers: { 'POST /system/basic/language': ok(null) } });
    await switchLanguage('zh-CN');
    expect(localStorage.getItem('rampart.lang')).toBe('zh-CN');
    expect(api.callsTo('POST /system/basic/language').map((c) => c.body)).toEqual([{ lang: 'zh-CN' }]);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});

describe('layout settings drawer', () => {
  it('stores switches and colours in localStorage', async () => {
    signedInAs('admin');
    renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('open-settings'));
    fireEvent.click(await screen.findByTestId('settings-fixed-header'));
    fireEvent.click(screen.getByTestId('settings-color-purple'));
    fireEvent.click(screen.getByTestId('settings-colour-weak'));
    const stored = JSON.parse(localStorage.getItem('rampart.layout') ?? '{}') as Record<string, unknown>;
    expect(stored).toMatchObject({ fixedHeader: true, colorPrimary: '#722ed1', colorWeak: true, layout: 'side', contentWidth: 'Fluid' });
    expect(document.documentElement.style.filter).toBe('invert(80%)');
    fireEvent.click(screen.getByTestId('settings-colour-weak'));
    expect(document.documentElement.style.filter).toBe('');
  });

  it('the top layout moves the menu into the header and forces the fixed width', async () => {
    signedInAs('admin');
    renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('open-settings'));
    fireEvent.click(screen.getByText('Top menu'));
    await waitFor(() => expect(screen.queryByTestId('sider')).toBeNull());
    expect(JSON.parse(localStorage.getItem('rampart.layout') ?? '{}')).toMatchObject({ layout: 'top', contentWidth: 'Fixed' });
    expect(screen.getByTestId('content').getAttribute('style')).toContain('max-width: 1200px');
  });
});
