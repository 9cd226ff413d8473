import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { isMessageKey, translate, type Language } from '@rampart/contracts';
import type { FieldErrors, IssueLike } from '../../components/forms/fieldErrors.tsx';

/* Helpers the firewall forms share: address lines, schema messages, file reading, a ticking clock. */

/** One entry of a multi-line address box, with the line it was typed on (1-based). */
export interface EntryLine {
  line: number;
  text: string;
}

/**
 * The entries of a text box, one per line; commas and semicolons also separate entries on a line.
 * Empty lines are skipped but still counted, so a message can name the line the user sees.
 */
export function entryLines(text: string): EntryLine[] {
  return text.split(/\r?\n/).flatMap((raw, i) =>
    raw
      .split(/[,;]/)
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => ({ line: i + 1, text: part })),
  );
}

/**
 * Zod issues of a contract schema → messages by dotted path, in `lang`, with `{name}` placeholders
 * filled from `params` (e.g. `{max}`). First issue per path wins.
 */
export function schemaErrors(issues: readonly IssueLike[], lang: Language, params?: Record<string, string | number>): FieldErrors {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in out)) out[key] = translate(lang, isMessageKey(issue.message) ? issue.message : 'bad_request', params);
  }
  return out;
}

/**
 * Folds the errors of single entries (`ips.3`) into one message on the box (`ips`) that names the
 * line and its text, so the user sees which line is wrong. Other errors pass through.
 */
export function foldLineErrors(
  errors: FieldErrors,
  field: string,
  lines: readonly EntryLine[],
  describe: (entry: EntryLine, message: string) => string,
): FieldErrors {
  const out: Record<string, string> = {};
  const prefix = `${field}.`;
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(prefix) && /^\d+$/.test(key.slice(prefix.length))) {
      const entry = lines[Number(key.slice(prefix.length))];
      if (!(field in out)) out[field] = entry ? describe(entry, message) : message;
    } else if (!(key in out)) {
      out[key] = message;
    }
  }
  return out;
}

/** The text of an uploaded file, read in the browser. */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

/** The current time, refreshed every `everyMs`, for countdowns and "time left" columns. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

/** Whole days, hours and minutes of a span (rounded up to the minute), for "time left". */
export function spanParts(ms: number): { d: number; h: number; m: number } {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  return { d: Math.floor(minutes / 1440), h: Math.floor((minutes % 1440) / 60), m: minutes % 60 };
}

/** A span as "2 d 3 h 5 min" in the page's language, leaving out the zero parts. */
export function spanText(ms: number, t: TFunction): string {
  const { d, h, m } = spanParts(ms);
  return [d > 0 && t('fw.span.d', { n: d }), h > 0 && t('fw.span.h', { n: h }), m > 0 && t('fw.span.m', { n: m })].filter(Boolean).join(' ');
}

/** After deleting the last rows of the last page, go back to the page that still exists. */
export function useClampPage(total: number | undefined, query: { page: number; size: number }, setPage: (page: number) => void): void {
  useEffect(() => {
    if (total === undefined) return;
    const last = Math.max(1, Math.ceil(total / query.size));
    if (query.page > last) setPage(last);
  }, [total, query.page, query.size, setPage]);
}
