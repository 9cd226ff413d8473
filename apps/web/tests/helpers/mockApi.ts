import { vi } from 'vitest';

export interface MockReply {
  status?: number;
  body?: unknown;
  /** A file instead of a JSON body (downloads), with its own headers. */
  file?: { text: string; headers?: Record<string, string> };
}

export type Handler = MockReply | ((call: ApiCall) => MockReply | Promise<MockReply>);

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export const ok = (data: unknown, msg = ''): MockReply => ({ body: { code: 0, msg, data } });

/** HTTP 400 as the console answers bad input: code 2, a message, and the field it belongs to. */
export const refused = (msg: string, field?: string): MockReply => ({ status: 400, body: { code: 2, msg, lang: 'en-US', ...(field ? { data: { field } } : {}) } });

/** A file download (archive, snapshot). */
export const file = (text: string, name?: string): MockReply => ({
  file: { text, headers: name ? { 'Content-Disposition': `attachment; filename="${name}"` } : {} },
});

/**
 * Replaces fetch with a table of "METHOD /path" → reply (path without /magapi and the query).
 * Unknown calls answer 404 so a test notices a call it did not expect.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const path = url.pathname.replace(/^\/magapi/, '');
    const method = init?.method ?? 'GET';
    const call: ApiCall = {
      method,
      path,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = handlers[`${method} ${path}`];
    const reply = typeof handler === 'function' ? await handler(call) : (handler ?? { status: 404, body: { code: 2, msg: 'not mocked' } });
    if (reply.file) {
      return new Response(reply.file.text, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/octet-stream', ...reply.file.headers } });
    }
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
