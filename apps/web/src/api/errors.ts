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

  constructor(kind: ApiErrorKind, message: string, extra: { status?: number; code?: number } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = extra.status;
    this.code = extra.code;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
