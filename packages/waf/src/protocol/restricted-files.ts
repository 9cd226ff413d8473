/**
 * Files a site must never serve, asked for by URL (CRS 920440 restricted extensions, 920500 editor
 * backups, 930130/930140 restricted files and tool folders): backups, dumps, secrets, version
 * control, dotfiles. Read on the decoded path (`dump%2Erdb` is `dump.rdb`), segment by segment.
 *
 * Severities (our choice): 2 for what only leaks (a backup or dump, `.env`, `.git/`, key material,
 * shell histories, an editor's `~` copy, `wp-config.php.bak`): no page links there, scanners probe
 * it. 1 for the rest of CRS's list, which real sites do serve now and then (`.log`, `.cfg`, `.key`
 * Keynote files, `.dll` downloads, `package.json`, unknown dot-folders).
 */
import { percentDecode } from '../decode/url.ts';
import { protocolHit, type ProtocolHit } from './hit.ts';
import type { RequestView } from './view.ts';

const where = { location: 'path' as const };

/** Extensions of dumps, backups and secrets. */
const leakExtensions = new Set(['bak', 'backup', 'old', 'orig', 'save', 'swp', 'swo', 'sql', 'mdb', 'rdb', 'sqlite', 'sqlite3', 'db', 'pwd', 'pass', 'htpasswd', 'htaccess', 'htdigest', 'ini', 'config', 'asa', 'asax', 'ppk', 'kdbx']);
/** CRS's restricted_extensions minus the above: odd for a web site, not proof of anything. */
const oddExtensions = new Set(['pem', 'tmp', 'temp', 'ascx', 'axd', 'bat', 'cdx', 'cer', 'cfg', 'cmd', 'com', 'conf', 'cs', 'csproj', 'csr', 'dat', 'dbf', 'dll', 'dos', 'htr', 'htw', 'ida', 'idc', 'idq', 'inc', 'key', 'licx', 'lnk', 'log', 'pdb', 'pol', 'printer', 'resources', 'resx', 'sys', 'vb', 'vbs', 'vbproj', 'vsdisco', 'webinfo', 'xsd', 'xsx']);

/** Dot-names (files or folders) that hold secrets or source: version control, credentials, histories, tool settings. */
const leakDotNames = new Set([
  '.env', '.git', '.svn', '.hg', '.bzr', '.cvs', '.htaccess', '.htpasswd', '.htdigest', '.ssh', '.aws', '.docker', '.kube', '.gnupg',
  '.netrc', '.npmrc', '.pypirc', '.pgpass', '.my.cnf', '.boto', '.git-credentials', '.gitconfig', '.ds_store', '.idea', '.vscode',
  '.bash_history', '.zsh_history', '.sh_history', '.history', '.mysql_history', '.psql_history', '.python_history', '.php_history',
  '.node_repl_history', '.sqlite_history', '.rediscli_history', '.lesshst', '.viminfo', '.bashrc', '.profile', '.zshrc',
  // AI coding tools keep keys and instructions in these (CRS 930140)
  '.claude', '.cursor', '.continue', '.aider', '.roo', '.zed', '.cline', '.kiro', '.windsurf', '.codex', '.opencode', '.a0proj',
  '.plandex', '.fabric', '.n8n', '.junie', '.rovodev', '.aiignore', '.cursorignore', '.cursorrules', '.clinerules', '.windsurfrules',
]);
/** Whole file names that leak configuration or secrets wherever they sit. */
const leakFileNames = new Set(['wp-config.php.bak', 'wp-config.bak', 'wp-config.old', 'wp-config.txt', 'wp-config.tmp', 'wp-config.php~', 'web.config', 'sftp-config.json', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'privkey.pem', 'authorized_keys', 'known_hosts', 'debug.log', 'error.log', 'errors.log', 'npm-debug.log', 'ws_ftp.ini', 'settings.local.php', 'parameters.yml', 'database.yml']);
/** Build files CRS also lists; real sites occasionally publish them. */
const oddFileNames = new Set(['package.json', 'package-lock.json', 'composer.json', 'composer.lock', 'yarn.lock', 'tsconfig.json', 'gruntfile.js', 'webpack.config.js', 'dockerfile', 'docker-compose.yml', '.gitignore', '.gitlab-ci.yml', '.travis.yml', 'bower.json', 'ormconfig.json']);

export function checkRestrictedFiles(view: RequestView): ProtocolHit | null {
  const raw = view.path;
  const decoded = (raw.includes('%') ? percentDecode(raw) : raw).toLowerCase();
  // Magento's app/etc/local.xml holds the database password; a "local.xml" elsewhere is anybody's.
  if (decoded.endsWith('/app/etc/local.xml')) return protocolHit('protocol.restricted_file', 2, where, raw);
  const segments = decoded.split(/[/\\]/);
  let weak: ProtocolHit | null = null;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!.split(';')[0]!; // Tomcat path parameters
    if (segment === '' || segment === '.' || segment === '..') continue;
    const last = i === segments.length - 1 || segments.slice(i + 1).every((s) => s === '');
    // Editors' backup copies: index.php~ (and .index.php.swp, by its extension below)
    if (/\.[a-z0-9]{1,5}~$/.test(segment)) return protocolHit('protocol.backup_file', 2, where, raw);
    if (segment.startsWith('.') && !segment.startsWith('..') && segment !== '.well-known') {
      const dotName = /^\.[^.]+(?:\.cnf)?/.exec(segment)?.[0] ?? segment;
      if (leakDotNames.has(segment) || leakDotNames.has(dotName)) return protocolHit('protocol.restricted_file', 2, where, raw);
      weak ??= protocolHit('protocol.dot_file', 1, where, raw);
    }
    if (leakFileNames.has(segment)) return protocolHit('protocol.restricted_file', 2, where, raw);
    if (!last) continue;
    if (oddFileNames.has(segment)) weak ??= protocolHit('protocol.restricted_file', 1, where, raw);
    const dot = segment.lastIndexOf('.');
    if (dot <= 0) continue;
    const ext = segment.slice(dot + 1);
    if (leakExtensions.has(ext)) return protocolHit('protocol.restricted_extension', 2, where, raw);
    // backup.sql.zip, site.tar.gz.bak: a dump inside an archive name
    if (/\.(?:sql|bak|old|backup)\.(?:zip|gz|tgz|bz2|xz|7z|rar|tar)$/.test(segment)) return protocolHit('protocol.restricted_extension', 2, where, raw);
    if (oddExtensions.has(ext)) weak ??= protocolHit('protocol.restricted_extension', 1, where, raw);
  }
  return weak;
}
