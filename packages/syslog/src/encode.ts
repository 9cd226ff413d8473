import iconv from 'iconv-lite';
import type { SyslogCharset } from './format.ts';

/** The MSG part is capped at 8 KiB (BOM included): room under any UDP limit and most receivers' defaults. */
export const maxMsgBytes = 8 * 1024;

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

const iconvNames = {
  'utf-8': 'utf8',
  'utf-8-bom': 'utf8',
  gbk: 'gbk',
  gb18030: 'gb18030',
  big5: 'big5',
} as const satisfies Record<SyslogCharset, Parameters<typeof iconv.encode>[1]>;

/**
 * Encodes MSG text in `charset`, cut to `limit` bytes at a character boundary. Characters a
 * legacy charset cannot represent become `?` (iconv-lite's default).
 */
export function encodeMsg(text: string, charset: SyslogCharset, limit = maxMsgBytes): Buffer {
  const prefix = charset === 'utf-8-bom' ? bom : Buffer.alloc(0);
  const encode = (s: string): Buffer => iconv.encode(s, iconvNames[charset]);
  const budget = Math.max(0, limit - prefix.length);
  let body = encode(text);
  if (body.length > budget) body = encode(longestFitting(text, budget, encode));
  return prefix.length > 0 ? Buffer.concat([prefix, body]) : body;
}

/**
 * The longest prefix of `text` whose encoding fits in `budget` bytes. GBK and Big5 bytes do not
 * show where a character starts, so cut the string, not the bytes: binary search over prefixes,
 * never splitting a surrogate pair. Every character takes at least one byte, so no prefix longer
 * than `budget` code units can fit.
 */
function longestFitting(text: string, budget: number, encode: (s: string) => Buffer): string {
  const cut = (n: number): string => {
    const last = text.charCodeAt(n - 1);
    return text.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
  };
  let fits = 0;
  let tooLong = Math.min(text.length, budget) + 1;
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >>> 1;
    if (encode(cut(mid)).length <= budget) fits = mid;
    else tooLong = mid;
  }
  return cut(fits);
}
