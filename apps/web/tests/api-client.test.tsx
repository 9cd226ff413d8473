import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, post, defaultTimeoutMs } from '../src/api/http.ts';
import { setNavigation } from '../src/api/navigation.ts';
import { ApiError } from '../src/api/errors.ts';
import { i18next } from '../src/i18n/index.ts';
import { getToken, setToken } from '../src/storage/token.ts';
import { mockApi, ok } from './helpers/mockApi.ts';
import { spyFeedback } from './helpers/spyFeedback.ts';

function fakeNavigation(path: string) {
  const visited: string[] = [];
  setNavigation({ go: (to) => void visited.push(to), current: () => path });
  return visited;
}

/** Renders modal content (a React element) to see the text the user would read. */
function textOf(node: unknown): string {
  const { container, unmount } = render(node as ReactElement);
  const text = container.innerHTML;
  unmount();
  return text;
}

afterEach(() => {
  void i18next.changeLanguage('en-US');
});

describe('request basics', () => {
  it('sends the token, the language and a JSON body under /magapi', async () => {
    setToken('tok-123', true);
    const api = mockApi({ 'POST /setpwd': ok(null) });
    await post('/setpwd', { a: 1 });
    const [call] = api.calls;
    expect(call?.path).toBe('/setpwd');
    expect(call?.headers.Authorization).toBe('Bearer tok-123');
    expect(call?.headers['Accept-Language']).toBe('en-US');
    expect(call?.headers['Content-Type']).toBe('application/json');
    expect(call?.body).toEqual({ a: 1 });
    expect(String(api.fetchMock.mock.calls[0]?.[0])).toBe('/magapi/setpwd');
  });

  it('gives up after 6 s and tells the user', async () => {
    vi.useFakeTimers();
    const fb = spyFeedback();
    vi.stubGlobal('fetch', vi.fn((_url: string, init: RequestInit) => new Promise((_r, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    })));
    const pending = get('/info').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(defaultTimeoutMs - 1);
    expect(fb.notifyError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = (await pending) as ApiError;
    expect(error.kind).toBe('timeout');
    expect(fb.notifyError).toHaveBeenCalledTimes(1);
  });
});

describe('envelope codes', () => {
  it('code 200 passes the data through without any modal', async () => {
    const fb = spyFeedback();
    mockApi({ 'GET /x': { body: { code: 200, msg: 'ignored', data: { n: 1 } } } });
    await expect(get('/x')).resolves.toEqual({ n: 1 });
    expect(fb.success).not.toHaveBeenCalled();
  });

  it('code 0 with an empty msg resolves quietly', async () => {
    const fb = spyFeedback();
    mockApi({ 'GET /x': ok({ n: 2 }) });
    await expect(get('/x')).resolves.toEqual({ n: 2 });
    expect(fb.success).not.toHaveBeenCalled();
  });

  it('code 0 with a msg shows a success modal that closes after 1.5 s', async () => {
    vi.useFakeTimers();
    const fb = spyFeedback();
    mockApi({ 'POST /x': ok(null, 'Saved <b>now</b>') });
    await post('/x');
    expect(fb.success).toHaveBeenCalledTimes(1);
    expect(textOf(fb.success.mock.calls[0]?.[0].content)).toContain('Saved <b>now</b>');
    vi.advanceTimersByTime(1499);
    expect(fb.destroyed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fb.destroyed).toEqual(['success']);
  });

  it('code 0 with onok keeps the modal open with an "I know" button', async () => {
    vi.useFakeTimers();
    const fb = spyFeedback();
    mockApi({ 'POST /x': { body: { code: 0, msg: 'Read this', onok: 1 } } });
    await post('/x');
    expect(fb.success.mock.calls[0]?.[0].okText).toBe('I know');
    vi.advanceTimersByTime(60_000);
    expect(fb.destroyed).toEqual([]);
  });

  it('code 1 shows a warning modal for 3 s and still resolves', async () => {
    vi.useFakeTimers();
    const fb = spyFeedback();
    mockApi({ 'POST /x': { body: { code: 1, msg: 'Saved, agent down', data: 'd' } } });
    await expect(post('/x')).resolves.toBe('d');
    expect(fb.warning).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2999);
    expect(fb.destroyed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fb.destroyed).toEqual(['warning']);
  });

  it('code 2 shows an error modal with the message and rejects', async () => {
    const fb = spyFeedback();
    mockApi({ 'POST /x': { body: { code: 2, msg: 'Wrong account or password' } } });
    await expect(post('/x')).rejects.toMatchObject({ kind: 'envelope', code: 2, message: 'Wrong account or password' });
    expect(fb.error).toHaveBeenCalledTimes(1);
    expect(textOf(fb.error.mock.calls[0]?.[0].content)).toContain('Wrong account or password');
  });

  it('code 500 rejects without telling the user', async () => {
    const fb = spyFeedback();
    mockApi({ 'POST /x': { body: { code: 500, msg: 'hidden' } } });
    await expect(post('/x')).rejects.toMatchObject({ kind: 'silent' });
    expect([fb.success, fb.warning, fb.error, fb.notifyError].every((s) => s.mock.calls.length === 0)).toBe(true);
  });

  it('an HTTP 400 with an envelope body is handled as the envelope (validation errors)', async () => {
    const fb = spyFeedback();
    mockApi({ 'POST /x': { status: 400, body: { code: 2, msg: 'Licence codes look like AAA-BBB' } } });
    await expect(post('/x')).rejects.toMatchObject({ kind: 'envelope' });
    expect(fb.error).toHaveBeenCalledTimes(1);
    expect(fb.notifyError).not.toHaveBeenCalled();
  });

  it('renders markup in the modal but strips scripts and handlers', async () => {
    const fb = spyFeedback();
    mockApi({ 'POST /x': { body: { code: 2, msg: '<b>bold</b><img src=x onerror="alert(1)"><script>alert(2)</script>' } } });
    await post('/x').catch(() => undefined);
    const html = textOf(fb.error.mock.calls[0]?.[0].content);
    expect(html).toContain('<b>bold</b>');
    expect(html).not.toMatch(/onerror|script|img/);
  });
});

describe('HTTP statuses', () => {
  it('401 clears the token and goes to sign-in with the current path as redirect', async () => {
    setToken('old', true);
    const visited = fakeNavigation('/firewall/rule_in?page=2');
    spyFeedback();
    mockApi({ 'GET /info': { status: 401, body: { code: 2, msg: 'Your session has ended' } } });
    await expect(get('/info')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(getToken()).toBeNull();
    expect(visited).toEqual([`/user/login?redirect=${encodeURIComponent('/firewall/rule_in?page=2')}`]);
  });

  it('503 goes to the register page with a "Service Error" notification', async () => {
    const visited = fakeNavigation('/dashboard');
    const fb = spyFeedback();
    mockApi({ 'GET /info': { status: 503, body: { code: 2, msg: 'Not registered' } } });
    await expect(get('/info')).rejects.toBeInstanceOf(ApiError);
    expect(visited).toEqual(['/user/register']);
    expect(fb.notifyError).toHaveBeenCalledWith({ title: '503 Service Error', description: 'Not registered' });
  });

  it('403 and 404 show a notification titled for the status with the server message', async () => {
    fakeNavigation('/dashboard');
    const fb = spyFeedback();
    mockApi({
      'GET /a': { status: 403, body: { code: 2, msg: 'This account has no permission' } },
      'GET /b': { status: 404, body: { code: 2, msg: 'No such API' } },
    });
    await get('/a').catch(() => undefined);
    await get('/b').catch(() => undefined);
    expect(fb.notifyError.mock.calls.map((c) => c[0])).toEqual([
      { title: '403 Access Denied', description: 'This account has no permission' },
      { title: '404 Route Not Found', description: 'No such API' },
    ]);
    expect(fb.error).not.toHaveBeenCalled();
  });

  it('a network failure shows the error name and message', async () => {
    const fb = spyFeedback();
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(get('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(fb.notifyError).toHaveBeenCalledWith({ title: 'TypeError', description: 'Failed to fetch' });
  });

  it('adopts a language in the response that differs from the stored one', async () => {
    spyFeedback();
    mockApi({ 'GET /x': { body: { code: 0, msg: '', data: 1, lang: 'zh-CN' } } });
    await get('/x');
    expect(localStorage.getItem('rampart.lang')).toBe('zh-CN');
    expect(i18next.language).toBe('zh-CN');
  });

  it('ignores a language it does not know', async () => {
    spyFeedback();
    mockApi({ 'GET /x': { body: { code: 0, msg: '', data: 1, lang: 'fr-FR' } } });
    await get('/x');
    expect(localStorage.getItem('rampart.lang')).toBe('en-US');
  });
});
