import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userInfoFor } from './helpers/fixtures.ts';
import { installFakeWebSocket } from './helpers/fakeWebSocket.ts';
import { mockApi, ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { resetPasswordCommand } from '../src/pages/login/ForgotPassword.tsx';

const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });

function consoleFor(role: 'admin' | 'auditor', registered = true) {
  installFakeWebSocket();
  return mockApi({
    'GET /login': ok({ registered, check_mode: 'off' }),
    'POST /login': ok({ token: 'fresh-token', expires_at: null }),
    'GET /info': ok(userInfoFor(role)),
    'GET /global': ok({ modules: userInfoFor(role).module_list, oem: { oem_help: '' }, registered: true }),
    'GET /log/notice/unread': ok({ unread: 0 }),
    'GET /home/index': { body: { code: 0, msg: '', data: null } },
  });
}

async function signIn(remember: boolean) {
  await screen.findByTestId('login-username');
  type('login-username', ' admin ');
  type('login-password', 'Secret-1');
  if (remember) fireEvent.click(screen.getByTestId('login-remember'));
  fireEvent.click(screen.getByTestId('login-submit'));
}

describe('sign-in', () => {
  it('asks for the account and the password, localised, without calling the server', async () => {
    const api = consoleFor('admin');
    renderApp('/user/login');
    fireEvent.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('Please enter the admin account')).toBeTruthy();
    expect(screen.getByText('Please enter the admin password')).toBeTruthy();
    expect(api.callsTo('POST /login')).toHaveLength(0);
  });

  it('goes to the redirect query after signing in, keeping the token for this session only', async () => {
    const api = consoleFor('admin');
    const view = renderApp(`/user/login?redirect=${encodeURIComponent('/firewall/rule_out')}`);
    await signIn(false);
    await waitFor(() => expect(view.location()).toBe('/firewall/rule_out'));
    expect(api.callsTo('POST /login').map((c) => c.body)).toEqual([{ username: 'admin', password: 'Secret-1', remember: false }]);
    expect(sessionStorage.getItem('rampart.token')).toBe('fresh-token');
    expect(localStorage.getItem('rampart.token')).toBeNull();
  });

  it('remember me keeps the token in localStorage; no redirect lands on the dashboard', async () => {
    consoleFor('admin');
    const view = renderApp('/user/login');
    await signIn(true);
    await waitFor(() => expect(view.location()).toBe('/dashboard'));
    expect(localStorage.getItem('rampart.token')).toBe('fresh-token');
  });

  it('an auditor, who cannot see the dashboard, lands on the first section it can see', async () => {
    consoleFor('auditor');
    const view = renderApp('/user/login');
    await signIn(false);
    await waitFor(() => expect(view.location()).toBe('/log/system'));
  });

  it('ignores a redirect to another site', async () => {
    consoleFor('admin');
    const view = renderApp(`/user/login?redirect=${encodeURIComponent('//evil.example/x')}`);
    await signIn(false);
    await waitFor(() => expect(view.location()).toBe('/dashboard'));
  });

  it('an unregistered console sends the user to registration', async () => {
    consoleFor('admin', false);
    const view = renderApp('/user/login');
    await waitFor(() => expect(view.location()).toBe('/user/register'));
  });

  it('the forgot-password hint names the reset command', async () => {
    consoleFor('admin');
    renderApp('/user/login');
    fireEvent.click(await screen.findByTestId('forgot-password'));
    expect((await screen.findByTestId('forgot-hint')).textContent).toContain(resetPasswordCommand);
    expect(resetPasswordCommand).toBe('npx rampart admin reset-password');
  });
});
