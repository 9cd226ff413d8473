import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type } from '../helpers/antd.ts';
import { ok, type ApiCall } from '../helpers/mockApi.ts';
import { done, interceptEntry, openFirewall, switchToChinese } from './helpers.ts';

async function openIntercept(handlers = {}) {
  return openFirewall('intercept_list', 'fw-intercept-page', {
    handlers: {
      'GET /firewall/intercept': () =>
        ok({
          total: 2,
          list: [
            interceptEntry(1),
            interceptEntry(2, { reason: 'ssh_bruteforce', detail: '11 failed logins', expires_at: Date.now() + (26 * 60 + 5) * 60_000 - 30_000 }),
          ],
        }),
      'POST /firewall/intercept/add': ok(done(), 'Blocked'),
      'POST /firewall/intercept/delete': ok(done(), 'Unblocked'),
      ...handlers,
    },
  });
}

describe('interception list (intercept_list)', () => {
  it('shows IP, reason in words, detail, times and the time left', async () => {
    const { api } = await openIntercept();
    const row1 = await screen.findByTestId('fw-intercept-row-1');
    for (const text of ['203.0.113.1', 'Port scan', '12 ports in 10 s']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('fw-intercept-reason-2').textContent).toBe('SSH brute force');
    expect(screen.getByTestId('fw-intercept-remaining-1').textContent).toBe('1 h 30 min');
    expect(screen.getByTestId('fw-intercept-remaining-2').textContent).toBe('1 d 2 h 5 min');
    expect(Object.fromEntries(api.callsTo('GET /firewall/intercept')[0]!.query)).toEqual({ page: '1', size: '20' });
  });

  it('reasons read in Chinese', async () => {
    await switchToChinese();
    await openIntercept();
    expect((await screen.findByTestId('fw-intercept-reason-1')).textContent).toBe('端口扫描');
    expect(screen.getByTestId('fw-intercept-remaining-1').textContent).toBe('1 小时 30 分钟');
  });

  it('unblock all asks for confirmation before posting ids: "all"', async () => {
    const { api } = await openIntercept();
    await screen.findByTestId('fw-intercept-row-1');
    fireEvent.click(screen.getByTestId('fw-intercept-unblock-all'));
    expect((await screen.findAllByText('Unblock all 2 intercepted IPs?')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /firewall/intercept/delete')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('fw-intercept-unblock-confirm'));
    await waitFor(() => expect(api.callsTo('POST /firewall/intercept/delete').map((c) => c.body)).toEqual([{ ids: 'all' }]));
  });

  it('unblocking selected rows posts their ids after the confirmation', async () => {
    const { api } = await openIntercept();
    fireEvent.click(await screen.findByTestId('fw-intercept-select-2'));
    fireEvent.click(screen.getByTestId('fw-intercept-unblock-selected'));
    fireEvent.click(await screen.findByTestId('fw-intercept-unblock-confirm'));
    await waitFor(() => expect(api.callsTo('POST /firewall/intercept/delete').map((c) => c.body)).toEqual([{ ids: [2] }]));
  });

  it('blocking by hand takes single addresses only, then posts ips, minutes and remark', async () => {
    const { api } = await openIntercept();
    fireEvent.click(await screen.findByTestId('fw-intercept-add'));
    await screen.findByTestId('fw-intercept-add-form');
    type('fw-intercept-ips', '203.0.113.9\n198.51.100.0/24');
    type('fw-intercept-minutes', '');
    fireEvent.click(screen.getByTestId('fw-intercept-add-save'));
    expect((await screen.findByTestId('fw-intercept-error-ips')).textContent).toBe('Line 2 (198.51.100.0/24): Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *');
    expect(screen.getByTestId('fw-intercept-error-minutes').textContent).toBe('Enter the deny time');
    expect(api.callsTo('POST /firewall/intercept/add')).toHaveLength(0);
    type('fw-intercept-ips', '203.0.113.9\n2001:db8::7');
    type('fw-intercept-minutes', '30');
    type('fw-intercept-remark', 'noisy');
    fireEvent.click(screen.getByTestId('fw-intercept-add-save'));
    await waitFor(() => expect(api.callsTo('POST /firewall/intercept/add').map((c: ApiCall) => c.body)).toEqual([{ ips: ['203.0.113.9', '2001:db8::7'], minutes: 30, remark: 'noisy' }]));
  });
});
