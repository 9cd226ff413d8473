import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TimedEntry } from '../../src/pages/website/websiteApi.ts';
import { type } from '../helpers/antd.ts';
import { ok, refused } from '../helpers/mockApi.ts';
import { openWebsite, switchToChinese } from './helpers.ts';

const entry = (n: number, extra: Partial<TimedEntry> = {}): TimedEntry => ({
  ip: `203.0.113.${n}`,
  created_at: Date.now() - 60_000,
  detail: `${n * 100} requests in a minute`,
  expires_at: Date.now() + 30 * 60_000,
  reason: 'cc',
  ...extra,
}) as TimedEntry;

describe.each(['intercept_list', 'author_list'] as const)('%s', (list) => {
  const prefix = `web-${list}`;
  const page = ok({ total: 2, list: [entry(1), entry(2, { reason: list === 'author_list' ? 'password' : 'attack' })] });

  it('lists the entries (English)', async () => {
    await openWebsite(list, { handlers: { [`GET /website/${list}`]: page } });
    const row = await screen.findByTestId(`${prefix}-row-0`);
    expect(within(row).getByText('203.0.113.1')).toBeTruthy();
    expect(within(row).getByText('CC attack')).toBeTruthy();
  });

  it('reads in Chinese', async () => {
    await switchToChinese();
    await openWebsite(list, { handlers: { [`GET /website/${list}`]: page } });
    await screen.findByTestId(`${prefix}-row-1`);
    expect(screen.getByText(list === 'author_list' ? '授权密码' : '攻击')).toBeTruthy();
    expect(screen.getAllByText('剩余时间').length).toBeGreaterThan(0);
  });

  it('deletes one, and the selected ones, after confirming', async () => {
    const { api } = await openWebsite(list, { handlers: { [`GET /website/${list}`]: page, [`POST /website/${list}_delete`]: ok(null) } });
    fireEvent.click(await screen.findByTestId(`${prefix}-delete-1`));
    fireEvent.click(await screen.findByTestId(`${prefix}-delete-confirm`));
    await waitFor(() => expect(api.callsTo(`POST /website/${list}_delete`)).toHaveLength(1));
    expect(api.callsTo(`POST /website/${list}_delete`)[0]?.body).toEqual({ ips: ['203.0.113.2'] });

    fireEvent.click(screen.getByTestId(`${prefix}-select-0`));
    fireEvent.click(screen.getByTestId(`${prefix}-select-1`));
    fireEvent.click(screen.getByTestId(`${prefix}-delete-selected`));
    await waitFor(() => expect(screen.getAllByTestId(`${prefix}-delete-confirm`).length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByTestId(`${prefix}-delete-confirm`).at(-1)!);
    await waitFor(() => expect(api.callsTo(`POST /website/${list}_delete`)).toHaveLength(2));
    expect(api.callsTo(`POST /website/${list}_delete`)[1]?.body).toEqual({ ips: ['203.0.113.1', '203.0.113.2'] });
  });

  it('renews an address: fixed in the box, its remark kept, new minutes from now; shows the time left', async () => {
    const { api } = await openWebsite(list, { handlers: { [`GET /website/${list}`]: page, [`POST /website/${list}`]: ok(null) } });
    expect((await screen.findByTestId(`${prefix}-remaining-0`)).textContent).toBe('30 min');
    fireEvent.click(screen.getByTestId(`${prefix}-renew-0`));
    const box = (await screen.findByTestId(`${prefix}-ips`)) as HTMLTextAreaElement;
    expect(box.value).toBe('203.0.113.1');
    expect(box.disabled).toBe(true);
    expect((screen.getByTestId(`${prefix}-remark`) as HTMLInputElement).value).toBe('100 requests in a minute');
    type(`${prefix}-minutes`, '240');
    fireEvent.click(screen.getByTestId(`${prefix}-add-save`));
    await waitFor(() => expect(api.callsTo(`POST /website/${list}`)).toHaveLength(1));
    expect(api.callsTo(`POST /website/${list}`)[0]?.body).toEqual({ ips: ['203.0.113.1'], minutes: 240, remark: '100 requests in a minute' });

    // Several at once: the selection, with an empty remark.
    fireEvent.click(screen.getByTestId(`${prefix}-select-0`));
    fireEvent.click(screen.getByTestId(`${prefix}-select-1`));
    fireEvent.click(screen.getByTestId(`${prefix}-renew-selected`));
    await waitFor(() => expect((screen.getByTestId(`${prefix}-ips`) as HTMLTextAreaElement).value).toBe('203.0.113.1\n203.0.113.2'));
    fireEvent.click(screen.getByTestId(`${prefix}-add-save`));
    await waitFor(() => expect(api.callsTo(`POST /website/${list}`)).toHaveLength(2));
    expect(api.callsTo(`POST /website/${list}`)[1]?.body).toEqual({ ips: ['203.0.113.1', '203.0.113.2'], minutes: 60, remark: '' });
  });

  it('adds addresses by hand; a refused address shows on the box with its line', async () => {
    const { api } = await openWebsite(list, { handlers: { [`POST /website/${list}`]: refused('Not a valid IP address', 'ips.1') } });
    fireEvent.click(screen.getByTestId(`${prefix}-add`));
    type(`${prefix}-ips`, '198.51.100.7\n198.51.100.8');
    type(`${prefix}-minutes`, '120');
    fireEvent.click(screen.getByTestId(`${prefix}-add-save`));
    await waitFor(() => expect(api.callsTo(`POST /website/${list}`)).toHaveLength(1));
    expect(api.callsTo(`POST /website/${list}`)[0]?.body).toEqual({ ips: ['198.51.100.7', '198.51.100.8'], minutes: 120, remark: '' });
    expect((await screen.findByTestId(`${prefix}-error-ips`)).textContent).toContain('198.51.100.8');
  });
});
