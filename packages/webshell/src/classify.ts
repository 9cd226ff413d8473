/**
 * Stage 2, classify: which analysis a file gets. The extension is a hint; the content decides,
 * because shells are saved as .txt, .inc, .jpg or with no extension at all, and a web server that
 * is misconfigured (or an include()) runs them anyway.
 */
import type { WebshellLanguage } from '@rampart/contracts';

/**
 * Script inside an image. Real images never contain `<?php`; `<%` alone occurs in binary data by
 * chance, so ASP needs a keyword after it. The short echo tags are three bytes: compressed image
 * data holds `<%=` by chance about once in 16 MB (one 1 MB photo in 16) and `<?=` then `$` not much
 * less, so each needs code after it and its closing tag (the gateway refuses uploads on this).
 */
export const embeddedScript = /<\?php\b|<\?=\s*[$@`][\s\S]{0,200}?\?>|<%\s*(?:@\s*page|eval|execute|response\.|request|=\s*[\w$.(][^%]{0,200}%>)/i;

const phpExtensions = new Set(['php', 'php3', 'php4', 'php5', 'php7', 'php8', 'pht', 'phtml', 'phps', 'inc']);
const jspExtensions = new Set(['jsp', 'jspx', 'jspf']);
const aspExtensions = new Set(['asp', 'asa', 'cer', 'cdx']);
const aspxExtensions = new Set(['aspx', 'asax', 'ashx', 'asmx', 'ascx', 'svc']);

/** The last extension, lowercase, without the dot ('' when there is none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** JPEG, PNG or GIF magic bytes at the start. */
export function isImageMagic(bytes: Buffer): boolean {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true;
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return true;
  return bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6));
}

// Content sniffing looks only at the head: enough to see an opening tag or directive, cheap on big files.
const sniffBytes = 64 * 1024;
const phpOpen = /<\?php|<\?=|<\?\s|<script\s+language\s*=\s*["']?php/i;
const jspMarks = /<%@\s*page\b[^%]*language\s*=\s*["']?java|<%@\s*page\s+import|<jsp:|\brequest\.getParameter\s*\(|java\.(?:io|lang|util)\./;
const aspxMarks = /<%@\s*(?:page|webhandler|webservice|assembly|import)\b[^%]*(?:language\s*=\s*["']?(?:c#|csharp|vb|jscript)|namespace\s*=|class\s*=)|<script\s+runat\s*=\s*["']?server|System\.Diagnostics|System\.IO\./i;
const aspMarks = /<%|<script\s+language\s*=\s*["']?vbscript|\bServer\.CreateObject\b|\bResponse\.Write\b/i;

export function classify(path: string, bytes: Buffer): WebshellLanguage {
  const ext = extensionOf(path);
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, sniffBytes));
  if (isImageMagic(bytes)) {
    // The whole image is searched: the payload usually hides in a comment segment after the header.
    return embeddedScript.test(bytes.toString('latin1')) ? 'polyglot' : 'other';
  }
  if (phpExtensions.has(ext)) return 'php';
  if (jspExtensions.has(ext)) return 'jsp';
  if (aspxExtensions.has(ext)) return 'aspx';
  if (aspExtensions.has(ext)) return 'asp';
  // Other names (txt, no extension, images without magic, js ...): the content decides. Every mark
  // below needs `<?`, `<%`, `<script` or `System.`; most such files (scripts, styles) have none.
  if (head.indexOf('<?') === -1 && head.indexOf('<%') === -1 && head.indexOf('System.') === -1 && !/<script/i.test(head)) return 'other';
  // A page of one language may quote another's tags (an ASP page printing `<?xml`): the first opening wins.
  const php = phpOpen.exec(head)?.index ?? -1;
  const other = head.search(/<%|<script\s+runat\s*=\s*["']?server|<object\s+runat\s*=\s*["']?server/i);
  if (php !== -1 && (other === -1 || php < other)) return 'php';
  if (jspMarks.test(head) && /<%/.test(head)) return 'jsp';
  if (aspxMarks.test(head)) return 'aspx';
  if (aspMarks.test(head) && /<%/.test(head)) return 'asp';
  return 'other';
}
