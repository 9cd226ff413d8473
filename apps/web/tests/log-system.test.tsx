import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DownloadJob } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { choose, type } from './helpers/antd.ts';
import { logBaseFixture, logRow, logRows } from './helpers/fixtures.ts';
import { file, ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const jobId = '0123456789abcdef';
const archive = `rampart-log-${jobId}.csv.gz`;
const job = (extra: Partial<DownloadJob> = {}): DownloadJob => ({ job: jobId, state: 'packing', rows: 0, file: null, expires_at: null, ...extra });

async function openLog(handlers = {}, role: 'admin' | 'auditor' = 'admin') {
  const api = signedInAs(role, { handlers: { 'GET /log/system': ok({ list: logRows(100, 3), more: false }), ...handlers } });
  const view = renderApp('/log/system');
  await screen.findByTestId('log-system-page');
  return { api, view };
}

const listCalls = (api: { callsTo(key: string): ApiCall[] }) => api.callsTo('GET /log/system').map((c) => Object.fromEntries(c.query));

describe('event log: list and filters', () => {
  it('asks for today, 20 rows, and shows the columns with level tag and repeats badge', async () => {
    const { api } = await openLog({
      'GET /log/system': ok({ list: [logRow(7, { level: 'critical', repeats: 5, content: 'SSH password guessing' }), logRow(6)], more: false }),
    });
    const row = await screen.findByTestId('log-row-7');
    expect(listCalls(api)[0]).toEqual({ period: 'today', size: '20' });
    expect(row.textContent).toContain('admin');
    expect(row.textContent).toContain('Firewall');
    expect(row.textContent).toContain('nft');
    expect(row.textContent).toContain('203.0.113.7');
    expect(row.textContent).toContain('SSH password guessing');
    expect(screen.getByTestId('log-level-7').textContent).toBe('Critical');
    expect(screen.getByTestId('log-level-7').className).toContain('red');
    expect(screen.getByTestId('log-level-6').textContent).toBe('Warning');
    expect(screen.getByTestId('log-repeats-7').textContent).toContain('5');
    expect(screen.queryByTestId('log-repeats-6')).toBeNull();
  });

  it('shows the log mode and keep days from /log/system/base as a hint', async () => {
    await openLog({ 'GET /log/system/base': ok(logBaseFixture({ mode: 'full', keep_days: 365 })) });
    await waitFor(() => expect(screen.getByTestId('log-base-hint').textContent).toBe('Log mode: Full · kept 365 days · 1234 records (5.0 MB)'));
  });

  it('each filter builds the query: module, level, period at once, IP and keyword on search', async () => {
    const { api } = await openLog();
    await screen.findByTestId('log-row-100');
    await choose('log-filter-module', 'log-filter-module-firewall');
    await waitFor(() => expect(listCalls(api).at(-1)).toEqual({ period: 'today', module: 'firewall', size: '20' }));
    await choose('log-filter-level', 'log-filter-level-critical');
    await waitFor(() => expect(listCalls(api).at(-1)).toEqual({ period: 'today', module: 'firewall', level: 'critical', size: '20' }));
    await choose('log-filter-period', 'log-filter-period-30d');
    await waitFor(() => expect(listCalls(api).at(-1)?.period).toBe('30d'));
    type('log-filter-ip', ' 198.51.100.4 ');
    type('log-filter-keyword', 'ssh');
    fireEvent.click(screen.getByTestId('log-search'));
    await waitFor(() =>
      expect(listCalls(api).at(-1)).toEqual({ period: '30d', module: 'firewall', level: 'critical', ip: '198.51.100.4', keyword: 'ssh', size: '20' }),
    );
  });

  it('a bad IP is refused on the field with the schema message, and nothing is asked', async () => {
    const { api } = await openLog();
    await screen.findByTestId('log-row-100');
    const before = api.callsTo('GET /log/system').length;
    type('log-filter-ip', '999.1.1.1');
    fireEvent.click(screen.getByTestId('log-search'));
    expect((await screen.findByTestId('log-error-ip')).textContent).toBe('Enter a valid IPv4 or IPv6 address');
    expect(api.callsTo('GET /log/system')).toHaveLength(before);
  });

  it('"load more" asks for rows before the last id, until the server says there are no more', async () => {
    const { api } = await openLog({
      'GET /log/system': (call: ApiCall) => {
        const before = call.query.get('before');
        if (!before) return ok({ list: logRows(100, 20), more: true });
        if (before === '81') return ok({ list: logRows(80, 20), more: true });
        return ok({ list: logRows(60, 5), more: false });
      },
    });
    await screen.findByTestId('log-row-81');
    expect(screen.queryByTestId('log-no-more')).toBeNull();
    fireEvent.click(screen.getByTestId('log-load-more'));
    await screen.findByTestId('log-row-61');
    fireEvent.click(screen.getByTestId('log-load-more'));
    await screen.findByTestId('log-row-56');
    expect(listCalls(api).map((q) => q.before)).toEqual([undefined, '81', '61']);
    expect(screen.getByTestId('log-no-more').textContent).toBe('No more data');
    expect(screen.queryByTestId('log-load-more')).toBeNull();
    expect(screen.getAllByTestId(/^log-row-/)).toHaveLength(45);
  });

  it('"no more data" reads 没有更多数据了 in Chinese', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openLog({ 'GET /log/system': ok({ list: logRows(5, 2), more: false }) });
    expect((await screen.findByTestId('log-no-more')).textContent).toBe('没有更多数据了');
    expect(screen.getByTestId('log-row-5').textContent).toContain('防火墙');
  });

  it('a row opens the detail with every field, the solution and the raw evidence in monospace', async () => {
    await openLog({ 'GET /log/system': ok({ list: [logRow(9, { repeats: 3, account: 'ops', source: 'sshd' })], more: false }) });
    fireEvent.click(await screen.findByTestId('log-row-9'));
    const detail = await screen.findByTestId('log-detail');
    for (const text of ['ops', 'Firewall', 'sshd', '203.0.113.7', 'Warning', 'Blocked a port scan #9']) expect(detail.textContent).toContain(text);
    expect(screen.getByTestId('log-detail-repeats').textContent).toBe('3');
    expect(screen.getByTestId('log-detail-solution').textContent).toBe('Blacklist the IP');
    const evidence = screen.getByTestId('log-detail-detail');
    expect(evidence.tagName).toBe('PRE');
    expect(evidence.textContent).toBe('SRC=203.0.113.7 DST=10.0.0.2 DPT=22');
    expect(evidence.getAttribute('style')).toContain('monospace');
  });
});

describe('event log: download', () => {
  let saved: { href: string; download: string }[];
  beforeEach(() => {
    saved = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:archive'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
  });
  afterEach(() => vi.useRealTimers());

  /** Polls answer packing with growing rows, then ready on the `readyAt`-th poll. */
  function downloadServer(readyAt = 2) {
    let polls = 0;
    return {
      'GET /log/system/download': (call: ApiCall) => {
        if (!call.query.get('job')) return ok(job({ rows: 0 }));
        polls += 1;
        return ok(polls >= readyAt ? job({ state: 'ready', rows: 1500, file: archive, expires_at: Date.now() + 86_400_000 }) : job({ rows: 700 * polls }));
      },
      'GET /log/archive': file('gzip-bytes', archive),
      'POST /log/system/download/cancel': ok(null, 'Download cancelled'),
    };
  }

  const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  it('starts with the filters, polls every second showing rows, counts down 3 s, then fetches the archive with the token', async () => {
    const { api } = await openLog(downloadServer());
    await screen.findByTestId('log-row-100');
    await choose('log-filter-level', 'log-filter-level-critical');
    await waitFor(() => expect(listCalls(api).at(-1)?.level).toBe('critical'));
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('log-download'));
    await tick(0);
    const start = api.callsTo('GET /log/system/download')[0]!;
    expect(Object.fromEntries(start.query)).toEqual({ period: 'today', level: 'critical' });
    expect(screen.getByTestId('log-download-status').textContent).toBe('Packing… 0 rows');
    expect(screen.getByTestId('log-download-keep').textContent).toBe('The packed file is kept on the server for 24 hours.');
    await tick(1000);
    expect(api.callsTo('GET /log/system/download').map((c) => c.query.get('job'))).toEqual([null, jobId]);
    expect(screen.getByTestId('log-download-status').textContent).toBe('Packing… 700 rows');
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toBe('Packed 1500 rows. The download starts in 3 s…');
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toContain('starts in 2 s');
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toContain('starts in 1 s');
    expect(api.callsTo('GET /log/archive')).toHaveLength(0);
    await tick(1000);
    await tick(0);
    const [fetched] = api.callsTo('GET /log/archive');
    expect(fetched?.query.get('file')).toBe(archive);
    expect(fetched?.headers.Authorization).toBe('Bearer test-token');
    expect(saved).toEqual([{ href: 'blob:archive', download: archive }]);
    expect(screen.getByTestId('log-download-status').textContent).toBe('Downloaded 1500 rows.');
    expect(api.callsTo('POST /log/system/download/cancel')).toHaveLength(0);
  });

  it('cancel while packing stops polling and tells the server', async () => {
    const { api } = await openLog(downloadServer(99));
    await screen.findByTestId('log-row-100');
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('log-download'));
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toBe('Packing… 700 rows');
    fireEvent.click(screen.getByTestId('log-download-cancel'));
    await tick(0);
    expect(api.callsTo('POST /log/system/download/cancel').map((c) => c.query.get('job'))).toEqual([jobId]);
    const polls = api.callsTo('GET /log/system/download').length;
    await tick(5000);
    expect(api.callsTo('GET /log/system/download')).toHaveLength(polls);
    expect(screen.getByTestId('log-download').hasAttribute('disabled')).toBe(false);
  });

  it('cancel during the countdown: no archive is fetched', async () => {
    const { api } = await openLog(downloadServer(1));
    await screen.findByTestId('log-row-100');
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('log-download'));
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toContain('starts in 3 s');
    await tick(1000);
    fireEvent.click(screen.getByTestId('log-download-cancel'));
    await tick(5000);
    expect(api.callsTo('POST /log/system/download/cancel').map((c) => c.query.get('job'))).toEqual([jobId]);
    expect(api.callsTo('GET /log/archive')).toHaveLength(0);
    expect(saved).toEqual([]);
  });

  it('a job the server reports as failed says so', async () => {
    await openLog({
      'GET /log/system/download': (call: ApiCall) => ok(call.query.get('job') ? job({ state: 'failed' }) : job()),
    });
    await screen.findByTestId('log-row-100');
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('log-download'));
    await tick(1000);
    expect(screen.getByTestId('log-download-status').textContent).toBe('Packing the log failed. Please try again.');
    expect(within(screen.getByTestId('log-download-close')).getByText('Close')).toBeTruthy();
  });

  it('the auditor may export the log too (read and export)', async () => {
    await openLog({}, 'auditor');
    expect(await screen.findByTestId('log-download')).toBeTruthy();
  });
});
