import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RegInfo } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { type } from './helpers/antd.ts';
import { ok, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const dayMs = 86_400_000;
const info = (patch: Partial<RegInfo> = {}): RegInfo => ({
  product_key: 'ABC-XYZ', expires_at: Date.now() + 100 * dayMs + 60_000, device_id: 'a'.repeat(32), product_id: 'rampart-standard',
  transfers_left: 2, registered_at: new Date(2026, 0, 2, 3, 4, 5).getTime(), expired: false, ...patch,
});

async function openTab(handlers: Record<string, Handler> = {}) {
  const api = signedInAs('admin', { handlers: { 'GET /system/reg': ok(info()), ...handlers } });
  renderApp('/system/soft_reg');
  await screen.findByTestId('reg-details');
  return api;
}
const text = (id: string) => screen.getByTestId(id).textContent;

describe('soft_reg tab', () => {
  it('shows the key masked until asked, the expiry with days left, device ID, product ID and transfers', async () => {
    await openTab();
    expect(text('reg-product-key')).toBe('ABC-***');
    fireEvent.click(screen.getByTestId('reg-key-toggle'));
    expect(text('reg-product-key')).toBe('ABC-XYZ');
    fireEvent.click(screen.getByTestId('reg-key-toggle'));
    expect(text('reg-product-key')).toBe('ABC-***');
    expect(text('reg-expires')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(text('reg-days-left')).toBe('101 days left');
    expect(text('reg-device-id')).toBe('a'.repeat(32));
    expect(screen.getByTestId('reg-copy-device')).toBeTruthy();
    expect(text('reg-product-id')).toBe('rampart-standard');
    expect(text('reg-transfers')).toBe('2');
    expect(text('reg-registered-at')).toBe('2026-01-02 03:04:05');
  });

  it('marks an expired licence', async () => {
    await openTab({ 'GET /system/reg': ok(info({ expires_at: Date.now() - dayMs, expired: true })) });
    expect(text('reg-expired')).toBe('Expired');
  });

  it('Refresh asks the authority again (POST /system/reg/refresh) and reads the answer anew', async () => {
    let transfers = 2;
    const api = await openTab({
      'GET /system/reg': () => ok(info({ transfers_left: transfers })),
      'POST /system/reg/refresh': () => {
        transfers = 1;
        return ok(null, 'Licence information refreshed');
      },
    });
    fireEvent.click(screen.getByTestId('reg-refresh'));
    await waitFor(() => expect(text('reg-transfers')).toBe('1'));
    expect(api.callsTo('POST /system/reg/refresh')).toHaveLength(1);
    expect(api.callsTo('POST /system/reg/refresh')[0]?.body).toBeUndefined();
  });

  it('re-registering checks the key and the agreement like the register page, and sends nothing until they pass', async () => {
    const api = await openTab();
    fireEvent.click(screen.getByTestId('reg-renew'));
    fireEvent.click(await screen.findByTestId('reg-renew-submit'));
    expect(await screen.findByText('Please enter the licence code')).toBeTruthy();
    expect(screen.getByText('Please Agree to the License Agreement')).toBeTruthy();
    type('reg-renew-key', 'ABCD-1');
    fireEvent.click(screen.getByTestId('reg-renew-submit'));
    expect(await screen.findByText('The licence code looks like AAA-BBB')).toBeTruthy();
    expect(api.callsTo('POST /system/reg')).toHaveLength(0);
  });

  it('a key bound elsewhere is moved only after the relocation is confirmed; the details are read again', async () => {
    let key = 'ABC-XYZ';
    const api = await openTab({
      'GET /system/reg': () => ok(info({ product_key: key })),
      'GET /licence': ok({ title: 'Licence', text: 'terms' }),
      'POST /system/reg': (call) => {
        if (!(call.body as { confirm_move?: boolean }).confirm_move) return ok({ status: 'need_confirm', transfers_left: 3 });
        key = 'NEW-KEY';
        return ok({ status: 'registered', username: 'admin', password: null, expires_at: Date.now() + 365 * dayMs }, 'Registered');
      },
    });
    fireEvent.click(screen.getByTestId('reg-renew'));
    type('reg-renew-key', ' new-key ');
    fireEvent.click(screen.getByTestId('reg-renew-agree'));
    fireEvent.click(screen.getByTestId('reg-renew-licence-link'));
    expect((await screen.findByTestId('licence-text')).textContent).toBe('terms');
    fireEvent.click(screen.getByTestId('reg-renew-submit'));
    expect(await screen.findByText('This licence code is bound to another server. Registering here uses one relocation, 3 left.')).toBeTruthy();
    expect(api.callsTo('POST /system/reg').map((c) => c.body)).toEqual([{ key: 'new-key', agree: true }]);
    fireEvent.click(screen.getByTestId('reg-move-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/reg')).toHaveLength(2));
    expect(api.callsTo('POST /system/reg')[1]?.body).toEqual({ key: 'new-key', agree: true, confirm_move: true });
    await waitFor(() => expect(screen.queryByTestId('reg-renew-form')).toBeNull());
    fireEvent.click(screen.getByTestId('reg-key-toggle'));
    await waitFor(() => expect(text('reg-product-key')).toBe('NEW-KEY'));
  });

  it('speaks Chinese', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    try {
      await openTab();
      expect(screen.getByText('设备 ID')).toBeTruthy();
      expect(screen.getByText('可迁移次数')).toBeTruthy();
      expect(text('reg-days-left')).toBe('剩余 101 天');
    } finally {
      await act(() => i18next.changeLanguage('en-US'));
    }
  });
});
