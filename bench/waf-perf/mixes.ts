/**
 * The request mixes wrk sends, the same to every target: a page view, a search with query
 * parameters, a form post and a JSON API post, each with the headers a browser sends (user agent,
 * accept lists, a session cookie), so the engine has the inputs it inspects on real traffic.
 * All benign: a mix any target refuses measures the refusal, not the proxying (the bench checks
 * every mix against every target before measuring).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RequestMix {
  name: string;
  method: 'GET' | 'POST';
  /** Path and query. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

const browserHeaders: Record<string, string> = {
  // A name, as browsers send: with wrk's default (the loopback address and port) CRS rule 920350
  // "Host header is a numeric IP address" matches every request and Apache writes a warning line
  // per request to its error log, which would slow the peer for a reason real traffic does not have.
  Host: 'shop.example.org',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Language': 'en-GB,en;q=0.7,de;q=0.3',
  Cookie: 'session=5f2b9c4e8a7d41f3b6e0c2a9d8f7e6b1; theme=dark; consent=analytics%3D0%26ads%3D0',
};

const formBody = new URLSearchParams({
  name: 'Ada Lovelace',
  email: 'ada.lovelace@example.org',
  phone: '+44 20 7946 0958',
  company: 'Analytical Engines Ltd',
  subject: 'Question about my order',
  message: 'Hello, I ordered two notebooks last week and only one arrived. Could you check the parcel and send the second one? Thanks a lot, Ada',
  newsletter: 'on',
  csrf_token: '9d1c7e0b5a4f42e3a6b8c0d2e4f6a8b1',
}).toString();

const jsonBody = JSON.stringify({
  customer: { id: 1042, name: 'Grace Hopper', email: 'grace@example.com' },
  items: [
    { sku: 'NB-A5-DOT', title: 'Dotted notebook A5', quantity: 2, price: 12.5 },
    { sku: 'PEN-FINE-BLK', title: 'Fine liner, black', quantity: 3, price: 2.9 },
  ],
  shipping: { method: 'standard', address: { street: '12 Harbour Road', city: 'Bristol', postcode: 'BS1 5TY', country: 'GB' } },
  coupon: 'SPRING10',
  note: 'Please leave the parcel with the neighbour at number 14 if nobody is home.',
});

export const requestMixes: RequestMix[] = [
  { name: 'GET page', method: 'GET', target: '/index.html', headers: browserHeaders },
  {
    name: 'GET query',
    method: 'GET',
    target: '/search?q=blue+running+shoes&category=sport&size=42&sort=price_asc&page=2&utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale',
    headers: { ...browserHeaders, Referer: 'https://shop.example.org/sport' },
  },
  {
    name: 'POST form',
    method: 'POST',
    target: '/contact',
    headers: { ...browserHeaders, 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://shop.example.org' },
    body: formBody,
  },
  {
    name: 'POST JSON',
    method: 'POST',
    target: '/api/orders',
    headers: { ...browserHeaders, Accept: 'application/json', 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: jsonBody,
  },
];

/** A Lua long string: no escapes inside, so bodies and headers go on the wire exactly as written. */
function luaString(text: string): string {
  let level = '=';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

/** The wrk script for a mix (method, headers, body; the URL on the command line gives the target). */
export function wrkScript(mix: RequestMix): string {
  const lines = [`wrk.method = ${luaString(mix.method)}`];
  for (const [name, value] of Object.entries(mix.headers)) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  if (mix.body !== undefined) lines.push(`wrk.body = ${luaString(mix.body)}`);
  return lines.join('\n') + '\n';
}

/** Writes each mix's wrk script into `dir`; returns the file per mix name. */
export function writeWrkScripts(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  requestMixes.forEach((mix, i) => {
    const file = join(dir, `mix-${i}.lua`);
    writeFileSync(file, wrkScript(mix));
    files.set(mix.name, file);
  });
  return files;
}
