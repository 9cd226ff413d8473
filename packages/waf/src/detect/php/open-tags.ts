/**
 * PHP open tags: `<?php`, `<?=` and the short `<?` (which also makes `<?xml:echo 1;` PHP: an XML
 * declaration needs whitespace after `xml`), and the `[php]…[/php]` / `{php}` tags of CMS plugins
 * that evaluate their content. A tag followed by code is a clear attack; a lone tag (a value
 * ending in `<?`, a stray `[/php]`) is a probe, suspicious.
 */
import type { DetectorHit } from '../../types.ts';

const maxTags = 32;

export function findOpenTag(text: string): DetectorHit | null {
  let best: DetectorHit | null = null;
  let count = 0;
  for (let at = text.indexOf('<?'); at >= 0 && count < maxTags; at = text.indexOf('<?', at + 2), count++) {
    const severity = judgeAngleTag(text, at);
    if (severity === 2) return hit('php.open_tag', text, at, 2);
    if (severity === 1) best ??= hit('php.open_tag', text, at, 1);
  }
  const lower = /php[\]}]/i.test(text) ? text.toLowerCase() : '';
  if (lower) {
    for (const tag of ['[php]', '{php}', '[/php]', '{/php}', '[\\php]']) {
      const at = lower.indexOf(tag);
      if (at < 0) continue;
      const closing = tag[1] === '/' || tag[1] === '\\';
      // Code after an opening tag, or a statement before a closing one.
      const code = closing ? /[;"')]\s*$/.test(lower.slice(Math.max(0, at - 40), at)) : /^\s*(?:[a-z_]+\s*[("'$]|\$|echo\b|print\b|@)/.test(lower.slice(at + tag.length, at + tag.length + 40));
      if (code) return hit('php.bbcode_tag', text, at, 2);
      best ??= hit('php.bbcode_tag', text, at, 1);
    }
  }
  return best;
}

function judgeAngleTag(text: string, at: number): 0 | 1 | 2 {
  const rest = text.slice(at + 2, at + 64);
  if (rest.length === 0) return 1; // "test<?": the start of an injected block, cut off
  const lower = rest.toLowerCase();
  if (lower.startsWith('php')) {
    const after = rest.slice(3);
    // A lone "<?php" runs nothing (a cookie or a name that says it); "<?phpinfo" is not a tag at all.
    if (after.length === 0 || !/^\s/.test(after)) return 0;
    return /\S/.test(after) ? 2 : 0;
  }
  if (rest[0] === '=') return /\S/.test(rest.slice(1)) ? 2 : 0;
  if (lower.startsWith('xml')) {
    // `<?xml version=…` is a declaration; `<?xml:echo 1;` is a short tag and the constant xml.
    const c = rest[3];
    if (c === undefined) return 0;
    if (/\s/.test(c)) return /^\s+[:;(]/.test(rest.slice(3)) ? 2 : 0; // "<?xml :echo 1;" is no declaration
    return /[:;(]/.test(c) ? 2 : 0;
  }
  if (/^\s/.test(rest)) {
    // `<? echo 1;`, `<? system(…)`: a short tag and a statement.
    return /^\s+(?:[A-Za-z_]\w*\s*[($'"(;]|\$\w|echo\s|print\s|@|\(\s*\)\s*;)/.test(rest) ? 2 : 0;
  }
  return 0; // <?mso-application …>, <?xml-stylesheet …>: other processing instructions
}

function hit(rule: string, text: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule, evidence: text.slice(at, at + 120), severity };
}
