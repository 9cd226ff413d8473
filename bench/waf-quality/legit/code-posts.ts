/**
 * Blog and forum posts that contain code — SQL, shell, JavaScript, Python — in a content field, as
 * Stack Overflow-like forums, issue trackers and developer blogs accept them: markdown with fenced
 * blocks, editor HTML with <pre><code>, and JSON API bodies.
 */
import type { BenchRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { analyticsCookies, apiCall, browserPost, browserSession, formEncode, legit } from './shape.ts';
import { codeSnippet, escapeHtml, sentence, slug, tags, title } from './text.ts';

function postBody(r: Random, style: 'markdown' | 'html'): string {
  const blocks: string[] = [];
  for (let n = r.int(1, 3); n > 0; n--) {
    const { lang, code } = codeSnippet(r);
    const intro = sentence(r);
    blocks.push(style === 'markdown' ? `${intro}\n\n\`\`\`${lang}\n${code}\n\`\`\`` : `<p>${escapeHtml(intro)}</p>\n<pre><code class="language-${lang}">${escapeHtml(code)}</code></pre>`);
  }
  return blocks.join('\n\n');
}

export function codePostRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const t = title(r);
    const style = r.chance(0.6) ? 'markdown' : 'html';
    const content = postBody(r, style);
    const variant = r.pick(['form', 'form', 'json', 'json', 'inline']);
    let wire: Buffer;
    if (variant === 'form') {
      const s = browserSession(r, 'forum.example.org', `forum_session=${r.hex(20)}; ${analyticsCookies(r)}`);
      const target = r.pick(['/t/new', `/t/${slug(t)}/${r.int(100, 99999)}/reply`, '/questions/ask', `/wiki/${slug(t)}/edit`]);
      wire = browserPost(s, target, 'application/x-www-form-urlencoded', formEncode([['authenticity_token', r.bytes(32).toString('base64')], ['title', t], ['content', content], ['tags', `${r.pick(tags)},${r.pick(tags)}`], ['format', style]]));
    } else if (variant === 'json') {
      wire = apiCall(r, r.pick(['POST', 'PUT']), r.pick(['/api/posts', `/api/posts/${r.int(1, 9999)}`, '/api/v1/discussions/comments', '/repos/acme/app/issues']), { title: t, content, content_format: style, tags: [r.pick(tags)], draft: r.chance(0.2) }, 'forum.example.org');
    } else {
      // A one-line comment with inline code, as chat-like comment boxes send it.
      const { code } = codeSnippet(r);
      const s = browserSession(r, 'forum.example.org', `forum_session=${r.hex(20)}`);
      wire = browserPost(s, `/comments/${r.int(1, 99999)}`, 'application/x-www-form-urlencoded', formEncode([['body', `Try \`${code.split('\n')[0]}\` — ${sentence(r)}`]]), [['X-Requested-With', 'XMLHttpRequest']]);
    }
    out.push(legit('code-posts', `code#${i} ${variant} ${style}`, wire));
  }
  return out;
}
