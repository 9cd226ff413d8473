/**
 * Upload names that overwrite what the application or the system reads (CRS 932180's restricted
 * upload list): an upload lands in a folder the attacker may steer with `../`, so the name says
 * which file is to be replaced. Matched on the whole name, lower-cased, every blank removed
 * (`config.yml `, `wp-config. php` are saved under the plain name), never as a substring:
 * `abc.botox.jpg`, `amtrra.jpg`, `JACpic.jpg` are anybody's pictures.
 *
 * Severities (our choice): 2 for names no one's own document carries — kernel files under /proc,
 * credential dotfiles, any copy of WordPress's wp-config (`wp-config-php.bak`, `wp-config_php.txt`);
 * 1 for framework configuration names (`config.yml`, `routing.yml`, `local.xml`), which a
 * developer tool's upload form may take honestly.
 */

/** Files of /proc a write to changes the machine (mtrr, sysrq-trigger) or that leak it (kcore); no document is named so. */
const procFiles = new Set([
  'mtrr', 'acpi', 'kcore', 'kmsg', 'kallsyms', 'sysrq-trigger', 'cpuinfo', 'meminfo', 'iomem', 'ioports', 'slabinfo',
  'vmallocinfo', 'zoneinfo', 'buddyinfo', 'pagetypeinfo', 'kpagecount', 'kpageflags', 'sched_debug', 'timer_list',
]);
/** Credential and start-up files of a user's home: written, they hand over keys or run code at the next login. */
const credentialFiles = new Set([
  '.env', '.boto', '.netrc', '.npmrc', '.pypirc', '.pgpass', '.my.cnf', '.git-credentials', '.gitconfig', '.bashrc',
  '.bash_profile', '.profile', '.zshrc', '.htdigest', 'authorized_keys', '.s3cfg', '.dockercfg',
]);
/** Configuration of PHP frameworks (Symfony, Drupal, Magento, Rails) that CRS lists. */
const frameworkConfig = new Set([
  'config.yml', 'config_dev.yml', 'config_prod.yml', 'config_test.yml', 'parameters.yml', 'routing.yml', 'security.yml',
  'services.yml', 'default.settings.php', 'settings.php', 'settings.local.php', 'local.xml', 'database.yml',
]);

export interface RestrictedUpload {
  severity: 1 | 2;
}

/** `base`: the last path component of the uploaded name, as sent. */
export function restrictedUpload(base: string): RestrictedUpload | null {
  const name = base.toLowerCase().replace(/\s+/g, '');
  if (name.length < 4 || name.length > 64) return null;
  if (procFiles.has(name) || credentialFiles.has(name)) return { severity: 2 };
  // `.env.production`, `.env.local`: the same secrets per environment.
  if (name.startsWith('.env.')) return { severity: 2 };
  // `wp-config.php`, `wp-config-php.bak`, `wp-config_php.txt`: WordPress's database password file, in any copy.
  if (/^wp-config(?:$|[._-])/.test(name) && !name.startsWith('wp-config-sample')) return { severity: 2 };
  if (frameworkConfig.has(name)) return { severity: 1 };
  return null;
}
