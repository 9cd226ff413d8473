/**
 * register_globals pages: a form posted to the page itself, whose fields the script then reads as
 * plain global variables (`<input name="cmd">` … `system($cmd)`). PHP before 5.4 filled those
 * globals from the request, and old shells still rely on it (or emulate it), so a global variable
 * named like one of the page's own form fields holds request input.
 */

/** `name="cmd"`, `name='cmd'`, `name=cmd`, also inside PHP strings (`name=\"cmd\"`). */
const fieldName = /<(?:input|textarea|select)\b[^>]{0,300}?\bname\s*=\s*\\?["']?([A-Za-z_][A-Za-z0-9_]{0,40})\b/gi;

/** Names a page's forms post, as PHP variable names. */
export function formFieldNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(fieldName)) if (match[1]) names.add(match[1]);
  return names;
}

/** Cheap test for the parse pre-check: the page has a form field at all. */
export const hasFormField = (text: string): boolean => /<(?:input|textarea|select)\b[^>]{0,300}?\bname\s*=/i.test(text);
