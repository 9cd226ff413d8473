import { realpath, stat } from 'node:fs/promises';
import { bytesOfPath, pathFromBytes } from '@rampart/webshell';

/** The root and the kernel's virtual file systems: never a protected directory (nothing to scan, or everything). */
const refusedRoots = ['/proc', '/sys', '/dev', '/run'];

export function isRefusedDir(resolved: string): boolean {
  return resolved === '/' || refusedRoots.some((root) => resolved === root || resolved.startsWith(`${root}/`));
}

/**
 * System folders are never protected directories: files found there are handled automatically
 * (isolated or deleted), and a rule matching a system file (a custom YARA rule written too broadly,
 * a JavaScript file of a packaged tool) would take it away and could leave the server unable to
 * boot or sign in. Their whole subtrees are refused; the broad parents (/usr, /var, /home…) only
 * as themselves, so /var/www, /usr/share/nginx/html and /home/site/public_html stay allowed. The
 * audit's one-off scan may still read them: its findings wait for the administrator.
 */
const systemSubtrees = ['/etc', '/boot', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib32', '/usr/lib64', '/usr/libexec', '/usr/include', '/var/lib', '/var/cache', '/var/log', '/root'];
const broadParents = ['/usr', '/usr/share', '/usr/local', '/var', '/home', '/opt', '/srv', '/mnt', '/media', '/tmp', '/var/tmp'];

export function isSystemDir(resolved: string): boolean {
  return broadParents.includes(resolved) || systemSubtrees.some((root) => resolved === root || resolved.startsWith(`${root}/`));
}

/**
 * realpath(3) of a path in @rampart/webshell's encoded form (a name that is not UTF-8 written as
 * `\xNN`), answered in that form: what the administrator copies from the console resolves.
 */
export async function realpathEncoded(input: string): Promise<string> {
  return pathFromBytes(await realpath(bytesOfPath(input), { encoding: 'buffer' }));
}

export type DirCheck = { ok: true; path: string } | { ok: false; key: 'trojan_path_not_dir' | 'trojan_path_refused' | 'trojan_path_system'; detail: string };

/** Resolves a directory the administrator named (symlinks followed) and checks it can be protected. */
export async function checkProtectedDir(input: string): Promise<DirCheck> {
  if (isRefusedDir(input.replace(/\/+$/, '') || '/')) return { ok: false, key: 'trojan_path_refused', detail: input };
  let resolved: string;
  try {
    resolved = await realpathEncoded(input);
    if (!(await stat(bytesOfPath(resolved))).isDirectory()) return { ok: false, key: 'trojan_path_not_dir', detail: input };
  } catch {
    return { ok: false, key: 'trojan_path_not_dir', detail: input };
  }
  if (isRefusedDir(resolved)) return { ok: false, key: 'trojan_path_refused', detail: input };
  if (isSystemDir(resolved)) return { ok: false, key: 'trojan_path_system', detail: input };
  return { ok: true, path: resolved };
}
