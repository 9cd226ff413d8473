/**
 * Overlong UTF-8 (`%c0%af` for '/', `%e0%80%ae` for '.'), read in context. No encoder produces it;
 * decoders that accept it turn it into the very characters filters look for (CRS 920250, IIS's
 * unicode bug). One reader for every caller (the request-line check and the traversal detector's
 * path folding), so they agree on which forms are evasion and which are text.
 *
 * The two-byte forms (C0/C1 then a continuation byte) are also ordinary text in legacy charsets a
 * form may still post in: windows-1251 `А»` (as in `«РОМАШКА»`) is C0 BB, `АЇ` (`УКРАЇНА`) C0 AF,
 * windows-1252 `Á©` C1 A9. So a two-byte form weighs:
 * - 2 when it completes a traversal (`..%c0%af`, `%c0%ae%c0%ae/`), wherever it stands; an overlong
 *   separator before plain dots is not one (all-caps Ukrainian ending in `АЇ` before an ellipsis,
 *   `КРАЇ...`, writes exactly that);
 * - 2 when it stands among ASCII (no byte 0x80-0xFF beside it) and decodes to a character that
 *   breaks out of a path or markup (`/ \ < > " ' | & $`, NUL, CR, LF): legacy text puts such pairs
 *   (`АЇ`, `Аў`) inside a word, between other letters' bytes, not alone between ASCII;
 * - 1 when it spells a letter or digit inside an ASCII word (`sel%c1%a5ct`): no text has a Cyrillic
 *   letter pair there;
 * - 0 otherwise (`+%C0%A0` is windows-1251 `А` and a no-break space).
 * The three- and four-byte forms that decode to ASCII (`%e0%80%af`, `%f0%80%80%af`) spell nothing in
 * any legacy charset (windows-1251 `аЂЇ`): 2 wherever they are. Those that decode to a non-ASCII
 * character (`%e0%85%bb`, windows-1251 `а…»` ending a quotation) hide nothing from a filter and are
 * not forms here.
 *
 * Bytes are read as `%hh` escapes or as raw characters up to U+00FF (a body read as latin-1 holds
 * `À¯` for the bytes C0 AF); with `doubleEscaped`, `%25hh` is a byte too (the raw reading of a value
 * encoded twice).
 */
import { hexValue } from './url.ts';

export interface OverlongForm {
  /** Where the form starts and ends in the text. */
  start: number;
  end: number;
  /** The ASCII character it decodes to. */
  code: number;
  /** How much it looks like evasion: 2 an attack's work, 1 odd, 0 legacy-charset text. */
  weight: 0 | 1 | 2;
}

export interface OverlongOptions {
  doubleEscaped?: boolean;
}

/**
 * Characters a lenient decoder should not be handed: path and markup breakers, NUL and line breaks.
 * Not `.`, `;`, `` ` ``: windows-1251 writes them after a one-letter word (`Серия А®` is C0 AE, an
 * overlong '.'; `«Литера А»` ends in C0 BB, ';'; `Б` and a no-break space are C1 A0, '`'), and
 * alone they break nothing (a dot that makes a traversal is counted as one).
 */
const breakerCodes = new Set([0, 10, 13, ...[...'/\\<>"\'|&$'].map((c) => c.charCodeAt(0))]);

/** A byte that may begin an overlong form, escaped (`%c0`, `%25c0`) or raw (`À`): a cheap gate. */
const gate = /%(?:25)?(?:c[01]|e0|f0)|[\u00c0\u00c1\u00e0\u00f0]/i;

interface Unit {
  /** The byte (or character code, for a raw character) at this place of the text. */
  code: number;
  /** Start of the next unit in the text. */
  next: number;
}

/** The byte an escape `%hh` (or `%25hh`) at i stands for, or the raw character there. */
function unitAt(t: string, i: number, doubleEscaped: boolean): Unit {
  if (t.charCodeAt(i) === 37 /* % */) {
    const twice = doubleEscaped && t.charCodeAt(i + 1) === 50 && t.charCodeAt(i + 2) === 53 && hexValue(t.charCodeAt(i + 3)) >= 0 && hexValue(t.charCodeAt(i + 4)) >= 0;
    const at = twice ? i + 3 : i + 1;
    const high = hexValue(t.charCodeAt(at));
    const low = hexValue(t.charCodeAt(at + 1));
    if (high >= 0 && low >= 0) return { code: high * 16 + low, next: at + 2 };
  }
  return { code: t.charCodeAt(i), next: i + 1 };
}

const isContinuation = (b: number) => b >= 0x80 && b <= 0xbf;
const isWordCode = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

interface Form {
  start: number;
  end: number;
  code: number;
  /** A three- or four-byte form: no legacy text collides with it. */
  long: boolean;
}

/** The overlong form that starts at i, or null. */
function formAt(t: string, i: number, doubleEscaped: boolean): Form | null {
  const a = unitAt(t, i, doubleEscaped);
  if (a.code !== 0xc0 && a.code !== 0xc1 && a.code !== 0xe0 && a.code !== 0xf0) return null;
  const b = unitAt(t, a.next, doubleEscaped);
  if (!isContinuation(b.code)) return null;
  if (a.code === 0xc0 || a.code === 0xc1) return { start: i, end: b.next, code: ((a.code & 1) << 6) | (b.code & 0x3f), long: false };
  if (a.code === 0xe0 && b.code > 0x81) return null; // decodes past ASCII
  if (a.code === 0xf0 && b.code !== 0x80) return null;
  const c = unitAt(t, b.next, doubleEscaped);
  if (!isContinuation(c.code)) return null;
  if (a.code === 0xe0) return { start: i, end: c.next, code: ((b.code & 1) << 6) | (c.code & 0x3f), long: true };
  if (c.code > 0x81) return null;
  const d = unitAt(t, c.next, doubleEscaped);
  if (!isContinuation(d.code)) return null;
  return { start: i, end: d.next, code: ((c.code & 1) << 6) | (d.code & 0x3f), long: true };
}

const dot = 46;
const isSep = (c: number | undefined) => c === 47 || c === 92;

/** Every overlong form in the text, in order, each weighed in its context. */
export function findOverlongForms(text: string, options: OverlongOptions = {}): OverlongForm[] {
  if (!gate.test(text)) return [];
  const doubleEscaped = options.doubleEscaped ?? false;
  // The text read once: each place's code, and whether an overlong form wrote it.
  const codes: number[] = [];
  const fromForm: (Form | null)[] = [];
  for (let i = 0; i < text.length; ) {
    const form = formAt(text, i, doubleEscaped);
    if (form) {
      codes.push(form.code);
      fromForm.push(form);
      i = form.end;
    } else {
      const u = unitAt(text, i, doubleEscaped);
      codes.push(u.code);
      fromForm.push(null);
      i = u.next;
    }
  }
  const found: OverlongForm[] = [];
  let prev = -1; // the code before the current run of forms (-1 at the start)
  let next = -1; // the code after it (-1 at the end)
  for (let k = 0; k < codes.length; k++) {
    const form = fromForm[k];
    if (!form) continue;
    if (!fromForm[k - 1]) {
      // A run of forms starts: its neighbours outside it, found once per run.
      let after = k + 1;
      while (after < codes.length && fromForm[after]) after++;
      prev = k > 0 ? codes[k - 1]! : -1;
      next = after < codes.length ? codes[after]! : -1;
    }
    const weigh = (weight: 0 | 1 | 2) => found.push({ start: form.start, end: form.end, code: form.code, weight });
    if (form.long || completesTraversal(codes, fromForm, k)) weigh(2);
    else if (prev >= 0x80 || next >= 0x80) weigh(0); // inside legacy-charset text
    else if (breakerCodes.has(form.code)) weigh(2);
    else if (isWordCode(form.code) && isWordCode(prev) && isWordCode(next)) weigh(1);
    else weigh(0);
  }
  return found;
}

/** Part of `../` once decoded, or of `/..` with an overlong dot: the traversal the form exists for. */
function completesTraversal(codes: readonly number[], fromForm: readonly (Form | null)[], k: number): boolean {
  const c = codes[k];
  if (c !== dot && !isSep(c)) return false;
  for (let s = Math.max(0, k - 2); s <= k; s++) {
    const [x, y, z] = [codes[s], codes[s + 1], codes[s + 2]];
    if (x === dot && y === dot && isSep(z)) return true;
    if (isSep(x) && y === dot && z === dot && (fromForm[s + 1] || fromForm[s + 2])) return true;
  }
  return false;
}
