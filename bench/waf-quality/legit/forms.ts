/**
 * Browser forms: sign-in, registration, contact, checkout, newsletter, profile; rich-text posts from
 * editors; comments in prose that mentions SQL or script; and site search.
 */
import type { BenchRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { analyticsCookies, browserGet, browserPost, browserSession, formEncode, legit, multipart, query, type Fields } from './shape.ts';
import { cities, editorHtml, email, fullName, markdown, paragraph, price, products, sentence, slug, tags, technicalSentence, title, word } from './text.ts';

const FORM = 'application/x-www-form-urlencoded';

function password(r: Random): string {
  return r.pick(['Summer2024!', 'correct horse battery staple', 'P@ssw0rd#1', "it's-a-secret", 'Tr0ub4dor&3', 'qwerty<>123', 'Zürich_1999', 'a1b2c3--d4', "O'Brien#77", '1=1or2=2?', 'select*from', 'x"y\'z']) + r.int(0, 99);
}

function csrf(r: Random): Fields[number] {
  return [r.pick(['csrf_token', '_token', 'authenticity_token', 'csrfmiddlewaretoken']), r.bytes(24).toString('base64')];
}

export function formRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  const host = 'www.example.com';
  for (let i = 0; i < count; i++) {
    const s = browserSession(r, host, `session=${r.hex(16)}; ${analyticsCookies(r)}`);
    const kind = r.pick(['login', 'register', 'contact', 'checkout', 'newsletter', 'profile', 'reset', 'richtext', 'richtext', 'prose-comment', 'prose-comment', 'review']);
    let fields: Fields;
    let target = '/';
    switch (kind) {
      case 'login': target = r.pick(['/login', '/account/login', '/users/sign_in']); fields = [csrf(r), ['email', email(r)], ['password', password(r)], ['remember_me', r.pick(['on', '1'])], ['redirect', r.pick(['/dashboard', '/account/orders?page=2', '/checkout'])]]; break;
      case 'register': target = '/register'; { const p = password(r); fields = [csrf(r), ['name', fullName(r)], ['email', email(r)], ['password', p], ['password_confirmation', p], ['country', r.pick(['DE', 'FR', 'US', 'JP'])], ['terms', 'accepted']]; } break;
      case 'contact': target = '/contact'; fields = [csrf(r), ['name', fullName(r)], ['email', email(r)], ['phone', `+${r.int(1, 49)} ${r.int(100, 999)} ${r.int(1000000, 9999999)}`], ['subject', r.pick(['Order question', 'Partnership', 'Bug report: checkout', 'Feedback'])], ['message', paragraph(r, 2, 6)]]; break;
      case 'checkout': target = '/checkout/submit'; fields = [csrf(r), ['billing[first_name]', fullName(r).split(' ')[0]!], ['billing[last_name]', fullName(r).split(' ').slice(1).join(' ')], ['billing[address_1]', `${r.int(1, 300)} ${r.pick(['Rue Lafayette', 'Hauptstraße', 'Baker Street'])}`], ['billing[city]', r.pick(cities)], ['billing[postcode]', String(r.int(10000, 99999))], ['payment_method', r.pick(['card', 'paypal', 'invoice'])], ['order_comments', r.chance(0.5) ? sentence(r) : ''], ['cart[0][qty]', String(r.int(1, 3))], ['cart[0][sku]', `SKU-${r.int(1000, 9999)}`], ['total', price(r).toFixed(2)]]; break;
      case 'newsletter': target = '/newsletter/subscribe'; fields = [['email', email(r)], ['lists[]', r.pick(tags)], ['lists[]', r.pick(tags)], ['source', 'footer']]; break;
      case 'profile': target = '/account/profile'; fields = [csrf(r), ['_method', 'PUT'], ['display_name', fullName(r)], ['bio', markdown(r)], ['website', `https://${slug(fullName(r))}.example.net/`], ['location', r.pick(cities)], ['timezone', r.pick(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo'])]]; break;
      case 'reset': target = '/password/reset'; { const p = password(r); fields = [csrf(r), ['token', r.hex(32)], ['email', email(r)], ['password', p], ['password_confirmation', p]]; } break;
      case 'richtext': target = r.pick(['/admin/pages/save', '/posts', '/forum/thread/reply', '/kb/articles/update']); fields = [csrf(r), ['title', title(r)], ['body', editorHtml(r)], ['category', r.pick(tags)], ['status', r.pick(['draft', 'publish'])]]; break;
      case 'prose-comment': target = `/blog/${slug(title(r))}/comments`; fields = [csrf(r), ['author', fullName(r)], ['email', email(r)], ['comment', Array.from({ length: r.int(1, 4) }, () => technicalSentence(r)).join('\n\n')]]; break;
      default: target = `/products/${slug(r.pick(products))}/reviews`; fields = [csrf(r), ['rating', String(r.int(1, 5))], ['title', r.pick(['Great!', 'Not bad', "Doesn't fit", 'Would buy again — 5/5'])], ['review', paragraph(r, 1, 4)]];
    }
    // Editors and SPA forms sometimes post as multipart (FormData); most as urlencoded.
    let wire: Buffer;
    if (r.chance(0.2)) {
      const m = multipart(r, fields);
      wire = browserPost(s, target, m.type, m.body, [], `https://${host}${target}`);
    } else wire = browserPost(s, target, FORM, formEncode(fields), [], `https://${host}${target}`);
    out.push(legit('forms', `forms#${i} ${kind}`, wire));
  }
  return out;
}

export function searchRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  const terms = [
    () => r.pick(products), () => word(r), () => `${word(r)} ${word(r)}`, () => fullName(r), () => r.pick(cities),
    () => r.pick(['how to select multiple rows', 'union station chicago', 'drop shipping', 'script writing course', 'alert sound settings', 'select comfort bed', 'sql join vs union', "men's shoes size 44", 'c++ vector erase', 'node.js <= 18', '"exact phrase" -excluded', 'price:<50', 'café near me', '1/2 inch drill bit', 'rock & roll', 'AT&T bill', 'what is 1+1', "Ben & Jerry's", '50% off', 'where is my order?', 'or', 'and/or', 'the table of contents', 'exec summary template', 'javascript:void(0) meaning']),
  ];
  for (let i = 0; i < count; i++) {
    const s = browserSession(r, 'www.example.com', r.chance(0.6) ? analyticsCookies(r) : '');
    const q = r.pick(terms)();
    const fields: Fields = [[r.pick(['q', 'q', 'search', 's', 'query', 'keyword']), q]];
    if (r.chance(0.4)) fields.push(['page', String(r.int(2, 9))]);
    if (r.chance(0.3)) fields.push(['sort', r.pick(['relevance', 'price_asc', 'newest'])]);
    if (r.chance(0.3)) fields.push(['category', r.pick(tags)]);
    if (r.chance(0.2)) fields.push(['utm_source', r.pick(['newsletter', 'google', 'facebook'])], ['utm_medium', 'email'], ['utm_campaign', 'spring_sale_2024']);
    const xhr = r.chance(0.3);
    const target = (xhr ? '/api/search/suggest' : r.pick(['/search', '/shop/search', '/'])) + query(fields);
    out.push(legit('search', `search#${i}`, browserGet(s, target, 'https://www.example.com/', xhr ? 'application/json' : undefined)));
  }
  return out;
}
