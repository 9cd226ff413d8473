import { createElement } from 'react';
import { Code, type Envelope } from '@rampart/contracts';
import { changeLanguage, i18next } from '../i18n/index.ts';
import { Markup } from '../components/Markup.tsx';
import { getStoredLanguage, isLanguage, storeLanguage } from '../storage/language.ts';
import { ApiError } from './errors.ts';
import { feedback } from './feedback.ts';

/** How long the success and warning modals stay before closing themselves (spec, section 9). */
export const successModalMs = 1500;
export const warningModalMs = 3000;

export interface EnvelopeOptions {
  /** No modal at all (background polling). */
  quiet?: boolean;
  /** The caller shows errors itself (e.g. the register page's failure screen). */
  errorModal?: boolean;
}

export function isEnvelope(body: unknown): body is Envelope {
  return (
    typeof body === 'object' && body !== null &&
    typeof (body as { code?: unknown }).code === 'number' && typeof (body as { msg?: unknown }).msg === 'string'
  );
}

/** A response in another language than the stored one means the server's choice wins (spec, section 4). */
export function adoptLanguage(lang: unknown): void {
  if (!isLanguage(lang) || lang === getStoredLanguage()) return;
  storeLanguage(lang);
  changeLanguage(lang);
}

/** Closes a self-closing modal after `ms`. */
export function closeAfter(handle: { destroy(): void }, ms: number): void {
  setTimeout(() => {
    // The page went away before the modal closed itself (in tests: the DOM was torn down): nothing to close.
    if (typeof window === 'undefined') return;
    handle.destroy();
  }, ms);
}

const content = (msg: string) => createElement(Markup, { html: msg });

/**
 * Applies the envelope rules: 200 passes through, 0 succeeds (a message shows and closes after 1.5 s,
 * or waits for "I know" when onok is set), 1 warns for 3 s and still resolves (the call did happen),
 * 500 rejects silently, anything else shows an error modal and rejects.
 */
export function handleEnvelope<T>(env: Envelope<T>, options: EnvelopeOptions = {}): T {
  adoptLanguage(env.lang);
  const show = !options.quiet;
  switch (env.code) {
    case Code.pass:
      return env.data as T;
    case Code.ok:
      if (show && env.msg) {
        if (env.onok) feedback().success({ content: content(env.msg), okText: i18next.t('common.i_know') });
        else closeAfter(feedback().success({ content: content(env.msg) }), successModalMs);
      }
      return env.data as T;
    case Code.warning:
      if (show && env.msg) closeAfter(feedback().warning({ content: content(env.msg) }), warningModalMs);
      return env.data as T;
    case Code.silent:
      throw new ApiError('silent', env.msg, { code: env.code });
    default:
      if (show && options.errorModal !== false) feedback().error({ content: content(env.msg) });
      throw new ApiError('envelope', env.msg, { code: env.code, data: env.data });
  }
}
