import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultModuleFlags } from '@rampart/contracts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const switchEl = () => screen.getByTestId('module-switch');

describe('module pages', () => {
  it('turning a module ON posts at once and shows it on', async () => {
    const api = signedInAs('admin', { handlers: { 'POST /module_switch': ok(null) } });
    renderApp('/firewall/rule_in');
    await screen.findByTestId('module-switch');
    expect(switchEl().getAttribute('aria-checked')).toBe('false');
    fireEvent.click(switchEl());
    await waitFor(() => expect(api.callsTo('POST /module_switch').map((c) => c.body)).toEqual([{ module: 'firewall', status: 1 }]));
    await waitFor(() => expect(switchEl().getAttribute('aria-checked')).toBe('true'));
  });

  it("turning a module OFF asks first with the module's own message", async () => {
    const api = signedInAs('admin', {
      info: { module_list: { ...defaultModuleFlags(), tamper: 1 } },
      handlers: { 'POST /module_switch': ok(null) },
    });
    renderApp('/tamper/index');
    await screen.findByTestId('module-switch');
    expect(switchEl().getAttribute('aria-checked')).toBe('true');
    fireEvent.click(switchEl());
    expect((await screen.findAllByText(/Turn tamper protection off\?/)).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /module_switch')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('module-off-confirm'));
    await waitFor(() => expect(api.callsTo('POST /module_switch').map((c) => c.body)).toEqual([{ module: 'tamper', status: 0 }]));
    await waitFor(() => expect(switchEl().getAttribute('aria-checked')).toBe('false'));
  });

  it('sections that are not modules have no switch; every tab says it is not in this build', async () => {
    signedInAs('admin');
    // The audit's system and reinforcement tabs are built; its account audit is not.
    renderApp('/audit/account');
    expect((await screen.findByTestId('not-in-build')).textContent).toContain('Account audit is not in this build yet');
    expect(screen.queryByTestId('module-switch')).toBeNull();
    expect(screen.getByTestId('page-title').textContent).toBe('Security audit');
  });

  it('a modal tab opens over the current tab instead of navigating', async () => {
    signedInAs('admin');
    const view = renderApp('/trojan/dirs');
    fireEvent.click(await screen.findByTestId('tab-settings'));
    expect((await screen.findAllByText(/Scan settings is not in this build yet/)).length).toBeGreaterThan(0);
    expect(view.location()).toBe('/trojan/dirs');
  });

  it('clicking a page tab navigates to it', async () => {
    signedInAs('admin');
    const view = renderApp('/firewall/rule_in');
    fireEvent.click(await screen.findByTestId('tab-intercept_list'));
    await waitFor(() => expect(view.location()).toBe('/firewall/intercept_list'));
  });
});
