import type { XssFinding } from './rules.ts';

/**
 * `!ENTITY % bar SYSTEM`, `<!ENTITY x PUBLIC "…"`: an XML entity declaration that pulls an
 * external resource, read by the DTD grammar (keyword, an optional `%` for a parameter entity, a
 * name, then `SYSTEM` or `PUBLIC`; XML spells the keywords in capitals only). An external entity
 * defined inside a document the page builds is how markup or a remote script enters it past the
 * value's own escaping (CRS 941130 reads it as an attribute vector); with or without the `<`, no
 * sentence, header or form field holds that sequence. Suspicious only (strict mode): a post about
 * XXE quotes the same declaration, and the XXE reader judges whole documents on its own.
 */
export function entityDeclaration(value: string): XssFinding | null {
  if (value.indexOf('!ENTITY') < 0) return null;
  const m = /!ENTITY[ \t\r\n]+(?:%[ \t\r\n]+)?[A-Za-z_:][\w.:-]*[ \t\r\n]+(?:SYSTEM|PUBLIC)(?!\w)/.exec(value);
  return m ? { rule: 'xss.entity_declaration', severity: 1, at: m.index } : null;
}
