import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Probation } from '@rampart/contracts';
import { type } from '../helpers/antd.ts';
import { ok, type ApiCall } from '../helpers/mockApi.ts';
import { done, listEntry, openFirewall, statusFixture } from './helpers.ts';

const probation = (token: string, ms: number): Probation => ({ token, expires_at: Date.now() + ms, warnings: ['own_ip_blocked'] });
const countdown = () => screen.getByTestId('fw-probation-countdown').textContent;

/** Adds one address to the black list; the console answers with a probation of `ms` from the answer. */
async function blockOwnIp(token: string, ms: number) {
  const opened = await openFirewall('black_white_list', 'fw-lists-page', {
    handlers: {
      'GET /firewall/lists': ok({ total: 1, list: [listEntry(1)] }),
      // As the console answers a probation: a warning (code 1) whose data carries it.
      'POST /firewall/lists/add': () => ({
        body: { code: 1, msg: 'This change blocks your own IP. It is applied for now: confirm within 60 s or it is rolled back', data: done({ probation: probation(token, ms), warnings: ['own_ip_blocked'] }) },
      }),
      'POST /firewall/confirm': ok({ confirmed: true }, 'Confirmed; the change stays'),
    },
  });
  fireEvent.click(await screen.findByTestId('fw-list-add'));
  type('fw-list-addresses', '203.0.113.0/24');
  fireEvent.click(screen.getByTestId('fw-list-add-save'));
  await waitFor(() => expect(opened.api.callsTo('POST /firewall/lists/add')).toHaveLength(1));
  return opened;
}

const listCalls = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('GET /firewall/lists').length;

describe('changes on probation', () => {
  it('a probation answer opens "keep it?" with a live countdown; Keep posts the token', async () => {
    const { api } = await blockOwnIp('tok-keep', 5000);
    expect((await screen.findByText('This change blocks your own IP; keep it?'))).toBeTruthy();
    expect(screen.getByTestId('fw-probation-warning-own_ip_blocked').textContent).toBe('It blocks your own IP and may cut you off from this panel.');
    const first = Number(/^Rolled back in (\d+) s$/.exec(countdown() ?? '')?.[1]);
    expect([4, 5]).toContain(first);
    await waitFor(() => expect(countdown()).toBe(`Rolled back in ${first - 1} s`), { timeout: 2500 });
    fireEvent.click(screen.getByTestId('fw-probation-keep'));
    await waitFor(() => expect(api.callsTo('POST /firewall/confirm').map((c) => c.body)).toEqual([{ token: 'tok-keep' }]));
    await waitFor(() => expect(screen.queryByTestId('fw-probation-keep')).toBeNull());
  });

  it('when the countdown ends the user is told the change was rolled back, and the lists are fetched again', async () => {
    const { api } = await blockOwnIp('tok-expire', 1200);
    await screen.findByTestId('fw-probation-countdown');
    const before = listCalls(api);
    expect((await screen.findByTestId('fw-probation-rolled-back', undefined, { timeout: 4000 })).textContent).toBe(
      'The change was not kept in time, so the server rolled it back. The lists show the state after the rollback.',
    );
    await waitFor(() => expect(listCalls(api)).toBeGreaterThan(before));
    expect(api.callsTo('POST /firewall/confirm')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByTestId('fw-probation-keep')).toBeNull());
  });

  it('"Roll back now" closes the dialog and says the server rolls it back at the deadline; nothing is confirmed', async () => {
    const { api } = await blockOwnIp('tok-dismiss', 30_000);
    fireEvent.click(await screen.findByTestId('fw-probation-rollback'));
    expect((await screen.findAllByText(/Not kept: the server rolls the change back within \d+ s\./)).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByTestId('fw-probation-countdown')).toBeNull());
    expect(api.callsTo('POST /firewall/confirm')).toHaveLength(0);
  });

  it('opening any firewall tab with a pending probation shows the same dialog', async () => {
    const { api } = await openFirewall('intercept_list', 'fw-intercept-page', {
      handlers: {
        'GET /firewall/status': ok(statusFixture({ probation: probation('tok-pending', 20_000) })),
        'POST /firewall/confirm': ok({ confirmed: true }),
      },
    });
    expect(await screen.findByTestId('fw-probation-countdown')).toBeTruthy();
    // The countdown starts from the server's 20 s; a loaded machine may take a few seconds to render.
    const left = Number(/^Rolled back in (\d+) s$/.exec(countdown() ?? '')?.[1]);
    expect(left).toBeGreaterThanOrEqual(12);
    expect(left).toBeLessThanOrEqual(20);
    fireEvent.click(screen.getByTestId('fw-probation-keep'));
    await waitFor(() => expect(api.callsTo('POST /firewall/confirm').map((c) => c.body)).toEqual([{ token: 'tok-pending' }]));
  });

  it('a role that may not edit cannot keep the change: no Keep button, and it says so', async () => {
    await openFirewall('rule_in', 'fw-rules-in-page', {
      role: 'technician',
      actions: ['query', 'get', 'add'],
      handlers: { 'GET /firewall/status': ok(statusFixture({ probation: probation('tok-no-edit', 20_000) })) },
    });
    expect(await screen.findByTestId('fw-probation-countdown')).toBeTruthy();
    expect(screen.queryByTestId('fw-probation-keep')).toBeNull();
    expect(screen.getByTestId('fw-probation-no-keep').textContent).toBe('Your role may not keep firewall changes, so this one will be rolled back.');
    expect(screen.getByTestId('fw-probation-rollback')).toBeTruthy();
  });
});
