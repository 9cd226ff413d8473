import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SuperWhitelistEntry } from '@rampart/contracts';
import { choose, type } from './helpers/antd.ts';
import { ok, refused, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { switchToChinese } from './firewall/helpers.ts';

const at = (day: number, hour = 10) => new Date(2025, 4, day, hour, 0, 0).getTime();
const entry = (id: number, extra: Partial<SuperWhitelistEntry> = {}): SuperWhitelistEntry => ({
  id, address: `198.51.100.${id}`, remark: `office ${id}`, added_by: 'admin', source: 'manual', created_at: at(5), expires_at: null, ...extra,
});
const entries = [
  entry(1),
  entry(2, { address: '2001:db8::2', expires_at: Date.now() + 7 * 86_400_000, source: 'sign_in', remark: '' }),
  entry(3, { expires_at: at(1) }),
];

async function openTrust(handlers = {}, role: 'admin' | 'auditor' = 'admin') {
  const api = signedInAs(role, {
    handlers: {
      'GET /system/trust/ip': ok({ total: entries.length, list: entries, client_ip: '192.0.2.44', now: Date.now() }),
      'GET /system/trust/auto': ok({ enabled: false, days: 7 }),
      'POST /system/trust/ip': ok({ added: 1, skipped: 0 }, 'Added 1 IP(s) (0 already listed)'),
      'POST /system/trust/ip_delete': ok({ changed: 1 }, 'Deleted 1 IP(s)'),
      'POST /system/trust/ip/renewal': ok({ changed: 1 }, 'Renewed'),
      'POST /system/trust/auto': (call: ApiCall) => ok(call.body, 'Saved'),
      ...handlers,
    },
  });
  renderApp('/system/trust_terminal');
  await screen.findByTestId('trust-page');
  return api;
}

describe('super whitelist (system trust_terminal tab)', () => {
  it('lists IP, adding account, add time, validity, source and remark; expired entries say so', async () => {
    const api = await openTrust();
    const row1 = await screen.findByTestId('trust-row-1');
    for (const text of ['198.51.100.1', 'admin', '2025-05-05 10:00:00', 'Permanent', 'Manual', 'office 1']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('trust-row-2').textContent).toContain('Panel sign-in');
    expect(screen.getByTestId('trust-expiry-3').textContent).toContain('Expired');
    // A permanent entry needs no renewal.
    expect(screen.queryByTestId('trust-renew-1')).toBeNull();
    expect(screen.getByTestId('trust-renew-2')).toBeTruthy();
    type('trust-keyword', '2001:db8');
    fireEvent.click(screen.getByTestId('trust-search'));
    await waitFor(() => expect(Object.fromEntries(api.callsTo('GET /system/trust/ip').at(-1)!.query)).toEqual({ keyword: '2001:db8', page: '1', size: '20' }));
  });

  it('adding needs a validity, names a bad line, offers my own IP, and posts lines, days and remark', async () => {
    const api = await openTrust();
    fireEvent.click(await screen.findByTestId('trust-add'));
    await screen.findByTestId('trust-add-form');
    type('trust-ips', '203.0.113.7\n10.0.0.300');
    fireEvent.click(screen.getByTestId('trust-add-save'));
    expect((await screen.findByTestId('trust-error-ips')).textContent).toBe('Line 2 (10.0.0.300): Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *');
    expect(screen.getByTestId('trust-error-days').textContent).toBe('Choose the validity');
    type('trust-ips', '203.0.113.7\n*');
    fireEvent.click(screen.getByTestId('trust-add-save'));
    expect((await screen.findByTestId('trust-error-ips')).textContent).toBe('Line 2 (*): The super whitelist cannot hold every address (* or /0)');
    expect(api.callsTo('POST /system/trust/ip')).toHaveLength(0);

    type('trust-ips', '203.0.113.7');
    fireEvent.click(screen.getByTestId('trust-fill-mine'));
    expect((screen.getByTestId('trust-ips') as HTMLTextAreaElement).value).toBe('203.0.113.7\n192.0.2.44');
    await choose('trust-add-validity', 'trust-add-validity-30');
    type('trust-remark', 'laptop');
    fireEvent.click(screen.getByTestId('trust-add-save'));
    await waitFor(() => expect(api.callsTo('POST /system/trust/ip')).toHaveLength(1));
    expect(api.callsTo('POST /system/trust/ip')[0]!.body).toEqual({ ips: ['203.0.113.7', '192.0.2.44'], days: 30, remark: 'laptop' });
    await waitFor(() => expect(screen.queryByTestId('trust-add-form')).toBeNull());
  });

  it('a custom validity is a number of days; the server\'s field error shows on the form', async () => {
    const api = await openTrust({ 'POST /system/trust/ip': refused('The validity is 1 to 3650 days, or permanent', 'days') });
    fireEvent.click(await screen.findByTestId('trust-add'));
    type('trust-ips', '2001:db8::9');
    await choose('trust-add-validity', 'trust-add-validity-custom');
    type('trust-add-days', '12');
    fireEvent.click(screen.getByTestId('trust-add-save'));
    await waitFor(() => expect(api.callsTo('POST /system/trust/ip')).toHaveLength(1));
    expect(api.callsTo('POST /system/trust/ip')[0]!.body).toMatchObject({ ips: ['2001:db8::9'], days: 12 });
    expect((await screen.findByTestId('trust-error-days')).textContent).toBe('The validity is 1 to 3650 days, or permanent');
  });

  it('renews one entry or a selection, and deletes a selection after confirmation', async () => {
    const api = await openTrust();
    fireEvent.click(await screen.findByTestId('trust-renew-2'));
    await screen.findByTestId('trust-renew-form');
    fireEvent.click(screen.getByTestId('trust-renew-save'));
    expect((await screen.findByTestId('trust-renew-error-days')).textContent).toBe('Choose the validity');
    await choose('trust-renew-validity', 'trust-renew-validity-365');
    fireEvent.click(screen.getByTestId('trust-renew-save'));
    await waitFor(() => expect(api.callsTo('POST /system/trust/ip/renewal')).toHaveLength(1));
    const renewal = api.callsTo('POST /system/trust/ip/renewal')[0]!;
    expect([renewal.query.get('id'), renewal.body]).toEqual(['2', { days: 365 }]);

    fireEvent.click(within(screen.getByTestId('trust-row-1')).getByRole('checkbox'));
    fireEvent.click(within(screen.getByTestId('trust-row-3')).getByRole('checkbox'));
    expect(screen.getByTestId('trust-selected').textContent).toBe('2 selected');
    fireEvent.click(screen.getByTestId('trust-delete-selected'));
    fireEvent.click(await screen.findByTestId('trust-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/trust/ip_delete')).toHaveLength(1));
    expect(api.callsTo('POST /system/trust/ip_delete')[0]!.query.get('id')).toBe('1,3');
  });

  it('saves the automatic add at sign-in with its validity', async () => {
    const api = await openTrust();
    await screen.findByTestId('trust-auto');
    fireEvent.click(screen.getByTestId('trust-auto-enabled'));
    await choose('trust-auto-validity', 'trust-auto-validity-1');
    fireEvent.click(screen.getByTestId('trust-auto-save'));
    await waitFor(() => expect(api.callsTo('POST /system/trust/auto')).toHaveLength(1));
    expect(api.callsTo('POST /system/trust/auto')[0]!.body).toEqual({ enabled: true, days: 1 });
  });

  it('speaks Chinese', async () => {
    await switchToChinese();
    await openTrust();
    const row2 = await screen.findByTestId('trust-row-2');
    expect(row2.textContent).toContain('面板登录');
    expect(screen.getByTestId('trust-expiry-1').textContent).toBe('永久');
    fireEvent.click(screen.getByTestId('trust-add'));
    fireEvent.click(await screen.findByTestId('trust-add-save'));
    expect((await screen.findByTestId('trust-error-days')).textContent).toBe('请选择有效期');
    expect(screen.getByTestId('trust-error-ips').textContent).toBe('请输入 IP');
  });
});
