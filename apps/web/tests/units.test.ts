import { describe, expect, it, vi } from 'vitest';
import { applySettingChange, defaultLayoutSettings, loadLayoutSettings } from '../src/settings/layoutSettings.ts';
import { afterSignIn, landingPath } from '../src/routes/paths.ts';
import { documentTitle } from '../src/routes/title.ts';
import { copyText } from '../src/utils/copy.ts';
import { waitForConsole } from '../src/pages/dashboard/waitForConsole.ts';
import { permissionsOf } from '@rampart/contracts';

describe('layout settings', () => {
  it('defaults to dark navigation, teal, side layout, fluid, nothing fixed, colour-weak off', () => {
    expect(loadLayoutSettings()).toEqual({
      navTheme: 'dark', colorPrimary: '#008388', colorWeak: false, layout: 'side', contentWidth: 'Fluid',
      fixedHeader: false, fixSiderbar: false, autoHideHeader: false,
    });
  });

  it('the side layout forces Fluid, switching to top forces Fixed', () => {
    expect(applySettingChange(defaultLayoutSettings, { contentWidth: 'Fixed' }).contentWidth).toBe('Fluid');
    const top = applySettingChange(defaultLayoutSettings, { layout: 'top' });
    expect(top.contentWidth).toBe('Fixed');
    expect(applySettingChange(top, { layout: 'side' }).contentWidth).toBe('Fluid');
  });

  it('drops malformed stored values', () => {
    localStorage.setItem('rampart.layout', JSON.stringify({ navTheme: 'neon', colorPrimary: 'red', fixedHeader: 'yes', layout: 'top' }));
    expect(loadLayoutSettings()).toMatchObject({ navTheme: 'dark', colorPrimary: '#008388', fixedHeader: false, layout: 'top' });
    localStorage.setItem('rampart.layout', '{not json');
    expect(loadLayoutSettings()).toEqual(defaultLayoutSettings);
  });
});

describe('paths and titles', () => {
  it('lands admins on the dashboard and auditors on the event log', () => {
    expect(landingPath(permissionsOf('admin'))).toBe('/dashboard');
    expect(landingPath(permissionsOf('auditor'))).toBe('/log');
  });

  it('honours only in-app redirects', () => {
    expect(afterSignIn('/system/user', permissionsOf('admin'))).toBe('/system/user');
    expect(afterSignIn('https://evil.example', permissionsOf('admin'))).toBe('/dashboard');
    expect(afterSignIn('/user/login', permissionsOf('admin'))).toBe('/dashboard');
  });

  it('builds "[alias - ]title - Rampart"', () => {
    expect(documentTitle('Firewall', 'web-01')).toBe('web-01 - Firewall - Rampart');
    expect(documentTitle('Firewall', '')).toBe('Firewall - Rampart');
  });
});

describe('copyText', () => {
  it('says "failed" for empty content and "unsupported" when the browser has no way to copy', async () => {
    expect(await copyText('')).toBe('failed');
    vi.stubGlobal('navigator', { clipboard: undefined });
    const exec = document.execCommand;
    Object.defineProperty(document, 'execCommand', { value: undefined, configurable: true });
    expect(await copyText('secret')).toBe('unsupported');
    Object.defineProperty(document, 'execCommand', { value: exec, configurable: true });
  });

  it('uses the clipboard API when there is one', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    expect(await copyText('secret')).toBe('ok');
    expect(writeText).toHaveBeenCalledWith('secret');
  });
});

describe('waitForConsole', () => {
  it('tries 20 times at 1 s and gives up', async () => {
    vi.useFakeTimers();
    const probe = vi.fn(() => Promise.reject(new Error('down')));
    const result = waitForConsole(probe);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(probe).toHaveBeenCalledTimes(19);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBe(false);
    expect(probe).toHaveBeenCalledTimes(20);
  });

  it('stops as soon as the console answers', async () => {
    vi.useFakeTimers();
    const probe = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce({});
    const result = waitForConsole(probe);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await result).toBe(true);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});
