import type { FormItemProps } from 'antd';
import { isMessageKey, translate, type Language } from '@rampart/contracts';

/** Messages by field, keyed by the dotted path the server also uses (`syslog.servers.0.host`). */
export type FieldErrors = Readonly<Record<string, string>>;

export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Zod issues of a contract schema → messages by field, in `lang`. The schemas' messages are message
 * keys (messages.ts); an issue without one reads as "the request is not valid". First issue wins.
 */
export function issuesToErrors(issues: readonly IssueLike[], lang: Language): FieldErrors {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in out)) out[key] = translate(lang, isMessageKey(issue.message) ? issue.message : 'bad_request');
  }
  return out;
}

/** Form.Item props that show the error of `path`, with a test id `<prefix>-error-<path>`. */
export function errorProps(errors: FieldErrors, path: string, prefix: string): Pick<FormItemProps, 'validateStatus' | 'help'> {
  const message = errors[path];
  if (message === undefined) return {};
  return { validateStatus: 'error', help: <span data-testid={`${prefix}-error-${path}`}>{message}</span> };
}

/** Errors without the one of `path` and those below it (after the user changed that field). */
export function withoutError(errors: FieldErrors, path: string): FieldErrors {
  if (!Object.keys(errors).some((k) => k === path || k.startsWith(`${path}.`))) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([k]) => k !== path && !k.startsWith(`${path}.`)));
}
