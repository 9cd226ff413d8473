/**
 * Page views and asset fetches as browsers make them: pages with tracking parameters, hashed
 * assets, images, fonts, conditional requests, and CORS preflights from single-page apps.
 */
import { httpRequest, type BenchRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { analyticsCookies, browserGet, browserSession, legit, query } from './shape.ts';
import { products, slug, tags, title } from './text.ts';

export function browsingRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const s = browserSession(r, 'www.example.com', r.chance(0.7) ? `${analyticsCookies(r)}; session=${r.hex(16)}` : '');
    const kind = r.pick(['page', 'page', 'page', 'asset', 'image', 'font', 'conditional', 'preflight']);
    let wire: Buffer;
    switch (kind) {
      case 'page': wire = browserGet(s, r.pick([
        '/', `/blog/${slug(title(r))}`, `/products/${slug(r.pick(products))}${query([['variant', String(r.int(1, 40))], ['color', r.pick(['black', 'oak', 'navy'])]])}`,
        `/category/${r.pick(tags).replace(/[^a-z0-9]/g, '')}?page=${r.int(2, 12)}`, `/?utm_source=newsletter&utm_medium=email&utm_campaign=may_2024&utm_content=${slug(title(r))}`,
        `/landing?gclid=${r.bytes(30).toString('base64url')}`, `/?fbclid=${r.bytes(40).toString('base64url')}`, '/about-us', '/legal/privacy-policy#cookies'.split('#')[0]!, `/docs/${r.pick(['sql', 'shell', 'javascript'])}/getting-started`,
      ]), r.chance(0.5) ? 'https://www.google.com/' : undefined); break;
      case 'asset': wire = browserGet(s, r.pick([`/static/js/main.${r.hex(4)}.js`, `/static/css/app.${r.hex(4)}.css`, `/wp-includes/js/jquery/jquery.min.js?ver=3.6.1`, `/assets/vendor-${r.hex(6)}.js`]), 'https://www.example.com/', '*/*'); break;
      case 'image': wire = browserGet(s, r.pick([`/images/products/${r.int(1, 9999)}-${r.pick(['small', 'large', '2x'])}.webp`, `/wp-content/uploads/2024/0${r.int(1, 9)}/IMG_${r.int(1000, 9999)}-300x200.jpg`, '/favicon.ico']), 'https://www.example.com/', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'); break;
      case 'font': wire = browserGet(s, `/fonts/inter-v12-latin-${r.pick(['regular', '600', '700'])}.woff2`, 'https://www.example.com/static/css/app.css', '*/*'); break;
      case 'conditional': wire = httpRequest('GET', `/static/js/main.${r.hex(4)}.js`, [['Host', 'www.example.com'], ['User-Agent', s.ua], ['Accept', '*/*'], ['If-None-Match', `W/"${r.hex(8)}"`], ['If-Modified-Since', 'Tue, 14 May 2024 10:30:00 GMT'], ['Cache-Control', 'max-age=0']]); break;
      default: wire = httpRequest('OPTIONS', `/api/v1/${r.pick(['orders', 'users/me', 'cart/items'])}`, [['Host', 'api.example.com'], ['User-Agent', s.ua], ['Accept', '*/*'], ['Origin', 'https://www.example.com'], ['Access-Control-Request-Method', r.pick(['POST', 'PUT', 'DELETE', 'PATCH'])], ['Access-Control-Request-Headers', 'authorization,content-type'], ['Sec-Fetch-Mode', 'cors']]);
    }
    out.push(legit('browsing', `browse#${i} ${kind}`, wire));
  }
  return out;
}
