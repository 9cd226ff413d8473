/**
 * Admin and visitor traffic of Debian's WordPress package (6.1), shaped after its sources under
 * /usr/share/wordpress: the block editor's REST saves (wp-includes/js/dist/api-fetch: PUT/PATCH sent
 * as POST with X-HTTP-Method-Override, X-WP-Nonce, `_locale=user`), autosaves, the classic editor's
 * post.php form (wp-admin/edit-form-advanced.php, includes/meta-boxes.php), options.php for the
 * general/reading/discussion pages, admin-ajax.php actions (dim-comment, delete-comment,
 * replyto-comment, inline-save, heartbeat, customize_save), async-upload.php media uploads, profile
 * updates, wp-login.php and wp-comments-post.php.
 */
import type { BenchRequest, HeaderList } from '../bench-request.ts';
import { httpRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { fileName, fileTypes } from './files.ts';
import { browserGet, browserPost, browserSession, formEncode, legit, multipart, query, type Fields, type Session } from './shape.ts';
import { codeSnippet, editorHtml, email, escapeHtml, fullName, paragraph, sentence, slug, tags, title } from './text.ts';

const HOST = 'blog.example.com';
const SITE = `https://${HOST}`;
const FORM = 'application/x-www-form-urlencoded; charset=UTF-8';
const siteHash = 'd5a7c1e0f3b2a4968c7e1f0a2b3c4d5e';

function nonce(r: Random): string {
  return r.hex(5);
}

function adminCookie(r: Random): string {
  const exp = r.int(1716000000, 1718000000);
  const token = r.bytes(32).toString('base64url').slice(0, 43);
  const user = r.pick(['admin', 'editor', 'anna.m']);
  return `wordpress_sec_${siteHash}=${user}%7C${exp}%7C${token}%7C${r.hex(32)}; wordpress_logged_in_${siteHash}=${user}%7C${exp}%7C${token}%7C${r.hex(32)}; wp-settings-1=libraryContent%3Dbrowse%26editor%3D${r.pick(['tinymce', 'html'])}%26posts_list_mode%3Dlist; wp-settings-time-1=${exp - 1209600}`;
}

/** Block editor markup (serialized blocks) as Gutenberg saves it. */
function blockContent(r: Random): string {
  const blocks = [
    () => `<!-- wp:paragraph -->\n<p>${escapeHtml(paragraph(r, 1, 3))}</p>\n<!-- /wp:paragraph -->`,
    () => { const l = r.int(2, 4); return `<!-- wp:heading${l === 2 ? '' : ` {"level":${l}}`} -->\n<h${l} class="wp-block-heading">${escapeHtml(title(r))}</h${l}>\n<!-- /wp:heading -->`; },
    () => { const id = r.int(10, 900); return `<!-- wp:image {"id":${id},"sizeSlug":"large","linkDestination":"none"} -->\n<figure class="wp-block-image size-large"><img src="${SITE}/wp-content/uploads/2024/0${r.int(1, 9)}/IMG_${r.int(1000, 9999)}-1024x768.jpg" alt="${escapeHtml(sentence(r).slice(0, 40))}" class="wp-image-${id}"/><figcaption class="wp-element-caption">${escapeHtml(sentence(r))}</figcaption></figure>\n<!-- /wp:image -->`; },
    () => `<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>${escapeHtml(sentence(r))}</li>\n<!-- /wp:list-item -->\n\n<!-- wp:list-item -->\n<li><a href="https://example.org/${slug(title(r))}">${escapeHtml(title(r))}</a></li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->`,
    () => `<!-- wp:code -->\n<pre class="wp-block-code"><code>${escapeHtml(codeSnippet(r).code)}</code></pre>\n<!-- /wp:code -->`,
    () => `<!-- wp:quote -->\n<blockquote class="wp-block-quote"><!-- wp:paragraph -->\n<p>${escapeHtml(sentence(r))}</p>\n<!-- /wp:paragraph --><cite>${escapeHtml(fullName(r))}</cite></blockquote>\n<!-- /wp:quote -->`,
    () => `<!-- wp:buttons -->\n<div class="wp-block-buttons"><!-- wp:button {"backgroundColor":"vivid-cyan-blue"} -->\n<div class="wp-block-button"><a class="wp-block-button__link has-vivid-cyan-blue-background-color has-background wp-element-button" href="${SITE}/shop/">Shop now</a></div>\n<!-- /wp:button --></div>\n<!-- /wp:buttons -->`,
    () => { const v = r.bytes(8).toString('base64url').slice(0, 11); return `<!-- wp:embed {"url":"https://www.youtube.com/watch?v=${v}","type":"video","providerNameSlug":"youtube","responsive":true,"className":"wp-embed-aspect-16-9 wp-has-aspect-ratio"} -->\n<figure class="wp-block-embed is-type-video is-provider-youtube wp-block-embed-youtube wp-embed-aspect-16-9 wp-has-aspect-ratio"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=${v}\n</div></figure>\n<!-- /wp:embed -->`; },
    () => `<!-- wp:table -->\n<figure class="wp-block-table"><table><tbody><tr><td>Mon</td><td>9:00–17:00</td></tr><tr><td>Sat</td><td>closed</td></tr></tbody></table></figure>\n<!-- /wp:table -->`,
    () => `<!-- wp:html -->\n<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2624.9!2d2.29!3d48.85!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>\n<!-- /wp:html -->`,
    () => '<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n<!-- /wp:separator -->',
  ];
  return Array.from({ length: r.int(2, 7) }, () => r.pick(blocks)()).join('\n\n');
}

function restHeaders(r: Random, s: Session, override?: string): HeaderList {
  const h: HeaderList = [['Host', HOST], ['User-Agent', s.ua], ['Accept', 'application/json, */*;q=0.1'], ['Accept-Language', s.lang], ['X-WP-Nonce', nonce(r)], ['Origin', SITE], ['Referer', `${SITE}/wp-admin/post.php?post=${r.int(1, 999)}&action=edit`], ['Cookie', s.cookie]];
  if (override) h.push(['X-HTTP-Method-Override', override]);
  return h;
}

function restJson(r: Random, s: Session, target: string, body: unknown, override?: string): Buffer {
  return httpRequest('POST', target, [...restHeaders(r, s, override), ['Content-Type', 'application/json']], JSON.stringify(body));
}

function classicEdit(r: Random, id: number): Fields {
  const t = title(r);
  const d = new Date(Date.UTC(2024, r.int(0, 11), r.int(1, 28), r.int(0, 23), r.int(0, 59)));
  const two = (n: number) => String(n).padStart(2, '0');
  return [
    ['_wpnonce', nonce(r)], ['_wp_http_referer', `/wp-admin/post.php?post=${id}&action=edit`], ['user_ID', '1'], ['action', 'editpost'], ['originalaction', 'editpost'],
    ['post_author', '1'], ['post_type', r.pick(['post', 'page'])], ['original_post_status', 'publish'], ['referredby', `${SITE}/wp-admin/edit.php`], ['_wp_original_http_referer', `${SITE}/wp-admin/edit.php`],
    ['post_ID', String(id)], ['meta-box-order-nonce', nonce(r)], ['closedpostboxesnonce', nonce(r)], ['post_title', t], ['samplepermalinknonce', nonce(r)],
    ['content', editorHtml(r)], ['wp-preview', ''], ['hidden_post_status', 'publish'], ['post_status', 'publish'], ['hidden_post_password', ''], ['hidden_post_visibility', 'public'], ['visibility', 'public'], ['post_password', ''],
    ['mm', two(d.getUTCMonth() + 1)], ['jj', two(d.getUTCDate())], ['aa', String(d.getUTCFullYear())], ['hh', two(d.getUTCHours())], ['mn', two(d.getUTCMinutes())], ['ss', '00'],
    ['hidden_mm', two(d.getUTCMonth() + 1)], ['cur_mm', '05'], ['hidden_jj', two(d.getUTCDate())], ['cur_jj', '14'], ['hidden_aa', '2024'], ['cur_aa', '2024'], ['hidden_hh', '10'], ['cur_hh', '10'], ['hidden_mn', '30'], ['cur_mn', '31'],
    ['original_publish', 'Update'], ['save', 'Update'], ['post_format', '0'], ['post_category[]', '0'], ['post_category[]', String(r.int(1, 20))], ['tax_input[post_tag]', `${r.pick(tags)},${r.pick(tags)}`], ['newtag[post_tag]', ''],
    ['excerpt', r.chance(0.4) ? sentence(r) : ''], ['trackback_url', ''], ['metakeyinput', ''], ['metavalue', ''], ['_ajax_nonce-add-meta', nonce(r)], ['advanced_view', '1'], ['comment_status', 'open'], ['ping_status', 'open'], ['post_name', slug(t)], ['post_author_override', '1'],
  ];
}

function optionsForm(r: Random): { page: string; fields: Fields } {
  const page = r.pick(['general', 'reading', 'discussion']);
  const common: Fields = [['option_page', page], ['action', 'update'], ['_wpnonce', nonce(r)], ['_wp_http_referer', `/wp-admin/options-${page}.php`]];
  if (page === 'general') return { page, fields: [...common, ['blogname', r.pick(["Anna's Kitchen", 'Café & Co.', 'Dev Notes — SQL, Shell & JS', 'Das Blog'])], ['blogdescription', sentence(r)], ['siteurl', SITE], ['home', SITE], ['new_admin_email', email(r)], ['default_role', 'subscriber'], ['WPLANG', r.pick(['', 'de_DE', 'fr_FR'])], ['timezone_string', r.pick(['Europe/Berlin', 'UTC+2', 'America/New_York'])], ['date_format', 'custom'], ['date_format_custom', r.pick(['F j, Y', 'd.m.Y', 'Y-m-d'])], ['time_format', 'custom'], ['time_format_custom', r.pick(['g:i a', 'H:i'])], ['start_of_week', '1']] };
  if (page === 'reading') return { page, fields: [...common, ['show_on_front', r.pick(['posts', 'page'])], ['page_on_front', String(r.int(0, 50))], ['page_for_posts', '0'], ['posts_per_page', String(r.int(5, 20))], ['posts_per_rss', '10'], ['rss_use_excerpt', '0'], ['blog_public', '1']] };
  return { page, fields: [...common, ['default_pingback_flag', '1'], ['default_ping_status', 'open'], ['default_comment_status', 'open'], ['require_name_email', '1'], ['close_comments_days_old', '14'], ['thread_comments', '1'], ['thread_comments_depth', '5'], ['comments_per_page', '50'], ['default_comments_page', 'newest'], ['comment_order', 'asc'], ['comments_notify', '1'], ['moderation_notify', '1'], ['comment_moderation', '0'], ['comment_previously_approved', '1'], ['comment_max_links', '2'], ['moderation_keys', 'casino\nloan offer\nhttp://bit.ly'], ['disallowed_keys', 'viagra\ncheap pills\n'], ['show_avatars', '1'], ['avatar_rating', 'G'], ['avatar_default', 'mystery']] };
}

export function wordpressRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const admin = browserSession(r, HOST, adminCookie(r));
    const visitor = browserSession(r, HOST, `comment_author_${siteHash}=${encodeURIComponent(fullName(r))}; wp-settings-time-1=1716000000`);
    const id = r.int(1, 999);
    const kind = r.pick(['rest-save', 'rest-save', 'autosave', 'classic-edit', 'options', 'moderate', 'reply', 'quick-edit', 'heartbeat', 'media', 'media-rest', 'profile', 'customize-css', 'login', 'comment', 'admin-get', 'admin-get', 'rest-get']);
    let wire: Buffer;
    switch (kind) {
      case 'rest-save': {
        const t = title(r);
        wire = restJson(r, admin, `/wp-json/wp/v2/${r.pick(['posts', 'pages'])}/${id}?_locale=user`, { id, title: t, content: blockContent(r), status: r.pick(['publish', 'draft', 'future']), excerpt: r.chance(0.3) ? sentence(r) : '', slug: slug(t), categories: [r.int(1, 20)], tags: [r.int(1, 60), r.int(1, 60)], meta: { footnotes: '' } }, 'PUT');
        break;
      }
      case 'autosave': wire = restJson(r, admin, `/wp-json/wp/v2/posts/${id}/autosaves?_locale=user`, { id, title: title(r), content: blockContent(r), excerpt: '' }); break;
      case 'classic-edit': wire = browserPost(admin, '/wp-admin/post.php', 'application/x-www-form-urlencoded', formEncode(classicEdit(r, id)), [], `${SITE}/wp-admin/post.php?post=${id}&action=edit`); break;
      case 'options': { const o = optionsForm(r); wire = browserPost(admin, '/wp-admin/options.php', 'application/x-www-form-urlencoded', formEncode(o.fields), [], `${SITE}/wp-admin/options-${o.page}.php`); break; }
      case 'moderate': {
        const action = r.pick(['dim-comment', 'delete-comment']);
        const f: Fields = action === 'dim-comment'
          ? [['id', String(r.int(1, 5000))], ['new', r.pick(['approved', 'unapproved'])], ['_ajax_nonce', nonce(r)], ['action', 'dim-comment'], ['_url', `${SITE}/wp-admin/edit-comments.php?comment_status=moderated`]]
          : [['id', String(r.int(1, 5000))], ['_ajax_nonce', nonce(r)], [r.pick(['trash', 'spam']), '1'], ['_total', String(r.int(5, 300))], ['_per_page', '20'], ['_page', '1'], ['_url', `${SITE}/wp-admin/edit-comments.php`], ['action', 'delete-comment']];
        wire = browserPost(admin, '/wp-admin/admin-ajax.php', FORM, formEncode(f), [['X-Requested-With', 'XMLHttpRequest']], `${SITE}/wp-admin/edit-comments.php`);
        break;
      }
      case 'reply': wire = browserPost(admin, '/wp-admin/admin-ajax.php', FORM, formEncode([['_ajax_nonce-replyto-comment', nonce(r)], ['action', 'replyto-comment'], ['comment_ID', String(r.int(1, 5000))], ['comment_post_ID', String(id)], ['status', ''], ['position', '-1'], ['checkbox', '0'], ['mode', 'detail'], ['approve_parent', '1'], ['content', Array.from({ length: r.int(1, 3) }, () => sentence(r)).join('\n\n')]]), [['X-Requested-With', 'XMLHttpRequest']], `${SITE}/wp-admin/edit-comments.php`); break;
      case 'quick-edit': { const t = title(r); wire = browserPost(admin, '/wp-admin/admin-ajax.php', FORM, formEncode([['post_title', t], ['post_name', slug(t)], ['mm', '05'], ['jj', '14'], ['aa', '2024'], ['hh', '10'], ['mn', '30'], ['ss', '00'], ['screen', 'edit-post'], ['post_author', '1'], ['post_password', ''], ['post_category[]', '0'], ['post_category[]', String(r.int(1, 20))], ['tax_input[post_tag]', `${r.pick(tags)}, ${r.pick(tags)}`], ['comment_status', 'open'], ['ping_status', 'open'], ['_status', 'publish'], ['post_format', ''], ['_inline_edit', nonce(r)], ['post_view', 'list'], ['edit_date', 'true'], ['action', 'inline-save'], ['post_type', 'post'], ['post_ID', String(id)]]), [['X-Requested-With', 'XMLHttpRequest']], `${SITE}/wp-admin/edit.php`); break; }
      case 'heartbeat': wire = browserPost(admin, '/wp-admin/admin-ajax.php', FORM, formEncode([['data[wp-refresh-post-lock][lock]', `${r.int(1716000000, 1718000000)}:1`], ['data[wp-refresh-post-lock][post_id]', String(id)], ['data[wp_autosave][post_id]', String(id)], ['interval', r.pick(['15', '60', '120'])], ['_nonce', nonce(r)], ['action', 'heartbeat'], ['screen_id', r.pick(['post', 'dashboard', 'edit-post'])], ['has_focus', r.pick(['true', 'false'])]]), [['X-Requested-With', 'XMLHttpRequest']], `${SITE}/wp-admin/post.php?post=${id}&action=edit`); break;
      case 'media': {
        const t = fileTypes[r.pick(['jpeg', 'png', 'pdf'] as const)];
        const name = fileName(r, t.ext);
        const m = multipart(r, [['name', name], ['action', 'upload-attachment'], ['_wpnonce', nonce(r)], ['post_id', String(id)]], [{ field: 'async-upload', filename: name, type: t.mime, content: t.make(r) }]);
        wire = browserPost(admin, '/wp-admin/async-upload.php', m.type, m.body, [], `${SITE}/wp-admin/upload.php`);
        break;
      }
      case 'media-rest': {
        const t = fileTypes[r.pick(['jpeg', 'png'] as const)];
        wire = httpRequest('POST', '/wp-json/wp/v2/media?_locale=user', [...restHeaders(r, admin), ['Content-Type', t.mime], ['Content-Disposition', `attachment; filename="${fileName(r, t.ext).replace(/[^\x20-\x7e]/g, '_')}"`]], t.make(r));
        break;
      }
      case 'profile': { const n = fullName(r); wire = browserPost(admin, '/wp-admin/profile.php', 'application/x-www-form-urlencoded', formEncode([['_wpnonce', nonce(r)], ['_wp_http_referer', '/wp-admin/profile.php'], ['from', 'profile'], ['checkuser_id', '1'], ['admin_color', r.pick(['fresh', 'midnight', 'ocean'])], ['admin_bar_front', '1'], ['locale', 'site-default'], ['first_name', n.split(' ')[0]!], ['last_name', n.split(' ').slice(1).join(' ')], ['nickname', 'admin'], ['display_name', n], ['email', email(r)], ['url', `https://${slug(n)}.example.net`], ['description', paragraph(r, 1, 3)], ['pass1', ''], ['pass2', ''], ['action', 'update'], ['user_id', '1'], ['submit', 'Update Profile']]), [], `${SITE}/wp-admin/profile.php`); break; }
      case 'customize-css': {
        const css = `/* ${sentence(r).replace(/\*\//g, '')} */\n.site-header { background: #${r.hex(3)}; }\n.entry-content a:hover { text-decoration: underline; }\n@media (max-width: 600px) { .wp-block-columns { flex-wrap: wrap !important; } }\nbody.home .hero::after { content: "→"; }`;
        wire = browserPost(admin, `/wp-admin/admin-ajax.php`, FORM, formEncode([['wp_customize', 'on'], ['customize_theme', 'twentytwentythree'], ['nonce', nonce(r)], ['customize_changeset_uuid', `${r.hex(4)}-${r.hex(2)}-${r.hex(2)}-${r.hex(2)}-${r.hex(6)}`], ['customize_autosaved', 'on'], ['customized', JSON.stringify({ 'custom_css[twentytwentythree]': css, blogdescription: sentence(r) })], ['customize_changeset_status', 'publish'], ['action', 'customize_save'], ['customize_changeset_data', JSON.stringify({ 'custom_css[twentytwentythree]': { value: css } })]]), [['X-Requested-With', 'XMLHttpRequest']], `${SITE}/wp-admin/customize.php`);
        break;
      }
      case 'login': {
        const s = browserSession(r, HOST, 'wordpress_test_cookie=WP%20Cookie%20check');
        wire = browserPost(s, '/wp-login.php', 'application/x-www-form-urlencoded', formEncode([['log', r.pick(['admin', 'editor', email(r)])], ['pwd', r.pick(['Summer2024!', "it's-a-secret", 'P@ss w0rd<3', 'select-1-from-dual'])], ['rememberme', 'forever'], ['wp-submit', 'Log In'], ['redirect_to', `${SITE}/wp-admin/`], ['testcookie', '1']]), [], `${SITE}/wp-login.php`);
        break;
      }
      case 'comment': wire = browserPost(visitor, '/wp-comments-post.php', 'application/x-www-form-urlencoded', formEncode([['comment', Array.from({ length: r.int(1, 3) }, () => sentence(r)).join('\n')], ['author', fullName(r)], ['email', email(r)], ['url', r.chance(0.3) ? `https://${slug(fullName(r))}.example.net` : ''], ['wp-comment-cookies-consent', 'yes'], ['submit', 'Post Comment'], ['comment_post_ID', String(id)], ['comment_parent', String(r.chance(0.3) ? r.int(1, 5000) : 0)]]), [], `${SITE}/${slug(title(r))}/`); break;
      case 'admin-get': wire = browserGet(admin, r.pick([
        `/wp-admin/post.php?post=${id}&action=edit`, '/wp-admin/edit.php?post_type=page&orderby=date&order=desc', '/wp-admin/edit-comments.php?comment_status=moderated', '/wp-admin/upload.php?mode=grid',
        '/wp-admin/plugins.php?plugin_status=all&paged=1&s', `/wp-admin/edit.php?s=${encodeURIComponent(r.pick(['select', 'union station', 'drop', 'script tags']))}&post_status=all&post_type=post&action=-1&m=0&cat=0&paged=1&action2=-1`,
        '/wp-admin/load-styles.php?c=0&dir=ltr&load%5Bchunk_0%5D=dashicons,admin-bar,common,forms,admin-menu,dashboard,list-tables,edit,revisions,media,themes,about,nav-menus,wp-pointer,widgets&load%5Bchunk_1%5D=,site-icon,l10n,buttons,wp-auth-check&ver=6.1.9',
        '/wp-admin/load-scripts.php?c=0&load%5Bchunk_0%5D=jquery-core,jquery-migrate,utils,wp-hooks&ver=6.1.9', `/wp-admin/options-general.php?settings-updated=true`, `/wp-admin/edit-comments.php?p=${id}&approved=1`,
      ]), `${SITE}/wp-admin/`); break;
      default: wire = httpRequest('GET', r.pick([
        '/wp-json/wp/v2/types?context=view&_locale=user', '/wp-json/wp/v2/users/me?_locale=user', '/wp-json/wp/v2/blocks?per_page=100&_locale=user',
        '/wp-json/wp/v2/categories?per_page=100&orderby=name&order=asc&_fields=id%2Cname%2Cparent&_locale=user',
        `/wp-json/wp/v2/search?search=${encodeURIComponent(r.pick(['select', 'union', 'script', 'how to', title(r)]))}&per_page=20&type=post&subtype=any&_locale=user`,
        `/wp-json/wp/v2/media?context=edit&per_page=50&media_type=image&_locale=user${query([['search', r.pick(['', 'photo', 'logo'])]]).replace('?', '&')}`,
        `/wp-json/wp/v2/posts/${id}?context=edit&_locale=user`, `/wp-json/wp/v2/templates?context=edit&post_type=post&_locale=user`,
      ]), restHeaders(r, admin));
    }
    out.push(legit('wordpress', `wp#${i} ${kind}`, wire));
  }
  return out;
}
