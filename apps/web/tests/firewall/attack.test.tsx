import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultAttackSettings, type AttackSettings } from '@rampart/contracts';
import { choose, type } from '../helpers/antd.ts';
import { ok, refused, type ApiCall } from '../helpers/mockApi.ts';
import { openFirewall, switchToChinese } from './helpers.ts';

async function openAttack(handlers = {}) {
  const opened = await openFirewall('attack_protective', 'fw-attack-page', {
    // The console stores the settings and answers them back.
    handlers: { 'POST /firewall/attack': (call: ApiCall) => ok(call.body, 'Saved'), ...handlers },
  });
  await screen.findByTestId('fw-attack-save');
  return opened;
}

const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
const saved = (api: { callsTo(k: string): { body: unknown }[] }) => api.callsTo('POST /firewall/attack').map((c) => c.body as AttackSettings);
const fieldError = (path: string) => screen.queryByTestId(`fw-attack-error-${path}`)?.textContent;

describe('attack protection (attack_protective)', () => {
  it('shows the loaded settings', async () => {
    await openAttack();
    expect(value('fw-attack-port_scan-ports')).toBe('10');
    expect(value('fw-attack-port_scan-seconds')).toBe('10');
    expect(value('fw-attack-ssh_bruteforce-attempts')).toBe('10');
    expect(value('fw-attack-ssh_bruteforce-seconds')).toBe('120');
    expect(value('fw-attack-scan_404-per_minute')).toBe('20');
    expect(value('fw-attack-cc-per_minute')).toBe('300');
    expect(value('fw-attack-log-file-1')).toBe('/var/log/secure');
    expect(value('fw-attack-access-path-2')).toBe('/var/log/httpd/access_log');
    expect(screen.getByTestId('fw-attack-ssh_bruteforce-journal').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('fw-attack-cc-enabled').getAttribute('aria-checked')).toBe('true');
  });

  it('saves the edited settings as one body', async () => {
    const { api } = await openAttack();
    type('fw-attack-port_scan-ports', '20');
    type('fw-attack-port_scan-block_minutes', '120');
    fireEvent.click(screen.getByTestId('fw-attack-ssh_bruteforce-journal'));
    fireEvent.click(screen.getByTestId('fw-attack-log-file-remove-0'));
    fireEvent.click(screen.getByTestId('fw-attack-cc-enabled'));
    type('fw-attack-scan_404-per_minute', '40');
    fireEvent.click(screen.getByTestId('fw-attack-access-add'));
    type('fw-attack-access-path-3', '/srv/www/logs/access.log');
    await choose('fw-attack-access-format-3', 'fw-attack-access-format-3-apache');
    fireEvent.click(screen.getByTestId('fw-attack-save'));
    await waitFor(() => expect(saved(api)).toHaveLength(1));
    expect(saved(api)[0]).toEqual({
      port_scan: { enabled: true, ports: 20, seconds: 10, block_minutes: 120 },
      ssh_bruteforce: { enabled: true, attempts: 10, seconds: 120, block_minutes: 60, journal: false, log_files: ['/var/log/secure'] },
      scan_404: { enabled: true, per_minute: 40, block_minutes: 60 },
      cc: { enabled: false, per_minute: 300, block_minutes: 60 },
      access_logs: [...defaultAttackSettings.access_logs, { path: '/srv/www/logs/access.log', format: 'apache' }],
    } satisfies AttackSettings);
    // Saved: the form shows the stored settings, nothing left to reset.
    await waitFor(() => expect(screen.getByTestId('fw-attack-reset').hasAttribute('disabled')).toBe(true));
    expect(value('fw-attack-port_scan-ports')).toBe('20');
    expect(value('fw-attack-access-path-3')).toBe('/srv/www/logs/access.log');
  });

  it('says where its CC and 404 scan settings apply, beside the website protection ones (both languages)', async () => {
    await openAttack();
    expect(screen.getByText(/This is the firewall's: the address is denied on every port of the server\. Website protection has its own CC setting per protected site/)).toBeTruthy();
    expect(screen.getByText(/Website protection has its own 404 scan setting per protected site/)).toBeTruthy();
  });

  it('says so in Chinese too', async () => {
    await switchToChinese();
    await openAttack();
    expect(screen.getByText(/网站防护另有按站点的 CC 设置/)).toBeTruthy();
    expect(screen.getByText(/网站防护另有按站点的 404 扫描设置/)).toBeTruthy();
  });

  it('refuses empty and bad values with the spec messages; nothing is sent', async () => {
    const { api } = await openAttack();
    type('fw-attack-port_scan-ports', '');
    type('fw-attack-cc-per_minute', '');
    type('fw-attack-scan_404-block_minutes', '');
    type('fw-attack-log-file-0', 'var/log/auth.log');
    fireEvent.click(screen.getByTestId('fw-attack-save'));
    await waitFor(() => expect(fieldError('port_scan.ports')).toBe('Scan frequency cannot be empty'));
    expect(fieldError('cc.per_minute')).toBe('Enter the access frequency');
    expect(fieldError('scan_404.block_minutes')).toBe('Enter the deny time');
    expect(fieldError('ssh_bruteforce.log_files.0')).toBe('Enter the absolute path of a log file');
    expect(saved(api)).toHaveLength(0);
  });

  it('the messages read in Chinese', async () => {
    await switchToChinese();
    const { api } = await openAttack();
    type('fw-attack-port_scan-ports', '');
    type('fw-attack-ssh_bruteforce-block_minutes', '');
    fireEvent.click(screen.getByTestId('fw-attack-save'));
    await waitFor(() => expect(fieldError('port_scan.ports')).toBe('扫描频率不能为空'));
    expect(fieldError('ssh_bruteforce.block_minutes')).toBe('请输入禁止时间');
    expect(saved(api)).toHaveLength(0);
  });

  it('reset goes back to the loaded settings', async () => {
    await openAttack();
    type('fw-attack-cc-per_minute', '999');
    fireEvent.click(screen.getByTestId('fw-attack-access-remove-0'));
    expect(value('fw-attack-cc-per_minute')).toBe('999');
    fireEvent.click(screen.getByTestId('fw-attack-reset'));
    await waitFor(() => expect(value('fw-attack-cc-per_minute')).toBe('300'));
    expect(value('fw-attack-access-path-0')).toBe('/var/log/nginx/access.log');
  });

  it('HTTP 400 naming a field marks it', async () => {
    await openAttack({ 'POST /firewall/attack': refused('Enter the absolute path of a log file', 'access_logs.1.path') });
    fireEvent.click(screen.getByTestId('fw-attack-save'));
    await waitFor(() => expect(fieldError('access_logs.1.path')).toBe('Enter the absolute path of a log file'));
  });
});
