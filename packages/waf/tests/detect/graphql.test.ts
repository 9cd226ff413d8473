import { describe, expect, it } from 'vitest';
import { detectGraphql } from '../../src/detect/graphql/index.ts';
import { inspect } from '../../src/inspect.ts';
import { attackKinds, type InputLocation, type WafRequest } from '../../src/types.ts';

/** [value, location, name] as the pipeline hands them over. */
type Case = readonly [value: string, location: InputLocation, name: string];

const aliases = (n: number) => Array.from({ length: n }, (_, i) => `try${i}: login(user: "admin", password: "guess${i}") { token }`).join(' ');
const nested = (depth: number) => '{ a '.repeat(depth) + '{ id }' + ' }'.repeat(depth);

describe('GraphQL detector: introspection', () => {
  it.each<Case>([
    ['{ __schema { types { name } } }', 'query', 'query'],
    ['query IntrospectionQuery { __schema { queryType { name } mutationType { name } } }', 'body', 'query'],
    ['query IntrospectionQuery { __schema { queryType { name } } }', 'raw_body', ''],
    // A GET parameter holding the whole JSON envelope (scanners send it so), whatever its name.
    ['{"query": "IntrospectionQuery{__schema {queryType { name }}"}', 'query', 'q'],
    // Batched: the second operation introspects.
    ['[{"query":"{ me { id } }"},{"query":"{ __schema { types { name } } }"}]', 'raw_body', ''],
    // Obfuscation a GraphQL lexer ignores: comments, commas, an alias, line breaks.
    ['query {\n  # just a list\n  x: __schema, { types { name, fields { name } } }\n}', 'body', 'query'],
    ['query { ...F } fragment F on Query { __schema { directives { name } } }', 'body', '[0].query'],
    ['{ ... on Query { __schema { types { name } } } }', 'query', 'query'],
    // A document cut short (truncated body) keeps what was read.
    ['IntrospectionQuery{__schema {queryType { name }}', 'body', 'query'],
  ])('blocks %j in loose mode', (value, location, name) => {
    expect(detectGraphql(value, location, name)).toMatchObject({ kind: 'graphql', rule: 'graphql.introspection', severity: 2 });
  });

  it('flags one type looked up by name as suspicious only (clients read enum values at run time)', () => {
    expect(detectGraphql('{ __type(name: "OrderStatus") { enumValues { name } } }', 'query', 'query')).toMatchObject({ rule: 'graphql.introspection', severity: 1 });
  });
});

describe('GraphQL detector: amplification', () => {
  it('flags more aliases than GraphQL Armor allows (brute force in one request)', () => {
    expect(detectGraphql(`mutation { ${aliases(16)} }`, 'body', 'query')).toMatchObject({ rule: 'graphql.alias_overload', severity: 1 });
    expect(detectGraphql(`mutation { ${aliases(15)} }`, 'body', 'query')).toBeNull();
  });

  it('flags more directives than GraphQL Armor allows (parser and executor cost)', () => {
    expect(detectGraphql(`{ me ${'@include(if: true) '.repeat(51)} { id } }`, 'query', 'query')).toMatchObject({ rule: 'graphql.directive_overload', severity: 1 });
    expect(detectGraphql(`{ me ${'@include(if: true) '.repeat(3)} { id } }`, 'query', 'query')).toBeNull();
  });

  it('flags selection sets nested deeper than clients go', () => {
    expect(detectGraphql(nested(16), 'query', 'query')).toMatchObject({ rule: 'graphql.deep_query', severity: 1 });
    expect(detectGraphql(nested(12), 'query', 'query')).toBeNull();
  });

  it('flags a batch of more operations than a batching client sends', () => {
    expect(detectGraphql('{ me { id } }', 'body', '[15].query')).toMatchObject({ rule: 'graphql.batch_overload', severity: 1 });
    expect(detectGraphql('{ me { id } }', 'body', '[9].query')).toBeNull();
    const batch = JSON.stringify(Array.from({ length: 16 }, () => ({ query: '{ me { id } }' })));
    expect(detectGraphql(batch, 'raw_body', '')).toMatchObject({ rule: 'graphql.batch_overload' });
  });
});

describe('GraphQL detector: near misses', () => {
  it.each<Case>([
    // The legitimate API set's queries (variables, object arguments, inline fragments, aliases).
    ['query Product($id: ID!) { product(id: $id) { id name price { amount currency } reviews(first: 5) { edges { node { rating body author { name } } } } } }', 'body', 'query'],
    ['query Search($q: String!, $after: String) { search(query: $q, first: 20, after: $after) { pageInfo { hasNextPage endCursor } nodes { ... on Article { title slug } ... on Product { name sku } } } }', 'body', 'query'],
    ['query Me { viewer { id login repositories(first: 10, orderBy: {field: UPDATED_AT, direction: DESC}) { nodes { name updatedAt } } } }', 'body', 'query'],
    ['mutation Add($input: CartLineInput!) { cartLinesAdd(lines: [$input]) @client { cart { id small: image(size: 64) large: image(size: 512) } } }', 'body', 'query'],
    // Apollo Client adds __typename to every selection.
    ['{ product(id: 5) { __typename id name } }', 'query', 'query'],
    // GraphQL in prose or a post is not executed: only the `query` carrier is.
    ['{ __schema { types { name } } }', 'body', 'content'],
    ['Run `{ __schema { types { name } } }` in GraphiQL to list the types.', 'body', 'body'],
    ['{"title":"Introspection","body":"query { __schema { types { name } } }"}', 'raw_body', ''],
    // Site search boxes named `query`.
    ['how to disable __schema introspection in apollo', 'query', 'query'],
    ['__schema {types}', 'query', 'query'],
    ['red shoes {size 9}', 'query', 'query'],
    ["it's { __schema } isn't it", 'query', 'query'],
    // A search engine's JSON query, and schema text (SDL), are no executable documents.
    ['{"query": {"match": {"title": "__schema"}}}', 'raw_body', ''],
    ['type Query { __schema: String }', 'body', 'query'],
  ])('passes %j', (value, location, name) => {
    expect(detectGraphql(value, location, name)).toBeNull();
  });

  it('stays quick and quiet on hostile shapes', () => {
    const shapes = ['{'.repeat(100_000), '{ a'.repeat(50_000), '[{"query":'.repeat(5000), `{ f(x: ${'['.repeat(50_000)}) }`, '"""'.repeat(30_000), `{ ${'a: b '.repeat(60_000)} }`, '{"query": "' + '{ a '.repeat(20_000) + '"}'];
    const started = performance.now();
    for (const shape of shapes) for (const [location, name] of [['query', 'query'], ['raw_body', ''], ['body', '[3].query']] as const) expect(() => detectGraphql(shape, location, name)).not.toThrow();
    expect(performance.now() - started).toBeLessThan(3000);
    // Read to the nesting bound, then judged on what was read.
    expect(detectGraphql('{ a '.repeat(100_000), 'query', 'query')).toMatchObject({ rule: 'graphql.deep_query' });
    expect(detectGraphql('{'.repeat(100_000), 'query', 'query')).toBeNull();
  });
});

describe('GraphQL detector in the pipeline', () => {
  const request = (method: string, target: string, body?: string, type?: string): WafRequest => ({
    method,
    target,
    headers: [['Host', 'api.shop.example'], ...(type ? [['Content-Type', type] as const] : [])],
    clientIp: '203.0.113.5',
    body: body === undefined ? null : Buffer.from(body),
    bodyTruncated: false,
    now: 0,
  });

  it('reads the GET parameter, the JSON member and the application/graphql body', () => {
    const introspection = '{ __schema { types { name } } }';
    expect(inspect(request('GET', `/graphql?query=${encodeURIComponent(introspection)}`), { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'graphql.introspection', location: 'query', name: 'query' });
    expect(inspect(request('POST', '/graphql', JSON.stringify({ query: introspection, variables: {} }), 'application/json'), { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'graphql.introspection', location: 'body' });
    expect(inspect(request('POST', '/graphql', introspection, 'application/graphql'), { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'graphql.introspection' });
  });

  it('has a switch of its own: a site that serves introspection on purpose turns graphql off and keeps the protocol checks', () => {
    const introspection = request('GET', `/graphql?query=${encodeURIComponent('{ __schema { types { name } } }')}`);
    const withoutGraphql = attackKinds.filter((kind) => kind !== 'graphql');
    expect(inspect(introspection, { mode: 'loose', kinds: withoutGraphql })).toEqual({ action: 'pass' });
    expect(inspect(introspection, { mode: 'loose', kinds: ['graphql'] })).toMatchObject({ action: 'block', kind: 'graphql' });
    // The protocol checks still run without graphql: a NUL byte in the query is refused.
    expect(inspect(request('GET', '/graphql?query=%00'), { mode: 'loose', kinds: withoutGraphql })).toMatchObject({ action: 'block', kind: 'protocol' });
  });

  it('passes an ordinary operation in both modes', () => {
    const body = JSON.stringify({ operationName: 'Product', query: 'query Product($id: ID!) { product(id: $id) { __typename id name } }', variables: { id: '7' } });
    for (const mode of ['loose', 'strict'] as const) expect(inspect(request('POST', '/graphql', body, 'application/json'), { mode })).toEqual({ action: 'pass' });
  });
});
