import { i18next } from '../i18n/index.ts';
import { getStoredLanguage } from '../storage/language.ts';
import { clearToken, getToken } from '../storage/token.ts';
import { handleEnvelope, isEnvelope, type EnvelopeOptions } from './envelope.ts';
import { ApiError } from './errors.ts';
import { feedback } from './feedback.ts';
import { currentPath, loginPathFor, navigateTo, registerPath } from './navigation.ts';

export const apiPrefix = '/magapi';

/**
 * Ordinary calls give up after 6 s (the spec's first reading). Every call the console answers is a
 * local database read or an agent call with its own short deadline, so a longer wait means the
 * console is down; the user is better served by an error than by a spinner for minutes.
 */
export const defaultTimeoutMs = 6000;

/** Statuses that still carry a normal envelope (validation errors, oversized bodies, rate limits). */
const envelopeStatuses = new Set([400, 413, 429]);

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions extends EnvelopeOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, QueryValue>;
  body?: unknown;
  timeoutMs?: number;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return `${apiPrefix}${path}${qs ? `?${qs}` : ''}`;
}

function headersFor(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': getStoredLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (hasBody) headers['Content-Type'] = 'application/json';
  return headers;
}

function messageOf(body: unknown, fallback: string): string {
  return isEnvelope(body) && body.msg ? body.msg : fallback;
}

/** Tells the user about a failure that is not an envelope, then returns the error to throw. */
function failure(error: ApiError, title: string, options: RequestOptions): ApiError {
  if (!options.quiet) feedback().notifyError({ title, description: error.message });
  return error;
}

function handleStatus<T>(status: number, statusText: string, body: unknown, options: RequestOptions): T {
  if (status === 401) {
    // The session is gone: forget the token and come back here after signing in again.
    clearToken();
    const from = currentPath();
    if (!from.startsWith('/user/')) navigateTo(loginPathFor(from));
    throw new ApiError('unauthorized', messageOf(body, statusText), { status });
  }
  if (status === 503) {
    // Not registered (or the licence lapsed): the token is of no use until the software is registered
    // again, and keeping it would bounce the register page back into the console.
    clearToken();
    const error = failure(new ApiError('not_registered', messageOf(body, statusText), { status }), i18next.t('error.title_503'), options);
    if (!currentPath().startsWith(registerPath)) navigateTo(registerPath);
    throw error;
  }
  if (status === 403 || status === 404) {
    const title = i18next.t(status === 403 ? 'error.title_403' : 'error.title_404');
    throw failure(new ApiError('http', messageOf(body, statusText), { status }), title, options);
  }
  if (isEnvelope(body) && ((status >= 200 && status < 300) || envelopeStatuses.has(status))) {
    return handleEnvelope<T>(body as never, options);
  }
  const error = new ApiError(isEnvelope(body) || status >= 300 ? 'http' : 'bad_response',
    messageOf(body, statusText || i18next.t('error.bad_response')), { status });
  throw failure(error, `HTTP ${status}`, options);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one call and reads its answer with `read`, both under one deadline. Network failures and
 * timeouts are told to the user and rejected here; statuses are the caller's business.
 */
async function send<B>(path: string, options: RequestOptions, accept: string, read: (res: Response) => Promise<B>): Promise<{ res: Response; body: B }> {
  const hasBody = options.body !== undefined;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? defaultTimeoutMs);
  try {
    const res = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers: { ...headersFor(hasBody), Accept: accept },
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: controller.signal,
    });
    return { res, body: await read(res) };
  } catch (e) {
    const error = timedOut
      ? new ApiError('timeout', i18next.t('error.timeout'))
      : new ApiError('network', e instanceof Error ? e.message : String(e));
    const title = timedOut ? 'TimeoutError' : e instanceof Error ? e.name : i18next.t('error.network');
    throw failure(error, title, options);
  } finally {
    clearTimeout(timer);
  }
}

/** One call of the console API; resolves with the envelope's data. */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { res, body } = await send(path, options, 'application/json', readBody);
  return handleStatus<T>(res.status, res.statusText, body, options);
}

/** Downloads (archives, snapshots) may be large and slow to pack: they get longer than ordinary calls. */
export const blobTimeoutMs = 120_000;

export interface BlobResult {
  blob: Blob;
  /** The name from Content-Disposition, when the server sent one. */
  filename: string | undefined;
}

function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("?)([^";]+)\1/i.exec(disposition);
  return plain?.[2]?.trim() || undefined;
}

const isJson = (res: Response) => (res.headers.get('Content-Type') ?? '').includes('application/json');

/**
 * A file from the console API, fetched with the token (a plain link cannot send the Authorization
 * header). Failures go through the same rules as `request`: 401 signs out, an envelope error shows
 * its message. A JSON envelope where a file was expected is an error too.
 */
export async function fetchBlob(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<BlobResult> {
  const opts: RequestOptions = { timeoutMs: blobTimeoutMs, ...options, method: 'GET' };
  const { res, body } = await send(path, opts, '*/*', (r) => r.blob());
  if (res.ok && !isJson(res)) return { blob: body, filename: filenameOf(res.headers.get('Content-Disposition')) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await body.text()) as unknown;
  } catch {
    parsed = undefined;
  }
  if (res.ok && !isEnvelope(parsed)) return { blob: body, filename: filenameOf(res.headers.get('Content-Disposition')) };
  handleStatus(res.status, res.statusText, parsed, opts);
  // An envelope that succeeded carries no file.
  throw failure(new ApiError('bad_response', i18next.t('error.not_a_file')), i18next.t('error.request_failed'), opts);
}

export const get = <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request<T>(path, { ...options, method: 'GET' });

export const post = <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  // No body at all when there is no data: the server refuses bodies on data-less POSTs (logout, restart).
  request<T>(path, { ...options, method: 'POST', body });
