import { sanitizeHtml } from '../utils/sanitizeHtml.ts';

/** A server message that may contain simple markup, rendered as sanitised HTML. */
export function Markup({ html }: { html: string }) {
  return <span dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
