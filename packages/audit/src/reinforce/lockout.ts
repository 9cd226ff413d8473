import { hasLoginShell, type AccountFacts } from '../facts/accounts.ts';

/**
 * Whether an administrator can still log in over SSH with a given PermitRootLogin and
 * PasswordAuthentication: some sudo-capable account (uid 0 or in sudo/admin/wheel) with a login
 * shell and a way in — a key in its authorized_keys, or a usable password while password login is
 * on. root counts only as far as PermitRootLogin lets it in. The planner refuses an item after
 * which this is false, so reinforcement never locks the administrator out.
 */
export interface SshAccess {
  permitRootLogin: string;
  passwordAuthentication: string;
}

/** A hash that can match a password: not empty (PermitEmptyPasswords is judged elsewhere), not locked. */
const usablePassword = (hash: string | undefined) => hash !== undefined && hash !== '' && !hash.startsWith('!') && !hash.startsWith('*');

export function adminPaths(accounts: AccountFacts, access: SshAccess): string[] {
  const passwordOn = access.passwordAuthentication.toLowerCase() === 'yes';
  const rootMode = access.permitRootLogin.toLowerCase();
  const paths: string[] = [];
  for (const name of accounts.sudoCapable) {
    const entry = accounts.passwd.find((p) => p.name === name);
    if (!entry || !hasLoginShell(entry)) continue;
    const key = accounts.authorizedKeys.has(name);
    const password = passwordOn && usablePassword(accounts.shadow.find((s) => s.name === name)?.hash);
    if (entry.uid === 0 && name === 'root') {
      if (rootMode === 'yes' && (key || password)) paths.push(`root (${key ? 'key' : 'password'})`);
      else if ((rootMode === 'prohibit-password' || rootMode === 'without-password') && key) paths.push('root (key)');
      continue;
    }
    if (key || password) paths.push(`${name} (${key ? 'key' : 'password'})`);
  }
  return paths;
}
