/**
 * LDAP filter injection (RFC 4515 syntax): a value that closes the application's filter and opens
 * its own — ")(uid=*", "*)(|(objectclass=*))" — or that carries a complete filter with boolean
 * operators "(&(uid=admin)(!(…)))", or an extensible match "userPassword:2.5.13.18:=x".
 * A scanner reads the parenthesised items; prose with parentheses "(see above)" has no
 * attribute=value items and passes.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary } from '../text-shape.ts';

/** attr op value, where attr is a descriptor or an OID and op one of = ~= >= <= := */
const item = /^\(\s*([a-z][a-z0-9-]*|\d+(?:\.\d+)+)(?:;[a-z0-9-]+)*(?::[a-z0-9.:-]*)?\s*(?:~=|>=|<=|:=|=)/i;

export function detectLdap(value: string, location: InputLocation): DetectorHit | null {
  try {
    if (location === 'file_content' || location === 'xml' || (location === 'raw_body' && looksBinary(value))) return null;
    return detect(value);
  } catch {
    return null;
  }
}

function detect(value: string): DetectorHit | null {
  if (!value.includes('=') && !value.includes(')')) return null;
  const text = value.length > 4096 ? value.slice(0, 4096) : value;
  // "admin)(&)": close the filter and append the absolute-true filter (RFC 4526).
  const absolute = text.search(/\)\s*\(\s*[&|]\s*\)/);
  if (absolute >= 0) return hit('ldap.filter_injection', text, 2);
  // Closing the application's filter and opening an operator: "x)(|", "x)&(cn=", "*)!(sn=*" (CRS 921200).
  const opened = /\)\s*(?:\(\s*[&|!]|[&|!]\s*\(\s*[a-z][a-z0-9-]*\s*[~<>]?=)/i.exec(text);
  if (opened && !/^\s*\(/.test(text)) return hit('ldap.filter_injection', text, 2);
  const wholeFilter = balancedFilter(text);
  const ext = text.includes(':=') && /[a-z][a-z0-9-]*(?::dn)?:\d+(?:\.\d+){2,}:=/i.exec(text);
  // Active Directory's bit-mask rules (1.2.840.113556.1.4.803/804/1941) inside a whole, well-formed
  // filter: what an LDAP admin tool posts. Elsewhere an extensible match is an attack's probe.
  if (ext && !(wholeFilter && /:1\.2\.840\.113556\.1\.4\.(?:803|804|1941):=/.test(ext[0]))) return hit('ldap.extensible_match', text.slice(ext.index), 2);
  if (!text.includes('(')) return null;

  let items = 0;
  let operators = 0;
  let breakout = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '(') continue;
    const next = text[i + 1];
    if ((next === '&' || next === '|' || next === '!') && text[i + 2] === '(') operators++;
    else if (item.test(text.slice(i, i + 80))) {
      items++;
      // ")(" right before an item: the value closes the application's filter and adds its own.
      if (i > 0 && text[i - 1] === ')') breakout = true;
      if (i > 0 && text[i - 1] === '*' && (i < 2 || text[i - 2] !== '\\')) breakout = true;
    }
  }
  if (items === 0) return null;
  // A complete, balanced filter without negation or wildcards is a search someone wrote: its sibling
  // items follow a ')' naturally, which is not a breakout here.
  if (wholeFilter && !/[!*]/.test(text)) return null;
  if (operators > 0 && (items >= 1 || breakout)) return hit('ldap.filter_injection', text, 2);
  if (breakout) return hit('ldap.filter_injection', text, 2);
  // A single "(attr=value)": could be documentation of a search; suspicious only if it is the whole value.
  if (items === 1 && /^\s*\*?\)?\s*\(/.test(text)) return hit('ldap.filter_injection', text, 1);
  return null;
}

/** The value is one or more parenthesised filters, nothing outside them, parentheses balanced. */
function balancedFilter(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('(') || !t.endsWith(')')) return false;
  let depth = 0;
  for (const c of t) {
    if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return false;
    } else if (depth === 0 && c !== ' ' && c !== '\t') return false;
  }
  return depth === 0;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'ldap', rule, evidence: evidence.slice(0, 120), severity };
}
