/**
 * The legitimate set: at least 10,000 requests of real-world shape, generated from a seed (the same
 * bytes every run). The mix, in requests:
 *   wordpress   2,600  Debian's WordPress 6.1 admin and visitor traffic (wordpress.ts)
 *   api         2,200  REST CRUD and GraphQL with JSON bodies, bearer tokens (api.ts)
 *   forms       1,800  sign-in, registration, contact, checkout, profile, editor HTML, prose comments
 *   code-posts  1,400  forum and blog posts with SQL, shell, JavaScript and Python snippets
 *   search      1,000  site search and suggestions, including words like select, union, drop, script
 *   uploads       700  PNG, JPEG, PDF, CSV and DOCX uploads in multipart forms
 *   browsing      800  page views, assets, images, fonts, conditional GETs, CORS preflights
 *   total      10,500
 */
import type { BenchRequest } from '../bench-request.ts';
import { seededRandom } from '../random.ts';
import { apiRequests } from './api.ts';
import { browsingRequests } from './browsing.ts';
import { codePostRequests } from './code-posts.ts';
import { formRequests, searchRequests } from './forms.ts';
import { uploadRequests } from './uploads.ts';
import { wordpressRequests } from './wordpress.ts';

export const legitMix = { wordpress: 2600, api: 2200, forms: 1800, 'code-posts': 1400, search: 1000, uploads: 700, browsing: 800 } as const;

export function generateLegit(seed = 20260601): BenchRequest[] {
  // One generator per part, so changing one part's template does not reshuffle the others.
  const part = (offset: number) => seededRandom(seed + offset);
  return [
    ...wordpressRequests(part(1), legitMix.wordpress),
    ...apiRequests(part(2), legitMix.api),
    ...formRequests(part(3), legitMix.forms),
    ...codePostRequests(part(4), legitMix['code-posts']),
    ...searchRequests(part(5), legitMix.search),
    ...uploadRequests(part(6), legitMix.uploads),
    ...browsingRequests(part(7), legitMix.browsing),
  ];
}
