import {
  licenceActivateResponseSchema, licenceErrorSchema, licenceStatusResponseSchema,
  type LicenceActivateResponse, type LicenceError, type LicenceStatusResponse,
} from '@rampart/contracts';

export type AuthorityAnswer<T> = { ok: true; value: T } | { ok: false; error: LicenceError | 'unreachable' };

/** Talks to the licence authority over HTTP; every answer is checked against the contract. */
export class LicenceClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;

  constructor(baseUrl: string, timeoutMs = 8000) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
  }

  activate(body: { code: string; device_id: string; confirm_move: boolean }): Promise<AuthorityAnswer<LicenceActivateResponse>> {
    return this.post('/v1/activate', body, (v) => licenceActivateResponseSchema.parse(v));
  }

  status(body: { code: string; device_id: string }): Promise<AuthorityAnswer<LicenceStatusResponse>> {
    return this.post('/v1/status', body, (v) => licenceStatusResponseSchema.parse(v));
  }

  private async post<T>(path: string, body: unknown, parse: (v: unknown) => T): Promise<AuthorityAnswer<T>> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      return { ok: false, error: 'unreachable' };
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      return { ok: false, error: 'unreachable' };
    }
    if (res.ok) {
      try {
        return { ok: true, value: parse(json) };
      } catch {
        return { ok: false, error: 'unreachable' };
      }
    }
    const err = licenceErrorSchema.safeParse(json);
    return { ok: false, error: err.success ? err.data.error : 'unreachable' };
  }
}
