/**
 * Files whose only reason to appear in a request is to be read by an attacker. Matched on the
 * normalized path (lower case, '/' separators, '//' and '/./' collapsed). Configuration folders
 * that tutorials name all the time (/etc/nginx/, /etc/apache2/) are deliberately not listed.
 */
export const sensitivePaths: readonly string[] = [
  '/etc/passwd', '/etc/shadow', '/etc/group', '/etc/hosts', '/etc/issue', '/etc/hostname', '/etc/sudoers',
  '/etc/crontab', '/etc/mysql/my.cnf', '/etc/ssh/sshd_config', '/etc/ssh/ssh_host_',
  '/proc/self/', '/proc/sys/', '/proc/version', '/proc/cmdline', '/proc/net/', '/proc/1/', '/var/log/apache2/access.log',
  '/var/log/nginx/access.log', '/var/log/httpd/access_log', '/var/log/auth.log', '/root/', '/.ssh/id_rsa', '/.ssh/id_dsa', '/.ssh/authorized_keys', '/.bash_history', '/.zsh_history', '/.mysql_history', '/.history',
  '/.htpasswd', '/.env', '/wp-config.php', '/web-inf/web.xml', '/meta-inf/', '/boot.ini', '/windows/win.ini',
  '/windows/system.ini', '/winnt/win.ini', '/windows/system32/config/', '/system32/drivers/etc/hosts', '/inetpub/',
  '/windows/repair/sam', '/windows/panther/', '/ntuser.dat', '/.aws/credentials', '/.git/config', '/.docker/config.json',
  // Kernel and container files read to fingerprint a host or take its secrets (CRS lfi-os-files).
  // Not /proc/mounts or /proc/meminfo: documentation and scripts name them (a /usr/share/doc sweep).
  '/proc/interrupts', '/proc/partitions', '/.docker/secrets', '/run/secrets/',
  // sysfs: hardware, kernel and firmware facts (CRS lfi-os-files `sys/class`…); a path must start with it.
  '/sys/class/', '/sys/kernel/', '/sys/firmware/', '/sys/devices/', '/sys/block/', '/sys/module/', '/sys/power/',
];

export function findSensitivePath(normalized: string): string | null {
  if (!normalized.includes('/')) return null;
  let path = normalized.replace(/\/(?:\.\/)+/g, '/').replace(/\/{2,}/g, '/');
  // ".ssh/id_rsa": a home-relative dot-path is as specific as the rooted one.
  if (path.startsWith('.') && !path.startsWith('..')) path = '/' + path;
  // `/sys/class` names the folder as well as `/sys/class/` does.
  const asFolder = path.endsWith('/') || !path.includes('/sys/') ? path : path + '/'; // only sysfs entries need it
  for (const p of sensitivePaths) {
    const at = (p.endsWith('/') ? asFolder : path).indexOf(p);
    if (at < 0) continue;
    // A file name this specific is enough anywhere in a path; directories must start the path.
    if (!p.endsWith('/')) return p;
    // The match must start a path: at the beginning, after a drive, a scheme, a traversal or a separator char.
    const before = path.slice(Math.max(0, at - 3), at);
    if (at === 0 || /(?:^|[^a-z0-9_-])[a-z]:$|\.\.$|[\s'"=:(,]$|^[a-z]?$/.test(before) || path[at - 1] === '.') return p;
    if (at > 0 && /[a-z0-9]$/.test(before) && p.startsWith('/windows')) return p; // c:/windows
  }
  return null;
}
