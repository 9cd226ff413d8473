import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultLogSettings, type LogSettings } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { choose, type } from './helpers/antd.ts';
import { ok, refused } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const stored: LogSettings = {
  ...defaultLogSettings,
  keep_days: 120,
  syslog: { ...defaultLogSettings.syslog, enabled: true, servers: [{ host: 'syslog.example.com', port: 514, transport: 'udp' }] },
};

async function openSettings(handlers = {}) {
  const api = signedInAs('admin', { handlers: { 'GET /system/log': ok(stored), 'POST /system/log': ok(stored, 'Saved'), ...handlers } });
  renderApp('/system/basic');
  await screen.findByTestId('logset-form');
  return api;
}

const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
const error = (path: string) => screen.queryByTestId(`logset-error-${path}`)?.textContent;
const save = () => fireEvent.click(screen.getByTestId('logset-save'));

describe('log settings (system/basic)', () => {
  it('shows the stored settings', async () => {
    await openSettings();
    expect(value('logset-keep-days')).toBe('120');
    expect(value('logset-disk-limit')).toBe('0');
    expect(value('syslog-host-0')).toBe('syslog.example.com');
    expect(value('syslog-port-0')).toBe('514');
    expect(screen.getByTestId('syslog-enabled').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('logset-card').textContent).toContain('About one record per IP per day');
  });

  it('saves the whole object with POST /system/log', async () => {
    const api = await openSettings();
    fireEvent.click(screen.getByTestId('logset-mode-full'));
    type('logset-keep-days', '365');
    type('logset-disk-limit', '2048');
    fireEvent.click(screen.getByTestId('logset-protocol-rfc3164'));
    await choose('logset-charset', 'logset-charset-gb18030');
    fireEvent.click(screen.getByTestId('logset-lang-en-US'));
    fireEvent.click(screen.getByTestId('logset-kind-operation'));
    fireEvent.click(screen.getByTestId('syslog-add-server'));
    type('syslog-host-1', ' 192.0.2.10 ');
    expect(value('syslog-port-1')).toBe('514');
    fireEvent.click(screen.getByTestId('syslog-transport-1-tcp'));
    save();
    await waitFor(() => expect(api.callsTo('POST /system/log')).toHaveLength(1));
    expect(api.callsTo('POST /system/log')[0]?.body).toEqual({
      mode: 'full',
      keep_days: 365,
      disk_limit_mb: 2048,
      syslog: {
        enabled: true,
        protocol: 'rfc3164',
        charset: 'gb18030',
        lang: 'en-US',
        kinds: ['security', 'system'],
        servers: [
          { host: 'syslog.example.com', port: 514, transport: 'udp' },
          { host: '192.0.2.10', port: 514, transport: 'tcp' },
        ],
      },
    });
  });

  it('keep days below 30 (or empty) is refused on the field with the schema message; nothing is sent', async () => {
    const api = await openSettings();
    type('logset-keep-days', '10');
    save();
    await waitFor(() => expect(error('keep_days')).toBe('Keep days is a whole number from 30 to 3650'));
    type('logset-keep-days', '');
    save();
    await waitFor(() => expect(error('keep_days')).toBe('Keep days is a whole number from 30 to 3650'));
    expect(api.callsTo('POST /system/log')).toHaveLength(0);
    type('logset-keep-days', '30');
    await waitFor(() => expect(error('keep_days')).toBeUndefined());
  });

  it('a bad syslog host and a bad port are marked on their fields', async () => {
    const api = await openSettings();
    type('syslog-host-0', 'not a host!');
    type('syslog-port-0', '70000');
    save();
    await waitFor(() => expect(error('syslog.servers.0.host')).toBe('Enter a valid server address (IP or domain name)'));
    expect(error('syslog.servers.0.port')).toBe('Ports are whole numbers from 1 to 65535');
    expect(api.callsTo('POST /system/log')).toHaveLength(0);
  });

  it('duplicate servers are flagged "Has duplicates"', async () => {
    const api = await openSettings();
    fireEvent.click(screen.getByTestId('syslog-add-server'));
    type('syslog-host-1', 'SYSLOG.example.com');
    save();
    await waitFor(() => expect(error('syslog.servers')).toBe('Has duplicates'));
    expect(api.callsTo('POST /system/log')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('syslog-transport-1-tcp'));
    await waitFor(() => expect(error('syslog.servers')).toBeUndefined());
    save();
    await waitFor(() => expect(api.callsTo('POST /system/log')).toHaveLength(1));
  });

  it('forwarding on with no server asks for one', async () => {
    await openSettings();
    fireEvent.click(screen.getByTestId('syslog-remove-0'));
    save();
    await waitFor(() => expect(error('syslog.servers')).toBe('Add at least one server to turn syslog forwarding on'));
  });

  it('at most 10 servers can be added', async () => {
    await openSettings();
    for (let i = 1; i < 10; i++) fireEvent.click(screen.getByTestId('syslog-add-server'));
    expect(screen.getByTestId('syslog-host-9')).toBeTruthy();
    expect(screen.getByTestId('syslog-add-server').hasAttribute('disabled')).toBe(true);
  });

  it('HTTP 400 naming a field (data.field) shows the message on that field', async () => {
    const api = await openSettings({ 'POST /system/log': refused('Enter a valid server address (IP or domain name)', 'syslog.servers.0.host') });
    type('syslog-host-0', 'unresolvable.invalid');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/log')).toHaveLength(1));
    await waitFor(() => expect(error('syslog.servers.0.host')).toBe('Enter a valid server address (IP or domain name)'));
  });

  it('messages follow the language (zh-CN)', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openSettings();
    type('logset-keep-days', '29');
    save();
    await waitFor(() => expect(error('keep_days')).toBe('日志保留天数须为 30-3650 的整数'));
  });
});
