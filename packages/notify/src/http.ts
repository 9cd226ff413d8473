/** A request a sender wants made: built by a pure function, sent by `sendHttp` with any fetch. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpReply {
  status: number;
  text: string;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; redirect: 'error' }) => Promise<{ status: number; text(): Promise<string> }>;

/** Why a delivery failed, in words the administrator can act on (no secrets in them). */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Longest wait for a provider's answer; an alert never holds the console for long. */
export const defaultTimeoutMs = 10_000;

/** Makes the request; a network failure or timeout becomes a DeliveryError. Redirects are refused. */
export async function sendHttp(request: HttpRequest, fetchFn: FetchLike = globalThis.fetch, timeoutMs = defaultTimeoutMs): Promise<HttpReply> {
  try {
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    return { status: response.status, text: (await response.text()).slice(0, 64 * 1024) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') throw new DeliveryError(`no answer from ${hostOf(request.url)} within ${timeoutMs / 1000} s`);
    throw new DeliveryError(`cannot reach ${hostOf(request.url)}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
}

/** The host alone: URLs may carry keys (a robot key, a token) that must not reach a log. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}

export function parseJson(reply: HttpReply, what: string): unknown {
  try {
    return JSON.parse(reply.text) as unknown;
  } catch {
    throw new DeliveryError(`${what} answered HTTP ${reply.status} without JSON`);
  }
}
