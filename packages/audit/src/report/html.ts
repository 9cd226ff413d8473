import escapeHtml from 'escape-html';

/**
 * Markup built only through this tag: every interpolated value is escaped (escape-html: & < > " ')
 * unless it is markup this tag made itself. Report values come from the host (config lines, command
 * output) and are hostile until proven otherwise, so "forgot to escape" cannot happen by default.
 */
export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

type Value = Markup | string | number | null | undefined | readonly Value[];

const piece = (value: Value): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return (value as readonly Value[]).map(piece).join('');
  return escapeHtml(String(value));
};

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += piece(value) + (strings[i + 1] ?? '');
  });
  return new Markup(out);
}
