/** File uploads from browser forms: avatars, ticket attachments, documents, CSV imports. */
import type { BenchRequest } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { fileName, fileTypes, type FileKind } from './files.ts';
import { analyticsCookies, browserPost, browserSession, legit, multipart } from './shape.ts';
import { sentence } from './text.ts';

export function uploadRequests(r: Random, count: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  const kinds: FileKind[] = ['png', 'jpeg', 'jpeg', 'pdf', 'csv', 'docx'];
  for (let i = 0; i < count; i++) {
    const kind = r.pick(kinds);
    const t = fileTypes[kind];
    const s = browserSession(r, 'app.example.com', `sid=${r.hex(16)}; ${analyticsCookies(r)}`);
    const purpose = kind === 'csv' ? 'import' : kind === 'png' || kind === 'jpeg' ? r.pick(['avatar', 'gallery', 'attachment']) : r.pick(['attachment', 'document']);
    const target = { import: '/admin/customers/import', avatar: '/account/avatar', gallery: `/albums/${r.int(1, 500)}/photos`, attachment: `/tickets/${r.int(1000, 99999)}/attachments`, document: '/documents/upload' }[purpose]!;
    const fields: [string, string][] = [['_token', r.bytes(24).toString('base64')]];
    if (purpose === 'attachment') fields.push(['comment', sentence(r)]);
    if (purpose === 'gallery') fields.push(['caption', sentence(r)], ['visibility', r.pick(['public', 'friends'])]);
    if (purpose === 'import') fields.push(['delimiter', ','], ['has_header', '1']);
    const files = Array.from({ length: purpose === 'gallery' ? r.int(1, 3) : 1 }, () => ({ field: purpose === 'gallery' ? 'photos[]' : 'file', filename: fileName(r, t.ext), type: t.mime, content: t.make(r) }));
    const m = multipart(r, fields, files);
    out.push(legit('uploads', `upload#${i} ${kind} ${purpose}`, browserPost(s, target, m.type, m.body, r.chance(0.5) ? [['X-Requested-With', 'XMLHttpRequest']] : [])));
  }
  return out;
}
