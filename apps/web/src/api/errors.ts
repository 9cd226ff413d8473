export type ApiErrorKind =
  | 'unauthorized' // HTTP 401: the session is gone
  | 'not_registered' // HTTP 503
  | 'http' // any other HTTP failure
  | 'envelope' // the server answered an error code in the envelope
  | 'silent' // envelope code 500: rejected without telling the user
  | 'network'
  | 'timeout'
  | 'bad_response';

/** Every rejection of the API client. The user has already been told (unless kind is 'silent'). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: number | undefined;
  /** The envelope's data, when the server sent any with the error (e.g. `{field}` on HTTP 400). */
  readonly data: unknown;

  constructor(kind: ApiErrorKind, message: string, extra: { status?: number; code?: number; data?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = extra.status;
    this.code = extra.code;
    this.data = extra.data;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The field a refused input names (`data.field`, a dotted path like `syslog.servers.0.host`), if any. */
export function errorField(e: unknown): string | undefined {
  if (!isApiError(e) || typeof e.data !== 'object' || e.data === null) return undefined;
  const field = (e.data as { field?: unknown }).field;
  return typeof field === 'string' && field !== '' ? field : undefined;
}
