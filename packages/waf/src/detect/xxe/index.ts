/**
 * XML external entities and friends. Reads the DOCTYPE the way an XML parser would: an external
 * DTD (SYSTEM / PUBLIC id), entity declarations in the internal subset (external ones, parameter
 * entities, and internal ones nesting each other — the "billion laughs"), XInclude elements, and
 * schema includes that make a validating parser fetch a URL. A DOCTYPE with no identifiers and no
 * subset (<!DOCTYPE html> in a rich-text post) passes. UTF-7 documents are decoded first.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { decodeUtf7 } from './utf7.ts';
import { scannedPart } from '../scan-limit.ts';

export function detectXxe(value: string, _location: InputLocation): DetectorHit | null {
  try {
    return detect(value);
  } catch {
    return null;
  }
}

function detect(value: string): DetectorHit | null {
  if (!value.includes('<') && !value.includes('+AD')) return null;
  let text = scannedPart(value);
  if (text.includes('+AD')) text = decodeUtf7(text);
  const lower = text.toLowerCase();

  const doctype = lower.indexOf('<!doctype');
  if (doctype >= 0) {
    const found = judgeDoctype(lower, doctype);
    if (found) return hit(found.rule, text.slice(doctype + found.at, doctype + found.at + 120), found.severity);
  }
  const entity = lower.indexOf('<!entity');
  if (entity >= 0) return hit('xxe.entity_declaration', text.slice(entity), /system|public|%/.test(lower.slice(entity, entity + 200)) ? 2 : 1);

  const xinclude = lower.search(/<[a-z0-9_-]*:?include\b[^>]*\bhref\s*=|xmlns:[a-z0-9_-]+\s*=\s*["']http:\/\/www\.w3\.org\/2001\/xinclude/);
  if (xinclude >= 0) return hit('xxe.xinclude', text.slice(xinclude), 2);
  const schemaInclude = lower.search(/<[a-z0-9_-]+:(?:include|import|redefine)\b[^>]*\b(?:schemalocation|namespace)\s*=\s*["'](?:https?|ftp|file):/);
  if (schemaInclude >= 0) return hit('xxe.schema_include', text.slice(schemaInclude), 2);
  // The attribute's value up to its closing quote (or the end of a cut-off text): no backtracking.
  for (const m of lower.matchAll(/\bxsi:(no(?:namespace)?)?schemalocation\s*=\s*(?:"([^"]*)"?|'([^']*)'?)/g)) {
    const list = m[2] ?? m[3] ?? '';
    if (/(?:https?|ftp|file):\/\//.test(list)) return hit('xxe.schema_location', text.slice(m.index), judgeSchemaLocation(m[1] !== undefined, list));
  }
  return null;
}

/**
 * SOAP and Maven documents carry schema hints legitimately, as the attribute's grammar has them:
 * xsi:schemaLocation is a list of pairs, namespace then location ("http://ns http://ns/a.xsd"), and
 * xsi:noNamespaceSchemaLocation one location. Those are suspicious only (a validating parser with
 * hints on fetches them). A schemaLocation that is no list of pairs — a lone remote URL — locates
 * nothing for any namespace: it is only there to make a parser call out (an out-of-band probe).
 */
function judgeSchemaLocation(noNamespace: boolean, list: string): 1 | 2 {
  if (noNamespace) return 1;
  const items = list.trim().split(/\s+/);
  return items.length % 2 === 1 ? 2 : 1;
}

interface DoctypeFinding {
  rule: string;
  at: number;
  severity: 1 | 2;
}

function judgeDoctype(lower: string, start: number): DoctypeFinding | null {
  // <!DOCTYPE name [SYSTEM "uri" | PUBLIC "id" "uri"] [ [subset] ] >
  const head = lower.slice(start + 9, start + 9 + 400);
  const m = /^\s+[^\s[>]+\s*(system|public)?/.exec(head);
  if (m?.[1]) {
    // The W3C's own (X)HTML DTDs: pasted HTML documents carry them; they reach nothing of the server.
    if (/^\s+html\s+public\s+"-\/\/w3c\/\/dtd [^"]*"(?:\s+"https?:\/\/www\.w3\.org\/[^"]*")?\s*>/.test(head)) return null;
    return { rule: 'xxe.external_dtd', at: 0, severity: 2 };
  }
  const open = head.indexOf('[');
  const close = head.indexOf('>');
  if (open < 0 || (close >= 0 && close < open)) return null;
  const subset = lower.slice(start + 9 + open, start + 9 + open + 8192);
  let external = false;
  let parameter = false;
  let declarations = 0;
  let nesting = 0;
  let at = subset.indexOf('<!entity');
  while (at >= 0) {
    declarations++;
    const decl = subset.slice(at, subset.indexOf('>', at) + 1 || at + 400);
    if (/^<!entity\s+%/.test(decl)) parameter = true;
    if (/\s(?:system|public)\s/.test(decl)) external = true;
    if (/&[a-z0-9_.-]+;/.test(decl)) nesting++;
    at = subset.indexOf('<!entity', at + 8);
  }
  if (parameter) return { rule: 'xxe.parameter_entity', at: 0, severity: 2 };
  if (external) return { rule: 'xxe.external_entity', at: 0, severity: 2 };
  if (nesting >= 2) return { rule: 'xxe.entity_expansion', at: 0, severity: 2 };
  if (declarations > 0) return { rule: 'xxe.internal_entity', at: 0, severity: 1 };
  return null;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'xxe', rule, evidence: evidence.slice(0, 120), severity };
}
