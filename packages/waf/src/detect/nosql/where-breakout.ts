/**
 * A `$where` break-out: the value closes the application's literal and joins a condition on the
 * document itself — `2499999||this.product`, `admin' && this.password.match(/^a/)//`,
 * `'||this.isAdmin=='x`. MongoDB evaluates `$where` strings as JavaScript with `this` bound to each
 * document, so `||this.` right after a literal is the attacker reaching into other fields.
 * Minified or posted JavaScript also writes `a||this.b`, but not as a value that starts with the
 * literal being closed; and a request path, which people do not type code into, never holds it.
 */
const joinThis = /(\|\||&&)\s*!?\s*this\s*\.\s*[a-z_$]/i;

/** Severity of a break-out in `value`, 0 when there is none. */
export function judgeWhereBreakout(value: string, inPath: boolean): 0 | 1 | 2 {
  const head = value.length > 2048 ? value.slice(0, 2048) : value;
  const join = joinThis.exec(head);
  if (!join) return 0;
  if (inPath) return 2;
  // Only a literal may stand before the join: a quote break-out, a number, a bare word or id.
  const before = head.slice(0, join.index).trim();
  const breakout = /^[\w.@-]*['"]?$/.test(before);
  if (!breakout) return 0;
  const quoted = /['"]$/.test(before);
  const numeric = /^\d+$/.test(before);
  // What the payload does with the field: compare it, match it, index it, or comment out the rest.
  const after = head.slice(join.index + join[0].length);
  const uses = /^[\w$.]*\s*(?:[=!]==?|\.match\s*\(|\.test\s*\(|\[|\.length\b)/.test(after) || after.includes('//');
  return quoted || numeric || uses ? 2 : 1;
}
