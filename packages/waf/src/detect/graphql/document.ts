/**
 * An executable GraphQL document read as a server's parser would (spec, "Document"): operations
 * (`query`/`mutation`/`subscription`, or a bare selection set), fragments, selection sets with
 * aliases, arguments, directives, spreads and inline fragments. What the detector needs comes
 * out as a shape: which introspection meta-fields are selected, how deep selection sets nest,
 * how many aliases and directives there are.
 *
 * Lenient where a WAF must be: a document cut short (a truncated body, an unclosed brace) keeps
 * what was read, and `Name { … }` without the `query` keyword is read as an operation (scanners
 * send it; a server answers a syntax error, but the probe is the same). Anything else off the
 * grammar — prose, SDL, a search phrase — is no document (null).
 */
import type { Token } from './lexer.ts';

export interface IntrospectionField {
  field: '__schema' | '__type';
  /** Offset of the field (or its alias) in the source. */
  at: number;
}

export interface DocumentShape {
  introspection: IntrospectionField[];
  /** Deepest selection-set nesting (an operation's own set is 1). */
  maxDepth: number;
  aliases: number;
  directives: number;
}

/** Past this nesting (selection sets or values) the rest is not read: it is abuse already. */
const maxNesting = 200;

/** Thrown when the text is off the grammar. */
const offGrammar = Symbol('off-grammar');
/** Thrown at the end of the tokens or past `maxNesting`: what was read stands. */
const stop = Symbol('stop');

export function readDocument(tokens: readonly Token[]): DocumentShape | null {
  const shape: DocumentShape = { introspection: [], maxDepth: 0, aliases: 0, directives: 0 };
  let pos = 0;

  const peek = (): Token => {
    const token = tokens[pos];
    if (token === undefined) throw stop;
    return token;
  };
  const isPunct = (token: Token | undefined, text: string): boolean => token?.kind === 'punct' && token.text === text;
  const isName = (token: Token | undefined, text?: string): boolean => token?.kind === 'name' && (text === undefined || token.text === text);
  const expectPunct = (text: string): void => {
    if (!isPunct(peek(), text)) throw offGrammar;
    pos++;
  };
  const expectName = (): Token => {
    const token = peek();
    if (token.kind !== 'name') throw offGrammar;
    pos++;
    return token;
  };
  const guard = (nesting: number): void => {
    if (nesting > maxNesting) {
      shape.maxDepth = Math.max(shape.maxDepth, nesting);
      throw stop;
    }
  };

  function value(nesting: number): void {
    guard(nesting);
    const token = peek();
    pos++;
    if (token.kind !== 'punct') return;
    if (token.text === '$') {
      expectName();
    } else if (token.text === '[') {
      while (!isPunct(peek(), ']')) value(nesting + 1);
      pos++;
    } else if (token.text === '{') {
      while (!isPunct(peek(), '}')) {
        expectName();
        expectPunct(':');
        value(nesting + 1);
      }
      pos++;
    } else {
      throw offGrammar;
    }
  }

  function args(): void {
    expectPunct('(');
    while (!isPunct(peek(), ')')) {
      expectName();
      expectPunct(':');
      value(1);
    }
    pos++;
  }

  function directives(): void {
    while (pos < tokens.length && isPunct(tokens[pos], '@')) {
      pos++;
      shape.directives++;
      expectName();
      if (isPunct(tokens[pos], '(')) args();
    }
  }

  function type(nesting: number): void {
    guard(nesting);
    if (isPunct(peek(), '[')) {
      pos++;
      type(nesting + 1);
      expectPunct(']');
    } else {
      expectName();
    }
    if (isPunct(tokens[pos], '!')) pos++;
  }

  function variableDefinitions(): void {
    expectPunct('(');
    while (!isPunct(peek(), ')')) {
      expectPunct('$');
      expectName();
      expectPunct(':');
      type(1);
      if (isPunct(peek(), '=')) {
        pos++;
        value(1);
      }
      directives();
    }
    pos++;
  }

  function selectionSet(depth: number): void {
    guard(depth);
    expectPunct('{');
    shape.maxDepth = Math.max(shape.maxDepth, depth);
    while (!isPunct(peek(), '}')) selection(depth);
    pos++;
  }

  function selection(depth: number): void {
    if (isPunct(peek(), '...')) {
      pos++;
      if (isName(peek(), 'on')) {
        pos++;
        expectName();
      } else if (isName(peek())) {
        // A named spread: its fragment is read where it is defined.
        pos++;
        directives();
        return;
      }
      directives();
      // An inline fragment selects on the same object: no deeper.
      selectionSet(depth);
      return;
    }
    let field = expectName();
    if (isPunct(tokens[pos], ':')) {
      pos++;
      shape.aliases++;
      const aliased = expectName();
      field = { ...aliased, at: field.at };
    }
    if (field.text === '__schema' || field.text === '__type') shape.introspection.push({ field: field.text, at: field.at });
    if (isPunct(tokens[pos], '(')) args();
    directives();
    if (isPunct(tokens[pos], '{')) selectionSet(depth + 1);
  }

  function definition(): void {
    const token = peek();
    if (isPunct(token, '{')) {
      selectionSet(1);
      return;
    }
    if (token.kind !== 'name') throw offGrammar;
    if (token.text === 'query' || token.text === 'mutation' || token.text === 'subscription') {
      pos++;
      if (isName(tokens[pos])) pos++;
      if (isPunct(tokens[pos], '(')) variableDefinitions();
      directives();
      selectionSet(1);
      return;
    }
    if (token.text === 'fragment') {
      pos++;
      expectName();
      if (!isName(peek(), 'on')) throw offGrammar;
      pos++;
      expectName();
      directives();
      selectionSet(1);
      return;
    }
    // `IntrospectionQuery { … }`: an operation name without its keyword.
    if (isPunct(tokens[pos + 1], '{')) {
      pos++;
      selectionSet(1);
      return;
    }
    throw offGrammar;
  }

  try {
    while (pos < tokens.length) definition();
  } catch (thrown) {
    if (thrown === offGrammar) return null;
    if (thrown !== stop) throw thrown;
  }
  return shape.maxDepth > 0 ? shape : null;
}
