import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsOf } from '@rampart/contracts';
import { choose, type } from './helpers/antd.ts';
import { photoRecord } from './helpers/fixtures.ts';
import { file, ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { switchToChinese } from './firewall/helpers.ts';

const snapshot = 'POST /login.php HTTP/1.1\nHost: shop.example.com\n\nuser=admin%27+OR+1%3D1&pass=full-body-here';

async function openPhotos(handlers = {}) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /log/photo': ok({ list: [photoRecord(12), photoRecord(11, { method: 'GET', post_data: '' })], more: false }),
      'GET /log/photo/base': ok({ count: 42, keep_days: 30 }),
      'GET /log/photo/download': file(snapshot, 'rampart-photo-12.txt'),
      'POST /log/photo': ok({ removed: 42 }, 'Cleared 42 request snapshots'),
      ...handlers,
    },
  });
  const view = renderApp('/log/photo');
  await screen.findByTestId('log-photo-page');
  return { api, view };
}

const listQueries = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('GET /log/photo').map((c) => Object.fromEntries(c.query));

describe('request snapshots', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() }));
  });

  it('lists time, site, client IP, request type, URL, kind and a preview of the POST data', async () => {
    const { api } = await openPhotos();
    const row = await screen.findByTestId('photo-row-12');
    expect(listQueries(api)[0]).toEqual({ period: '7d', size: '20' });
    for (const text of ['shop.example.com', '198.51.100.9', 'POST', 'https://shop.example.com/login.php?id=12', 'Attack']) {
      expect(row.textContent).toContain(text);
    }
    // the event kind reads in words, never as its raw key
    expect(row.textContent).not.toContain('website.attack');
    expect(row.textContent).toContain("user=admin' OR 1=1");
    expect(row.textContent).toContain('…');
    expect(row.textContent).not.toContain('A'.repeat(100));
    expect(screen.getByTestId('photo-base-hint').textContent).toBe('42 snapshots · kept 30 days');
  });

  it('names the kind in Chinese too, and a kind it has no words for as "other", never raw', async () => {
    await switchToChinese();
    await openPhotos({ 'GET /log/photo': ok({ list: [photoRecord(12), photoRecord(11, { kind: 'website.from_a_newer_engine' })], more: false }) });
    expect((await screen.findByTestId('photo-row-12')).textContent).toContain('攻击');
    const other = screen.getByTestId('photo-row-11').textContent ?? '';
    expect(other).toContain('其他');
    expect(other).not.toContain('website.');
  });

  it('filters by period, IP and keyword; load more sends before=<last id>; then "no more data"', async () => {
    const { api } = await openPhotos({
      'GET /log/photo': (call: ApiCall) =>
        call.query.get('before') ? ok({ list: [photoRecord(5)], more: false }) : ok({ list: [photoRecord(9), photoRecord(8)], more: true }),
    });
    await screen.findByTestId('photo-row-8');
    await choose('photo-filter-period', 'photo-filter-period-today');
    type('photo-filter-ip', '2001:db8::1');
    type('photo-filter-keyword', 'union select');
    fireEvent.click(screen.getByTestId('photo-search'));
    await waitFor(() => expect(listQueries(api).at(-1)).toEqual({ period: 'today', ip: '2001:db8::1', keyword: 'union select', size: '20' }));
    await screen.findByTestId('photo-row-8');
    fireEvent.click(await screen.findByTestId('photo-load-more'));
    await screen.findByTestId('photo-row-5');
    expect(listQueries(api).at(-1)).toEqual({ period: 'today', ip: '2001:db8::1', keyword: 'union select', size: '20', before: '8' });
    expect(screen.getByTestId('photo-no-more').textContent).toBe('No more data');
  });

  it('the detail shows headers and the full snapshot, fetched with the token, and offers it as a download', async () => {
    const { api } = await openPhotos();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    fireEvent.click(await screen.findByTestId('photo-row-12'));
    expect((await screen.findByTestId('photo-detail-headers')).textContent).toBe('Host: shop.example.com\nUser-Agent: sqlmap/1.7');
    expect((await screen.findByTestId('photo-detail-full')).textContent).toBe(snapshot);
    const [call] = api.callsTo('GET /log/photo/download');
    expect(call?.query.get('id')).toBe('12');
    expect(call?.headers.Authorization).toBe('Bearer test-token');
    fireEvent.click(screen.getByTestId('photo-download'));
    expect(clicks).toEqual(['rampart-photo-12.txt']);
  });

  it('"clear" asks first, naming how many go, then posts /log/photo and refreshes', async () => {
    const { api } = await openPhotos();
    await screen.findByTestId('photo-row-12');
    await waitFor(() => expect(screen.getByTestId('photo-clear').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('photo-clear'));
    expect((await screen.findAllByText('Clear all 42 request snapshots? This cannot be undone.')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /log/photo')).toHaveLength(0);
    const lists = api.callsTo('GET /log/photo').length;
    fireEvent.click(screen.getByTestId('photo-clear-confirm'));
    await waitFor(() => expect(api.callsTo('POST /log/photo')).toHaveLength(1));
    expect(api.callsTo('POST /log/photo')[0]?.body).toBeUndefined();
    await waitFor(() => expect(api.callsTo('GET /log/photo').length).toBeGreaterThan(lists));
  });

  it('a role without delete on log_photo (the auditor) sees no clear button', async () => {
    signedInAs('auditor', { handlers: { 'GET /log/photo': ok({ list: [photoRecord(1)], more: false }) } });
    renderApp('/log/photo');
    await screen.findByTestId('photo-row-1');
    expect(screen.queryByTestId('photo-clear')).toBeNull();
  });

  it('the tab is guarded by log_photo', async () => {
    const permissions = permissionsOf('admin').filter((p) => p.perm_id !== 'log_photo');
    signedInAs('admin', { info: { role: { id: 'admin', name: 'admin', permissions } } });
    const view = renderApp('/log/photo');
    await waitFor(() => expect(view.location()).toBe('/403'));
  });
});
