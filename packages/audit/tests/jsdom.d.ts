/*
 * The little of jsdom the report tests read. @types/jsdom would pull the DOM library into the
 * whole Node type-check (tsconfig has lib es2023 only), so the tests declare just this.
 */
declare module 'jsdom' {
  interface Element {
    id: string;
    lang: string;
    textContent: string | null;
    getAttribute(name: string): string | null;
    getAttributeNames(): string[];
    querySelector(selector: string): Element | null;
    querySelectorAll(selector: string): ArrayLike<Element> & Iterable<Element>;
  }
  export class JSDOM {
    constructor(html: string);
    window: { document: Element & { body: Element; documentElement: Element } };
  }
}
