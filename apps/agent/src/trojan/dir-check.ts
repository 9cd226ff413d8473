import { realpath, stat } from 'node:fs/promises';

/** The root and the kernel's virtual file systems: never a protected directory (nothing to scan, or everything). */
const refusedRoots = ['/proc', '/sys', '/dev', '/run'];

export function isRefusedDir(resolved: string): boolean {
  return resolved === '/' || refusedRoots.some((root) => resolved === root || resolved.startsWith(`${root}/`));
}

export type DirCheck = { ok: true; path: string } | { ok: false; key: 'trojan_path_not_dir' | 'trojan_path_refused'; detail: string };

/** Resolves a directory the administrator named (symlinks followed) and checks it can be protected. */
export async function checkProtectedDir(input: string): Promise<DirCheck> {
  if (isRefusedDir(input.replace(/\/+$/, '') || '/')) return { ok: false, key: 'trojan_path_refused', detail: input };
  let resolved: string;
  try {
    resolved = await realpath(input);
    if (!(await stat(resolved)).isDirectory()) return { ok: false, key: 'trojan_path_not_dir', detail: input };
  } catch {
    return { ok: false, key: 'trojan_path_not_dir', detail: input };
  }
  if (isRefusedDir(resolved)) return { ok: false, key: 'trojan_path_refused', detail: input };
  return { ok: true, path: resolved };
}
