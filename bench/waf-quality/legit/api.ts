/** REST CRUD and GraphQL calls of a shop / helpdesk / CMS API, with realistic bodies. */
import type { BenchRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { apiCall, legit, query } from './shape.ts';
import { cities, email, fullName, isoDate, markdown, paragraph, price, products, sentence, slug, tags, title, word } from './text.ts';

function user(r: Random) {
  const name = fullName(r);
  return {
    name, email: email(r), username: slug(name).replaceAll('-', '.') || 'user',
    locale: r.pick(['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR']),
    address: { street: `${r.int(1, 250)} ${r.pick(['Main St', 'Bahnhofstraße', 'Rue de la Paix', 'ul. Długa', 'Calle Mayor'])}`, city: r.pick(cities), postcode: String(r.int(10000, 99999)), country: r.pick(['US', 'DE', 'FR', 'PL', 'ES', 'JP', 'BR']) },
    marketing_opt_in: r.chance(0.3), bio: r.chance(0.5) ? sentence(r) : null,
  };
}

function product(r: Random) {
  return {
    sku: `${r.pick(['CHR', 'KBD', 'MON', 'PAN', 'SHO'])}-${r.int(1000, 9999)}`, name: r.pick(products), price: price(r), currency: r.pick(['EUR', 'USD', 'GBP', 'JPY']),
    description: markdown(r), tags: [r.pick(tags), r.pick(tags)], stock: r.int(0, 500),
    dimensions: { width_cm: r.int(5, 200), height_cm: r.int(5, 200), weight_kg: r.int(1, 400) / 10 },
    attributes: [{ name: 'color', value: r.pick(['black', 'white', 'oak', 'navy blue']) }, { name: 'material', value: r.pick(['steel', 'wool', 'cotton 100%', 'recycled PET']) }],
  };
}

function order(r: Random) {
  const items = Array.from({ length: r.int(1, 4) }, () => ({ product_id: r.int(1, 5000), quantity: r.int(1, 5), unit_price: price(r) }));
  return {
    customer: { id: r.int(1, 99999), email: email(r), name: fullName(r) }, items,
    shipping: { method: r.pick(['standard', 'express', 'pickup']), address: user(r).address },
    coupon: r.chance(0.2) ? r.pick(['SUMMER-10', 'WELCOME5', 'BLACKFRIDAY']) : null,
    note: r.chance(0.4) ? sentence(r) : '', placed_at: isoDate(r),
  };
}

function ticket(r: Random) {
  return { subject: r.pick(['Cannot log in', 'Refund for order', 'Question about SQL export', 'Script error on checkout page', 'Invoice address wrong']), body: paragraph(r, 2, 6), priority: r.pick(['low', 'normal', 'high']), requester: { name: fullName(r), email: email(r) }, tags: [r.pick(tags)], custom_fields: { order_number: String(r.int(10000, 99999)), browser: r.pick(['Chrome 124', 'Firefox 125', 'Safari 17']) } };
}

function article(r: Random) {
  const t = title(r);
  return { title: t, slug: slug(t), body_markdown: markdown(r), excerpt: sentence(r), tags: [r.pick(tags), r.pick(tags)], status: r.pick(['draft', 'published', 'scheduled']), publish_at: isoDate(r), author_id: r.int(1, 50), seo: { meta_title: t, meta_description: sentence(r) } };
}

const resources = [
  { path: 'users', make: user },
  { path: 'products', make: product },
  { path: 'orders', make: order },
  { path: 'tickets', make: ticket },
  { path: 'articles', make: article },
];

const graphqlQueries = [
  'query Product($id: ID!) { product(id: $id) { id name price { amount currency } reviews(first: 5) { edges { node { rating body author { name } } } } } }',
  'query Search($q: String!, $after: String) { search(query: $q, first: 20, after: $after) { pageInfo { hasNextPage endCursor } nodes { ... on Article { title slug } ... on Product { name sku } } } }',
  'mutation AddToCart($input: AddToCartInput!) { addToCart(input: $input) { cart { id totalQuantity lines { quantity merchandise { id } } } userErrors { field message } } }',
  'query Me { viewer { id login name avatarUrl repositories(first: 10, orderBy: {field: UPDATED_AT, direction: DESC}) { nodes { name updatedAt } } } }',
];

export function apiRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const res = r.pick(resources);
    const id = r.int(1, 99999);
    const base = `/api/v${r.pick([1, 2])}/${res.path}`;
    const kind = r.pick(['list', 'list', 'get', 'create', 'create', 'update', 'patch', 'delete', 'graphql']);
    let wire: Buffer;
    switch (kind) {
      case 'list':
        wire = apiCall(r, 'GET', base + query([
          ['page', String(r.int(1, 40))], ['per_page', String(r.pick([10, 20, 50, 100]))], ['sort', r.pick(['-created_at', 'name', 'price', '-updated_at'])],
          ...(r.chance(0.5) ? [['filter[status]', r.pick(['open', 'closed', 'pending', 'any'])] as [string, string]] : []),
          ...(r.chance(0.5) ? [['q', r.pick([word(r), fullName(r), r.pick(products)])] as [string, string]] : []),
          ...(r.chance(0.3) ? [['fields', 'id,name,email,created_at'] as [string, string]] : []),
        ]));
        break;
      case 'get': wire = apiCall(r, 'GET', `${base}/${id}${r.chance(0.3) ? '?include=author,comments' : ''}`); break;
      case 'create': wire = apiCall(r, 'POST', base, res.make(r)); break;
      case 'update': wire = apiCall(r, 'PUT', `${base}/${id}`, { id, ...res.make(r) }); break;
      case 'patch': {
        const full = res.make(r) as Record<string, unknown>;
        const keys = Object.keys(full).filter(() => r.chance(0.4));
        wire = apiCall(r, 'PATCH', `${base}/${id}`, Object.fromEntries((keys.length ? keys : [Object.keys(full)[0]!]).map((k) => [k, full[k]])));
        break;
      }
      case 'delete': wire = apiCall(r, 'DELETE', `${base}/${id}`); break;
      default: {
        const q = r.pick(graphqlQueries);
        wire = apiCall(r, 'POST', '/graphql', { operationName: /(?:query|mutation) (\w+)/.exec(q)?.[1], query: q, variables: { id: String(id), q: word(r), after: null, input: { merchandiseId: `gid://shop/ProductVariant/${id}`, quantity: r.int(1, 3) } } });
      }
    }
    out.push(legit('api', `api#${i} ${kind} ${res.path}`, wire));
  }
  return out;
}
