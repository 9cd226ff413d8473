import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { file, ok, type ApiCall } from '../helpers/mockApi.ts';
import { type } from '../helpers/antd.ts';
import { at, done, listEntry, openFirewall } from './helpers.ts';

async function openLists(handlers = {}) {
  return openFirewall('black_white_list', 'fw-lists-page', {
    handlers: {
      'GET /firewall/lists': (call: ApiCall) =>
        call.query.get('list') === 'black'
          ? ok({ total: 1, list: [listEntry(9, { address: '192.0.2.0/24', remark: 'scanner net' })] })
          : ok({ total: 2, list: [listEntry(1), listEntry(2, { expires_at: at(20, 8) })] }),
      'POST /firewall/lists/add': ok(done(), 'Added'),
      'POST /firewall/lists/delete': ok(done(), 'Deleted'),
      'POST /firewall/lists/import': ok({ added: 2, skipped: 0, ...done({ changed: 2 }) }, 'Imported: 2 added, 0 already listed'),
      ...handlers,
    },
  });
}

const listQueries = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('GET /firewall/lists').map((c) => Object.fromEntries(c.query));

describe('black and white lists (black_white_list)', () => {
  it('shows the white list first: address, remark, added time and "permanent" or the end', async () => {
    const { api } = await openLists();
    const row1 = await screen.findByTestId('fw-list-row-1');
    for (const text of ['198.51.100.1', 'entry 1', '2025-05-05 10:00:00']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('fw-list-expiry-1').textContent).toBe('Permanent');
    expect(screen.getByTestId('fw-list-expiry-2').textContent).toContain('2025-05-20 08:00:00');
    expect(listQueries(api)[0]).toEqual({ list: 'white', page: '1', size: '20' });
  });

  it('the switch shows the black list; search sends the keyword', async () => {
    const { api } = await openLists();
    await screen.findByTestId('fw-list-row-1');
    fireEvent.click(screen.getByTestId('fw-list-kind-black'));
    expect((await screen.findByTestId('fw-list-row-9')).textContent).toContain('scanner net');
    type('fw-list-keyword', '192.0.2');
    fireEvent.click(screen.getByTestId('fw-list-search'));
    await waitFor(() => expect(listQueries(api).at(-1)).toEqual({ list: 'black', keyword: '192.0.2', page: '1', size: '20' }));
  });

  it('import reads the chosen .txt file in the browser and posts its content', async () => {
    const { api } = await openLists();
    fireEvent.click(screen.getByTestId('fw-list-kind-black'));
    await screen.findByTestId('fw-list-row-9');
    fireEvent.click(screen.getByTestId('fw-list-import'));
    const form = await screen.findByTestId('fw-list-import-form');
    const content = '# feed of 2025-05-06\n203.0.113.1\n198.51.100.0/24\n';
    fireEvent.change(form.querySelector('input[type=file]')!, { target: { files: [new File([content], 'feed.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('feed.txt')).toBeTruthy();
    type('fw-list-import-remark', 'threat feed');
    fireEvent.click(screen.getByTestId('fw-list-import-save'));
    await waitFor(() => expect(api.callsTo('POST /firewall/lists/import')).toHaveLength(1));
    expect(api.callsTo('POST /firewall/lists/import')[0]?.body).toEqual({ list: 'black', content, remark: 'threat feed' });
    await waitFor(() => expect(screen.queryByTestId('fw-list-import-form')).toBeNull());
  });

  it('import without a file asks for one', async () => {
    const { api } = await openLists();
    fireEvent.click(await screen.findByTestId('fw-list-import'));
    fireEvent.click(await screen.findByTestId('fw-list-import-save'));
    expect((await screen.findByTestId('fw-list-import-error')).textContent).toContain('Choose a file to import');
    expect(api.callsTo('POST /firewall/lists/import')).toHaveLength(0);
  });

  it('adding names a bad line and sends nothing; a good list is posted with the remark and no end', async () => {
    const { api } = await openLists();
    fireEvent.click(await screen.findByTestId('fw-list-add'));
    await screen.findByTestId('fw-list-add-form');
    type('fw-list-addresses', '203.0.113.7\n10.0.0.1/8');
    fireEvent.click(screen.getByTestId('fw-list-add-save'));
    expect((await screen.findByTestId('fw-list-error-addresses')).textContent).toBe(
      'Line 2 (10.0.0.1/8): Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *',
    );
    expect(api.callsTo('POST /firewall/lists/add')).toHaveLength(0);
    type('fw-list-addresses', '203.0.113.7\n10.0.0.0/8');
    type('fw-list-remark', 'office');
    fireEvent.click(screen.getByTestId('fw-list-add-save'));
    await waitFor(() => expect(api.callsTo('POST /firewall/lists/add')).toHaveLength(1));
    expect(api.callsTo('POST /firewall/lists/add')[0]?.body).toEqual({ list: 'white', addresses: ['203.0.113.7', '10.0.0.0/8'], remark: 'office', expires_at: null });
  });

  it('"until" without a date is refused', async () => {
    const { api } = await openLists();
    fireEvent.click(await screen.findByTestId('fw-list-add'));
    type('fw-list-addresses', '203.0.113.7');
    fireEvent.click(screen.getByTestId('fw-list-validity-until'));
    fireEvent.click(screen.getByTestId('fw-list-add-save'));
    expect((await screen.findByTestId('fw-list-error-expires_at')).textContent).toBe('The validity must end after now');
    expect(api.callsTo('POST /firewall/lists/add')).toHaveLength(0);
  });

  it('delete all asks first, then posts ids: "all" for the shown list', async () => {
    const { api } = await openLists();
    await screen.findByTestId('fw-list-row-1');
    fireEvent.click(screen.getByTestId('fw-list-delete-all'));
    expect((await screen.findAllByText('Delete all 2 entries of the white list? This cannot be undone.')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /firewall/lists/delete')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('fw-list-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /firewall/lists/delete').map((c) => c.body)).toEqual([{ list: 'white', ids: 'all' }]));
  });

  it('export downloads the shown list as a file', async () => {
    const create = vi.fn(() => 'blob:list');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { api } = await openLists({ 'GET /firewall/export': file('198.51.100.1\n', 'whitelist.txt') });
    fireEvent.click(await screen.findByTestId('fw-list-export'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.callsTo('GET /firewall/export').map((c) => c.query.get('list'))).toEqual(['white']);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('whitelist.txt');
  });
});
