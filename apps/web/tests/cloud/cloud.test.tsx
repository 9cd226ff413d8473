import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultModuleFlags, type CloudFeed, type CloudStatus } from '@rampart/contracts';
import { type } from '../helpers/antd.ts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/* The cloud protection page against a mocked console (the console and agent have their own tests on real parts). */

const feed: CloudFeed = {
  id: 3, feed_id: 'lab', name: 'Lab feed', source: 'tests', licence: 'CC0-1.0', version: 4, date: '2026-12-01T00:00:00.000Z', expires: '2026-12-31T00:00:00.000Z',
  key_id: 'abcd', url: 'https://feeds.example/lab.json', interval_minutes: 60, enabled: true, entries_v4: 120, entries_v6: 3, ranges_v4: 90, ranges_v6: 2,
  hits: 77, last_update: Date.parse('2026-12-01T01:00:00Z'), last_check: Date.parse('2026-12-02T01:00:00Z'), state: 'failed', last_error: 'cloud_fetch_failed', last_detail: 'HTTP 503',
};
const view = (extra: Partial<CloudStatus> = {}): CloudStatus => ({ enabled: true, kernel: true, keys: [], feeds: [], settings: { own_ranges: [] }, always_subtracted: ['10.0.0.0/8'], ...extra });
const done = { changed: 1, ids: [1], refused: null, detail: '' };

async function openCloud(handlers: Record<string, Handler> = {}) {
  const api = signedInAs('admin', {
    info: { module_list: { ...defaultModuleFlags(), cloud: 1 } },
    handlers: { 'GET /cloud/status': ok(view()), 'POST /cloud/keys/add': ok(done, 'Saved'), 'POST /cloud/feeds/delete': ok(done), 'POST /cloud/feeds/update': ok(done), ...handlers },
  });
  renderApp('/cloud/index');
  await screen.findByTestId('cloud-page');
  return api;
}

describe('cloud protection page', () => {
  it('says what an empty page holds and what to do next, in both languages, and pins a key as the contract body', async () => {
    const api = await openCloud();
    expect(screen.getByTestId('cloud-feeds-empty-text').textContent).toBe('No feed is installed: no address is blocked by cloud protection.');
    expect(screen.getByTestId('cloud-keys-empty-next').textContent).toContain('scripts/feed-bundle.ts keygen');
    expect(screen.getByTestId('cloud-subtracted').textContent).toContain('10.0.0.0/8');
    type('cloud-key-name', 'lab');
    type('cloud-key-value', 'x'.repeat(43));
    fireEvent.click(screen.getByTestId('cloud-key-add'));
    await waitFor(() => expect(api.callsTo('POST /cloud/keys/add')).toHaveLength(1));
    expect(api.callsTo('POST /cloud/keys/add')[0]!.body).toEqual({ name: 'lab', public_key: 'x'.repeat(43) });
    await switchToChinese();
    expect(screen.getByTestId('cloud-feeds-empty-text').textContent).toBe('尚未安装情报源：云防护不会拦截任何地址。');
  });

  it('shows a feed with its counts, hits and failed update, updates it now, and deletes it after asking', async () => {
    const api = await openCloud({ 'GET /cloud/status': ok(view({ feeds: [feed] })) });
    const table = screen.getByTestId('cloud-feeds-table');
    expect(within(table).getByText('Lab feed')).toBeTruthy();
    expect(within(table).getByText('every 60 min from https://feeds.example/lab.json')).toBeTruthy();
    expect(within(table).getByText('120 / 3')).toBeTruthy();
    expect(within(table).getByText('in the kernel: 90 / 2 ranges')).toBeTruthy();
    expect(screen.getByTestId('cloud-hits-3').textContent).toBe('77');
    expect(screen.getByTestId('cloud-state-3').textContent).toBe('Update failed');
    fireEvent.click(screen.getByTestId('cloud-update-3'));
    await waitFor(() => expect(api.callsTo('POST /cloud/feeds/update')[0]?.body).toEqual({ id: 3 }));
    fireEvent.click(screen.getByTestId('cloud-delete-3'));
    fireEvent.click(await screen.findByTestId('cloud-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /cloud/feeds/delete')[0]?.body).toEqual({ ids: [3] }));
    await switchToChinese();
    expect(screen.getByTestId('cloud-state-3').textContent).toBe('更新失败');
  });
});
