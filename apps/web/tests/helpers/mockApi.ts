import { vi } from 'vitest';

export interface MockReply {
  status?: number;
  body?: unknown;
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
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
