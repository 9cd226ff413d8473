import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultModuleFlags, defaultTrojanSettings, modulesInBuild, sections } from '@rampart/contracts';
import { tabPages } from '../src/pages/tabPages.ts';
import { i18next } from '../src/i18n/index.ts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { firewallHandlers, statusFixture } from './firewall/helpers.ts';

const switchEl = () => screen.getByTestId('module-switch');

/** Trojan protection with nothing configured: its directories tab and its settings (a modal tab). */
const trojanHandlers = {
  'GET /trojan/status': ok({ enabled: false, watch: 'off', watchError: '', watchedDirs: 0, ruleSetVersion: 'test-1', customRules: 0, customHashes: 0, isolated: 0, found24h: 0, running: null, lastScan: null }),
  'GET /trojan/dirs': ok({ total: 0, list: [] }),
  'GET /trojan/scans': ok({ total: 0, list: [] }),
  'GET /trojan/settings': ok(defaultTrojanSettings),
  'GET /trojan/library': ok({ rules: '', hashes: [], ruleCount: 0, hashCount: 0 }),
};

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

  it("the module's page follows the switch at once: the firewall's 'module is off' banner appears without leaving the page", async () => {
    let kernel: 'ok' | 'off' = 'ok';
    signedInAs('admin', {
      info: { module_list: { ...defaultModuleFlags(), firewall: 1 } },
      handlers: {
        ...firewallHandlers(),
        'GET /firewall/status': () => ok(statusFixture({ kernel })),
        'POST /module_switch': () => {
          kernel = 'off';
          return ok(null);
        },
      },
    });
    renderApp('/firewall/rule_in');
    await screen.findByTestId('module-switch');
    expect(screen.queryByTestId('fw-kernel-off')).toBeNull();
    fireEvent.click(switchEl());
    fireEvent.click(await screen.findByTestId('module-off-confirm'));
    expect((await screen.findByTestId('fw-kernel-off')).textContent).toBeTruthy();
  });

  it('the modules of this build are those whose section has pages here (modulesInBuild is the one list)', () => {
    for (const section of sections) {
      if (!section.module) continue;
      const hasPages = section.tabs.some((tab) => `${section.key}/${tab.key}` in tabPages);
      expect(modulesInBuild.includes(section.module), section.module).toBe(hasPages);
    }
  });

  it('cloud protection, the last module to get its engine, has a switch that works', async () => {
    signedInAs('admin');
    renderApp('/cloud/index');
    await screen.findByTestId('module-switch');
    expect(switchEl().hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('module-switch-why')).toBeNull();
    expect(screen.queryByTestId('not-in-build')).toBeNull();
  });

  it('a module of this build says nothing of the kind', async () => {
    signedInAs('admin');
    renderApp('/remote/index');
    await screen.findByTestId('module-switch');
    expect(switchEl().hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('module-switch-why')).toBeNull();
  });

  it('sections that are not modules have no switch', async () => {
    signedInAs('admin');
    // Situational awareness is not a module (its page has its own tests: tests/dynamic).
    renderApp('/dynamic/index');
    await screen.findByTestId('page-title');
    expect(screen.queryByTestId('module-switch')).toBeNull();
    expect(screen.getByTestId('page-title').textContent).toBe('Situational awareness');
  });

  it('every tab not in this build says what to use meanwhile, in both languages', async () => {
    const unbuilt = sections.flatMap((section) => section.tabs.filter((tab) => !tabPages[`${section.key}/${tab.key}`]).map((tab) => `${section.key}_${tab.key}`));
    // Since situational awareness (issue 24) every tab has a page; a tab added without one must still say this.
    for (const lang of ['zh-CN', 'en-US']) {
      for (const tab of unbuilt) expect(i18next.exists(`module_page.meanwhile.${tab}`, { lng: lang }), `${lang} ${tab}`).toBe(true);
    }
  });

  it('a modal tab opens over the current tab instead of navigating', async () => {
    signedInAs('admin', { handlers: trojanHandlers });
    const view = renderApp('/trojan/dirs');
    fireEvent.click(await screen.findByTestId('tab-settings'));
    expect(await screen.findByTestId('trojan-settings-form')).toBeTruthy();
    expect(view.location()).toBe('/trojan/dirs');
  });

  it('clicking a page tab navigates to it', async () => {
    signedInAs('admin');
    const view = renderApp('/firewall/rule_in');
    fireEvent.click(await screen.findByTestId('tab-intercept_list'));
    await waitFor(() => expect(view.location()).toBe('/firewall/intercept_list'));
  });
});
