import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NoticeInfo, NoticeListResult } from '@rampart/contracts';
import { FakeWebSocket } from './helpers/fakeWebSocket.ts';
import { ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

type Row = NonNullable<NoticeListResult['list']>[number];
const notice = (id: number, readed = 0): Row => ({ id, title: `Notice ${id}`, add_time: new Date(2025, 4, id, 9, 30).getTime(), readed });

/** A small notice store: list, info (marks read), read and delete, and the unread count. */
function noticeServer(initial: Row[]) {
  let rows = [...initial];
  const ids = (call: ApiCall) => {
    const raw = call.query.get('ids') ?? '';
    return raw === 'all' ? rows.map((r) => r.id) : raw.split(',').map(Number);
  };
  return {
    rows: () => rows,
    handlers: {
      'GET /log/notice': (call: ApiCall) => {
        const page = Number(call.query.get('page') ?? 1);
        const size = Number(call.query.get('size') ?? 20);
        const list = rows.slice((page - 1) * size, page * size);
        return ok({ count: rows.length, list: list.length ? list : null });
      },
      'GET /log/notice/info': (call: ApiCall) => {
        const id = Number(call.query.get('id'));
        rows = rows.map((r) => (r.id === id ? { ...r, readed: 1 } : r));
        const row = rows.find((r) => r.id === id)!;
        return ok({ ...row, content: `Content of <b>${row.title}</b>` } satisfies NoticeInfo);
      },
      'POST /log/notice/readed': (call: ApiCall) => {
        const target = ids(call);
        rows = rows.map((r) => (target.includes(r.id) ? { ...r, readed: 1 } : r));
        return ok(null, 'Marked as read');
      },
      'POST /log/notice/delete': (call: ApiCall) => {
        const target = ids(call);
        rows = rows.filter((r) => !target.includes(r.id));
        return ok(null, 'Deleted');
      },
      'GET /log/notice/unread': () => ok({ unread: rows.filter((r) => !r.readed).length }),
    },
  };
}

async function openNotices(initial: Row[]) {
  const server = noticeServer(initial);
  const api = signedInAs('admin', { handlers: server.handlers });
  const view = renderApp('/log/notice');
  await screen.findByTestId('log-notice-page');
  return { api, view, server };
}

const badge = () => screen.getByTestId('notice-badge').textContent;
const unreadCalls = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('GET /log/notice/unread').length;

describe('notices', () => {
  it('lists page 1 with 20 a page: title, release time and read state', async () => {
    const { api } = await openNotices([notice(3), notice(2, 1)]);
    expect((await screen.findByTestId('notice-title-3')).textContent).toBe('Notice 3');
    expect(api.callsTo('GET /log/notice').map((c) => Object.fromEntries(c.query))[0]).toEqual({ page: '1', size: '20' });
    expect(screen.getByTestId('notice-row-3').textContent).toContain('2025-05-03 09:30:00');
    expect(screen.getByTestId('notice-state-3').textContent).toBe('Unread');
    expect(screen.getByTestId('notice-state-2').textContent).toBe('Read');
  });

  it('an empty list (list: null) shows no rows and disables the "all" actions', async () => {
    await openNotices([]);
    await waitFor(() => expect(screen.getByTestId('notice-mark-all').hasAttribute('disabled')).toBe(true));
    expect(screen.queryAllByTestId(/^notice-row-/)).toHaveLength(0);
  });

  it('clicking a title shows its content; the server marks it read, the list and the badge refresh', async () => {
    const { api } = await openNotices([notice(3), notice(2)]);
    await waitFor(() => expect(badge()).toContain('2'));
    fireEvent.click(await screen.findByTestId('notice-title-3'));
    expect((await screen.findByTestId('notice-content')).innerHTML).toContain('Content of <b>Notice 3</b>');
    expect(api.callsTo('GET /log/notice/info').map((c) => c.query.get('id'))).toEqual(['3']);
    await waitFor(() => expect(screen.getByTestId('notice-state-3').textContent).toBe('Read'));
    await waitFor(() => expect(badge()).toContain('1'));
  });

  it('marks the selected notices read with ids=1,2 and refreshes the badge', async () => {
    const { api } = await openNotices([notice(3), notice(2), notice(1)]);
    await screen.findByTestId('notice-title-3');
    expect(screen.getByTestId('notice-mark-read').hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('notice-select-1'));
    fireEvent.click(screen.getByTestId('notice-select-2'));
    expect(screen.getByTestId('notice-selected').textContent).toBe('2 selected');
    const before = unreadCalls(api);
    fireEvent.click(screen.getByTestId('notice-mark-read'));
    await waitFor(() => expect(api.callsTo('POST /log/notice/readed').map((c) => c.query.get('ids'))).toEqual(['1,2']));
    await waitFor(() => expect(screen.getByTestId('notice-state-2').textContent).toBe('Read'));
    expect(screen.getByTestId('notice-state-3').textContent).toBe('Unread');
    await waitFor(() => expect(unreadCalls(api)).toBeGreaterThan(before));
    await waitFor(() => expect(badge()).toContain('1'));
    expect(screen.queryByTestId('notice-selected')).toBeNull();
  });

  it('"mark all read" sends ids=all and refreshes the list and the badge', async () => {
    const { api } = await openNotices([notice(3), notice(2)]);
    await waitFor(() => expect(badge()).toContain('2'));
    const listCalls = api.callsTo('GET /log/notice').length;
    fireEvent.click(screen.getByTestId('notice-mark-all'));
    await waitFor(() => expect(api.callsTo('POST /log/notice/readed').map((c) => c.query.get('ids'))).toEqual(['all']));
    await waitFor(() => expect(api.callsTo('GET /log/notice').length).toBeGreaterThan(listCalls));
    await waitFor(() => expect(screen.getByTestId('notice-state-3').textContent).toBe('Read'));
    await waitFor(() => expect(badge()).not.toContain('2'));
  });

  it('"delete selected" asks first, then posts the ids', async () => {
    const { api } = await openNotices([notice(3), notice(2)]);
    fireEvent.click(await screen.findByTestId('notice-select-3'));
    fireEvent.click(screen.getByTestId('notice-delete'));
    expect((await screen.findAllByText('Delete the 1 selected notices?')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /log/notice/delete')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('notice-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /log/notice/delete').map((c) => c.query.get('ids'))).toEqual(['3']));
    await waitFor(() => expect(screen.queryByTestId('notice-row-3')).toBeNull());
    expect(screen.getByTestId('notice-row-2')).toBeTruthy();
  });

  it('"delete all" names how many, and after confirming sends ids=all and empties the list', async () => {
    const { api } = await openNotices([notice(3), notice(2)]);
    await screen.findByTestId('notice-title-3');
    fireEvent.click(screen.getByTestId('notice-delete-all'));
    expect((await screen.findAllByText('Delete all 2 notices? This cannot be undone.')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('notice-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /log/notice/delete').map((c) => c.query.get('ids'))).toEqual(['all']));
    await waitFor(() => expect(screen.queryAllByTestId(/^notice-row-/)).toHaveLength(0));
    await waitFor(() => expect(badge()).not.toContain('2'));
  });

  it('the auditor reads notices but cannot delete them', async () => {
    const server = noticeServer([notice(1)]);
    signedInAs('auditor', { handlers: server.handlers });
    renderApp('/log/notice');
    await screen.findByTestId('notice-title-1');
    expect(screen.getByTestId('notice-mark-all')).toBeTruthy();
    expect(screen.queryByTestId('notice-delete')).toBeNull();
    expect(screen.queryByTestId('notice-delete-all')).toBeNull();
  });

  it('the websocket notice push still drives the badge while the page is open', async () => {
    await openNotices([notice(1)]);
    await waitFor(() => expect(badge()).toContain('1'));
    act(() => FakeWebSocket.latest()!.open());
    act(() => FakeWebSocket.latest()!.push({ act: 'notice', data: { unread: 7 } }));
    await waitFor(() => expect(badge()).toContain('7'));
  });
});
