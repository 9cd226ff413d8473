import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { can, permissionsOf, roleIds, sections } from '@rampart/contracts';
import { getToken } from '../src/storage/token.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

describe('menu per role', () => {
  for (const role of roleIds.filter((r) => r !== 'other')) {
    it(`${role} sees exactly the sections its role may get, plus logout`, async () => {
      signedInAs(role);
      renderApp('/log/system');
      await screen.findByTestId('menu-logout');
      const shown = sections.filter((s) => screen.queryByTestId(`menu-${s.key}`)).map((s) => s.key);
      const expected = sections.filter((s) => can(permissionsOf(role), s.permission, 'get')).map((s) => s.key);
      expect(shown).toEqual(expected);
      expect(shown.length).toBeGreaterThan(0);
    });
  }

  it('the auditor sees only the event log', async () => {
    signedInAs('auditor');
    renderApp('/log/system');
    await screen.findByTestId('menu-logout');
    expect(screen.getByTestId('menu-log')).toBeTruthy();
    expect(screen.queryByTestId('menu-dashboard')).toBeNull();
    expect(screen.queryByTestId('menu-system')).toBeNull();
  });

  it('clicking a section goes to its default tab', async () => {
    signedInAs('admin');
    const view = renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('menu-firewall'));
    await waitFor(() => expect(view.location()).toBe('/firewall/rule_in'));
  });

  it('logout asks first, then signs out, forgets the token and goes to sign-in', async () => {
    const api = signedInAs('admin');
    const view = renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('menu-logout'));
    expect((await screen.findAllByText('Sure to logout of the system?')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /logout')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('logout-confirm'));
    await waitFor(() => expect(view.location()).toBe('/user/login'));
    expect(api.callsTo('POST /logout')).toHaveLength(1);
    expect(getToken()).toBeNull();
  });
});

describe('header', () => {
  it('shows the OS, the user with the role name, the unread badge and the help link', async () => {
    signedInAs('admin');
    const view = renderApp('/dashboard');
    expect(await screen.findByText('Debian GNU/Linux 12 (bookworm)')).toBeTruthy();
    expect(screen.getByTestId('header-role').textContent).toBe('Administrator');
    await waitFor(() => expect(screen.getByTestId('notice-badge').textContent).toContain('3'));
    await waitFor(() => expect(screen.getByTestId('help-link').getAttribute('href')).toBe('https://help.example/rampart'));
    expect(screen.getByTestId('help-link').getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByTestId('notice-link'));
    await waitFor(() => expect(view.location()).toBe('/log/notice'));
  });

  it('has no notice badge for a role that cannot read the log, and no demo button without demo info', async () => {
    const permissions = permissionsOf('technician').filter((p) => p.perm_id !== 'log');
    const api = signedInAs('technician', { info: { role: { id: 'technician', name: 't', permissions } } });
    renderApp('/dashboard');
    await screen.findByTestId('header-user');
    expect(screen.queryByTestId('notice-badge')).toBeNull();
    expect(screen.queryByTestId('demo-button')).toBeNull();
    expect(api.callsTo('GET /log/notice/unread')).toHaveLength(0);
  });

  it('shows the demo button when /info carries demo info', async () => {
    signedInAs('admin', { info: { demo: { confirm: 'Open the demo?', msg: 'A demo', url: 'https://demo.example' } } });
    renderApp('/dashboard');
    expect(await screen.findByTestId('demo-button')).toBeTruthy();
  });
});
