/**
 * GraphQL abuse in what a GraphQL server executes. GraphQL over HTTP carries the document as the
 * `query` parameter of a GET, the `query` member of a JSON body (an array of them when batched), or
 * the whole body (application/graphql); scanners also send the JSON envelope itself as a parameter.
 * Only those carriers are read, and only as GraphQL (lexer.ts, document.ts): `__schema` in a forum
 * post about GraphQL, or `?query=shoes {size 9}`, is no executable document.
 *
 * Loose vs strict, by what a production API expects:
 *  - `__schema` (the whole schema: every type, field and argument) is reconnaissance. Production
 *    servers commonly switch introspection off (Apollo Server does when NODE_ENV is production; the
 *    OWASP GraphQL cheat sheet asks for it) and clients never need it at run time — code generators
 *    and IDEs read the schema from a development endpoint. Clear attack: loose blocks. A site that
 *    publishes its schema on purpose turns the kind off for that site.
 *  - `__type(name: …)` alone: some clients read one enum's values or one type's fields at run time
 *    (form builders). Suspicious: strict blocks.
 *  - More aliases or directives than GraphQL Armor's default limits (15, 50), selection sets nested
 *    deeper than real clients go (Relay's edges/node pattern stays within ~10), or a batch of more
 *    operations than a batching client sends (Apollo's batch link: 10): the amplification behind
 *    brute-forcing a login in one request and query-cost denial of service. Suspicious: strict
 *    blocks.
 *
 * Kind 'graphql', a switch of its own on the attack tab: a site whose API serves introspection on
 * purpose turns this off and keeps the protocol checks.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { readDocument, type DocumentShape } from './document.ts';
import { tokenize } from './lexer.ts';

const maxAliases = 15;
const maxDirectives = 50;
const maxDepth = 15;
const maxBatch = 15;
/** Tokens read per document: far above any client's query, bounded for hostile ones. */
const maxTokens = 50_000;
/** Documents read from one JSON envelope (a batch); the count itself is judged whole. */
const maxDocuments = 20;

export function detectGraphql(value: string, location: InputLocation, name?: string): DetectorHit | null {
  try {
    return detect(value, location, name);
  } catch {
    return null;
  }
}

/** The member or parameter name without its path (`[3].query` → `query`). */
function leafName(name: string | undefined): string {
  if (name === undefined) return '';
  const dot = name.lastIndexOf('.');
  return (dot < 0 ? name : name.slice(dot + 1)).toLowerCase();
}

/** A value the server runs as a document: the `query` parameter or member, or the whole body. */
function isDocumentCarrier(location: InputLocation, name: string | undefined): boolean {
  if (location === 'raw_body') return true;
  return (location === 'query' || location === 'body') && leafName(name) === 'query';
}

interface Envelope {
  documents: string[];
  /** Operations in the request: an array's length, or the position a JSON body's member gives. */
  operations: number;
}

/** `{"query": "…"}` or `[{"query": "…"}, …]` as text (a parameter holding the envelope, a raw body). */
function envelopeOf(text: string): Envelope | null {
  if (!text.includes('"query"')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const documents: string[] = [];
  for (const item of items.slice(0, maxDocuments)) {
    const query = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).query : undefined;
    if (typeof query === 'string') documents.push(query);
  }
  return documents.length > 0 ? { documents, operations: Array.isArray(parsed) ? items.length : 1 } : null;
}

/** The documents this value carries, or null when it carries none. */
function documentsOf(value: string, location: InputLocation, name: string | undefined): Envelope | null {
  let first = 0;
  while (first < value.length && value.charCodeAt(first) <= 32) first++;
  const c = value[first];
  if (c === '{' || c === '[') {
    const envelope = envelopeOf(first === 0 ? value : value.slice(first));
    if (envelope) return envelope;
  }
  if (!isDocumentCarrier(location, name)) return null;
  // `[16].query`: the 17th operation of a batched JSON body.
  const index = /^\[(\d{1,6})\]\.query$/i.exec(name ?? '')?.[1];
  return { documents: [value], operations: index === undefined ? 1 : Number(index) + 1 };
}

function judge(document: string, shape: DocumentShape): DetectorHit | null {
  const schema = shape.introspection.find((f) => f.field === '__schema');
  if (schema) return hit('graphql.introspection', document.slice(schema.at), 2);
  const type = shape.introspection[0];
  if (type) return hit('graphql.introspection', document.slice(type.at), 1);
  if (shape.aliases > maxAliases) return hit('graphql.alias_overload', `${shape.aliases} aliases: ${document}`, 1);
  if (shape.directives > maxDirectives) return hit('graphql.directive_overload', `${shape.directives} directives: ${document}`, 1);
  if (shape.maxDepth > maxDepth) return hit('graphql.deep_query', `depth ${shape.maxDepth}: ${document}`, 1);
  return null;
}

function detect(value: string, location: InputLocation, name: string | undefined): DetectorHit | null {
  // Every document with a field has a selection set.
  if (!value.includes('{')) return null;
  const envelope = documentsOf(value, location, name);
  if (envelope === null) return null;
  let found: DetectorHit | null = null;
  for (const document of envelope.documents) {
    if (!document.includes('{')) continue;
    const tokens = tokenize(document, maxTokens);
    const shape = tokens && readDocument(tokens);
    const verdict = shape ? judge(document, shape) : null;
    if (verdict?.severity === 2) return verdict;
    found ??= verdict;
  }
  if (found === null && envelope.operations > maxBatch) return hit('graphql.batch_overload', `${envelope.operations} operations in one request`, 1);
  return found;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'graphql', rule, evidence: evidence.slice(0, 120), severity };
}
