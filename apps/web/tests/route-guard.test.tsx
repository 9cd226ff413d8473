import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { can, hiddenPages, permissionsOf, roleIds, sections } from '@rampart/contracts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

/** Waits until the route settles on a page of its own or on /403, and says which. */
async function settle(view: ReturnType<typeof renderApp>, pageTestId: string): Promise<'page' | '403'> {
  let outcome: 'page' | '403' | undefined;
  await waitFor(() => {
    if (view.location() === '/403' && screen.queryByText('403 Access Denied')) outcome = '403';
    else if (screen.queryByTestId(pageTestId)) outcome = 'page';
    expect(outcome).toBeDefined();
  });
  return outcome!;
}

const nonModalTab = (s: (typeof sections)[number]) => s.tabs.find((t) => !t.modal && t.key === s.defaultTab)?.key;

describe('route guard per role', () => {
  for (const role of roleIds.filter((r) => r !== 'other')) {
    describe(role, () => {
      for (const section of sections) {
        const allowed = can(permissionsOf(role), section.permission, 'get');
        it(`${section.path} ${allowed ? 'shows the page' : 'goes to /403'}`, async () => {
          signedInAs(role);
          const view = renderApp(section.path);
          const testId = section.key === 'dashboard' ? 'dashboard' : `section-${section.key}`;
          expect(await settle(view, testId)).toBe(allowed ? 'page' : '403');
          if (allowed && section.defaultTab) {
            await waitFor(() => expect(view.location()).toBe(`${section.path}/${nonModalTab(section)}`));
          }
        });
      }
    });
  }

  describe('other (no permissions at all)', () => {
    for (const section of sections) {
      it(`${section.path} says "this account has no permission"`, async () => {
        signedInAs('other');
        renderApp(section.path);
        expect(await screen.findByText('This account has no permission')).toBeTruthy();
        expect(screen.queryByTestId(`menu-${section.key}`)).toBeNull();
      });
    }
  });

  it('a tab with its own permission is guarded by it (audit/patch needs audit_patch)', async () => {
    const permissions = permissionsOf('admin').filter((p) => p.perm_id !== 'audit_patch');
    signedInAs('admin', { info: { role: { id: 'admin', name: 'admin', permissions } } });
    const view = renderApp('/audit/patch');
    expect(await settle(view, 'not-in-build')).toBe('403');
  });

  it('the hidden page /dynamic/style_1 is reachable by path for roles with dynamic', async () => {
    signedInAs('technician');
    renderApp(hiddenPages[0]!.path);
    expect(await screen.findByText('Situational awareness (large screen)')).toBeTruthy();
  });
});

describe('routing basics', () => {
  it('/ lands on the dashboard for an admin and on the event log for an auditor', async () => {
    signedInAs('admin');
    const admin = renderApp('/');
    await waitFor(() => expect(admin.location()).toBe('/dashboard'));
    admin.unmount();
    signedInAs('auditor');
    const auditor = renderApp('/');
    await waitFor(() => expect(auditor.location()).toBe('/log/system'));
  });

  it('unknown paths go to /404', async () => {
    signedInAs('admin');
    const view = renderApp('/no/such/page');
    expect(await screen.findByText('404 Route Not Found')).toBeTruthy();
    expect(view.location()).toBe('/404');
  });

  it('without a token a console page goes to sign-in with a redirect back', async () => {
    const view = renderApp('/firewall/rule_out');
    await waitFor(() => expect(view.location()).toBe(`/user/login?redirect=${encodeURIComponent('/firewall/rule_out')}`));
  });

  it('with a token, the sign-in page goes to the console', async () => {
    signedInAs('admin');
    const view = renderApp('/user/login');
    await waitFor(() => expect(view.location()).toBe('/dashboard'));
  });

  it('sets the document title to "alias - page - Rampart"', async () => {
    signedInAs('admin');
    renderApp('/firewall/rule_in');
    await waitFor(() => expect(document.title).toBe('web-01 - Inbound rules - Rampart'));
  });

  it('/403 renders without signing in (skips the guard)', async () => {
    const view = renderApp('/403');
    expect(await screen.findByText('403 Access Denied')).toBeTruthy();
    expect(view.location()).toBe('/403');
  });
});
