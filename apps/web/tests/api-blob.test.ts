import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorField, type ApiError } from '../src/api/errors.ts';
import { fetchBlob, post } from '../src/api/http.ts';
import { setNavigation } from '../src/api/navigation.ts';
import { getToken, setToken } from '../src/storage/token.ts';
import { saveBlob } from '../src/utils/download.ts';
import { file, mockApi, refused } from './helpers/mockApi.ts';
import { spyFeedback } from './helpers/spyFeedback.ts';

function fakeNavigation(path: string) {
  const visited: string[] = [];
  setNavigation({ go: (to) => void visited.push(to), current: () => path });
  return visited;
}

afterEach(() => setNavigation(null));

describe('fetchBlob (downloads with the token)', () => {
  it('sends the Authorization header and returns the file with its name from Content-Disposition', async () => {
    setToken('tok-9', false);
    const api = mockApi({ 'GET /log/archive': file('csv,bytes', 'rampart-log-0123456789abcdef.csv.gz') });
    const { blob, filename } = await fetchBlob('/log/archive', { query: { file: 'rampart-log-0123456789abcdef.csv.gz' } });
    expect(await blob.text()).toBe('csv,bytes');
    expect(filename).toBe('rampart-log-0123456789abcdef.csv.gz');
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer tok-9');
    expect(api.calls[0]?.query.get('file')).toBe('rampart-log-0123456789abcdef.csv.gz');
  });

  it('reads an RFC 5987 filename*', async () => {
    mockApi({ 'GET /f': { file: { text: 'x', headers: { 'Content-Disposition': "attachment; filename*=UTF-8''%E6%97%A5%E5%BF%97.txt" } } } });
    expect((await fetchBlob('/f')).filename).toBe('日志.txt');
  });

  it('401 forgets the token and goes to sign-in, like every other call', async () => {
    setToken('tok-9', true);
    const visited = fakeNavigation('/log/system');
    mockApi({ 'GET /log/archive': { status: 401, body: { code: 2, msg: 'Your session has ended' } } });
    const error = (await fetchBlob('/log/archive').catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('unauthorized');
    expect(getToken()).toBeNull();
    expect(visited).toEqual([`/user/login?redirect=${encodeURIComponent('/log/system')}`]);
  });

  it('an envelope error instead of a file shows its message and rejects', async () => {
    const fb = spyFeedback();
    mockApi({ 'GET /log/archive': { body: { code: 2, msg: 'The download does not exist or has expired' } } });
    const error = (await fetchBlob('/log/archive').catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('envelope');
    expect(fb.error).toHaveBeenCalledTimes(1);
  });

  it('a 404 is told as a notification and rejects', async () => {
    const fb = spyFeedback();
    mockApi({});
    const error = (await fetchBlob('/nothing').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(fb.notifyError).toHaveBeenCalledTimes(1);
  });
});

describe('saveBlob', () => {
  it('saves through an object URL on an <a download>, then revokes it', () => {
    vi.useFakeTimers();
    const create = vi.fn(() => 'blob:x');
    const revoke = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke }));
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    saveBlob(new Blob(['a']), 'a.txt');
    expect(clicked).toEqual([{ href: 'blob:x', download: 'a.txt' }]);
    expect(document.querySelector('a[download]')).toBeNull();
    vi.advanceTimersByTime(1000);
    expect(revoke).toHaveBeenCalledWith('blob:x');
  });
});

describe('HTTP 400 with data.field', () => {
  it('rejects with the message and the field it names', async () => {
    spyFeedback();
    mockApi({ 'POST /system/log': refused('Enter a valid server address (IP or domain name)', 'syslog.servers.0.host') });
    const error = await post('/system/log', {}).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('Enter a valid server address (IP or domain name)');
    expect(errorField(error)).toBe('syslog.servers.0.host');
  });

  it('no field when the server names none', async () => {
    spyFeedback();
    mockApi({ 'POST /x': refused('The request is not valid') });
    expect(errorField(await post('/x', {}).catch((e: unknown) => e))).toBeUndefined();
  });
});
