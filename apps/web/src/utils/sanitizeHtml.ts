/*
 * Server messages may carry simple markup (bold, line breaks, a link). They are shown as HTML in
 * modals, so only a small set of tags survives; scripts, event handlers and javascript: URLs never do.
 */

const allowedTags = new Set(['B', 'STRONG', 'I', 'EM', 'U', 'BR', 'P', 'SPAN', 'DIV', 'A', 'CODE', 'UL', 'OL', 'LI']);
const safeHref = /^(https?:|mailto:|#|\/)/i;

function clean(node: Node, doc: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const children = Array.from(el.childNodes)
    .map((c) => clean(c, doc))
    .filter((c): c is Node => c !== null);
  if (!allowedTags.has(el.tagName)) {
    // Unknown or dangerous element: keep its text (except for script-like ones), drop the tag.
    if (['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE'].includes(el.tagName)) return null;
    const fragment = doc.createDocumentFragment();
    children.forEach((c) => fragment.appendChild(c));
    return fragment;
  }
  const out = doc.createElement(el.tagName.toLowerCase());
  const href = el.getAttribute('href');
  if (el.tagName === 'A' && href && safeHref.test(href.trim())) {
    out.setAttribute('href', href.trim());
    out.setAttribute('target', '_blank');
    out.setAttribute('rel', 'noopener noreferrer');
  }
  children.forEach((c) => out.appendChild(c));
  return out;
}

export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const container = doc.createElement('div');
  Array.from(doc.body.childNodes).forEach((n) => {
    const c = clean(n, doc);
    if (c) container.appendChild(c);
  });
  return container.innerHTML;
}
