import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import type { RequestFacts } from './facts.ts';

/** The extension of the last path segment, lower case, '' when it has none (`/a/b`, `/a/.htaccess` is `htaccess`). */
export function pathExtension(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  return dot < 0 ? '' : segment.slice(dot + 1).toLowerCase();
}

/** The extension of an uploaded file's name ('' when none; a path in the name is ignored). */
export function fileNameExtension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).trim().toLowerCase();
}

/**
 * File type protection. Deny mode refuses the listed extensions; allow mode refuses every
 * extension not listed, but never a path without one (routes and folders are not files).
 * Scope `root` judges only files in the site's root folder (`/x.php`, not `/a/x.php`).
 */
export function checkFileType(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  const rule = policy.fileTypes;
  if (!rule) return null;
  if (rule.rootOnly && facts.path.lastIndexOf('/') > 0) return null;
  const extension = pathExtension(facts.path);
  if (extension === '') return null;
  const listed = rule.extensions.has(extension);
  if (rule.mode === 'deny' ? listed : !listed) return { action: 'block', rule: 'request.file_type', kind: 'policy', evidence: extension };
  return null;
}

/** Upload types: `*` any, a list (the empty item allows names without an extension), blank none. */
export function checkUploads(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  const types = policy.uploads;
  if (!types || types.kind === 'all' || facts.uploads.length === 0) return null;
  for (const name of facts.uploads) {
    const extension = fileNameExtension(name);
    if (types.kind === 'none' || !types.extensions.has(extension)) {
      return { action: 'block', rule: 'request.upload_type', kind: 'policy', location: 'file_name', evidence: name.slice(0, 120) };
    }
  }
  return null;
}
