import type { GuardNamingRule, GuardPlanInput, GuardTamperRule } from '../src/index.ts';

/* Planner inputs for the goldens: each a small, readable host. */

export function tamperRule(id: number, fields: Partial<GuardTamperRule>): GuardTamperRule {
  return { id, enabled: true, path: '/var/www', sub_path: '*', process: '*', exempt: [], level: 10, ops: ['w'], notify: true, ...fields };
}

export function namingRule(id: number, fields: Partial<GuardNamingRule>): GuardNamingRule {
  return { id, enabled: true, dir: '/var/www', deny_dirs: [], deny_files: [], deny_malformed: false, notify: true, ...fields };
}

const dir = (ino: number) => ({ dev: 2049, ino, dir: true });
const file = (ino: number) => ({ dev: 2049, ino, dir: false });

export function baseInput(fields: Partial<GuardPlanInput>): GuardPlanInput {
  return { tamper: [], naming: [], resolved: {}, exes: {}, selfPaths: [], trustedPids: [4242], enforce: true, generation: 7, backendOps: ['r', 'x', 'd', 'c', 'n', 'w', 't'], ...fields };
}

/**
 * A web server: the tree is protected from everyone but the deploy tool; php-fpm may write the
 * upload folder (an allow rule, level 5); PHP files in each site are protected from writes; a naming
 * rule keeps scripts and odd names out of the upload folder.
 */
export const webTree = baseInput({
  tamper: [
    tamperRule(1, { path: '/var/www', ops: ['w', 'd', 'c', 'n'], exempt: ['/usr/bin/rsync'], level: 10 }),
    tamperRule(2, { path: '/var/www/*', sub_path: 'uploads/', process: '*php-fpm*', ops: [], level: 5, notify: false }),
    tamperRule(3, { path: '/var/www/site*', sub_path: '*.php', ops: ['w', 't'], level: 20 }),
    tamperRule(4, { path: '/var/www/old', enabled: false }),
  ],
  naming: [namingRule(1, { dir: '/var/www/uploads', deny_files: ['*.php', 'shell*', 'a*.jsp'], deny_dirs: ['tmp'], deny_malformed: true })],
  resolved: {
    '/var/www': dir(100),
    '/var/www/uploads': dir(101),
    '/var/www/site1': dir(102),
    '/var/www/site2': dir(103),
    // a deeper path resolved for another reason is not an entry of `/var/www/site*`
    '/var/www/site1/sitemap': dir(104),
    '/opt/rampart': dir(900),
  },
  exes: {
    '/usr/bin/rsync': [{ dev: 2049, ino: 5001, path: '/usr/bin/rsync' }],
    '*php-fpm*': [
      { dev: 2049, ino: 5002, path: '/usr/sbin/php-fpm8.2' },
      { dev: 2049, ino: 5002, path: '/usr/sbin/php-fpm' },
    ],
  },
  selfPaths: ['/opt/rampart'],
});

/**
 * A rule over all of `/` (the administrator confirmed it twice) with Rampart's own directory inside:
 * the `self` slot comes first in every set at or below it, so Rampart's files are never denied, and a
 * rule aimed inside Rampart's data directory is void.
 */
export const selfUnderRoot = baseInput({
  tamper: [
    tamperRule(1, { path: '/', ops: ['w', 'd'], process: '*sh', level: 50 }),
    tamperRule(2, { path: '/opt/rampart/var/state', ops: ['r'], level: 1 }),
  ],
  resolved: { '/': dir(2), '/opt/rampart': dir(900), '/opt/rampart/var/state': dir(901), '/var/lib/rampart': null },
  exes: {
    '*sh': [
      { dev: 2049, ino: 6001, path: '/usr/bin/bash' },
      { dev: 2049, ino: 6002, path: '/usr/bin/dash' },
    ],
  },
  selfPaths: ['/opt/rampart', '/var/lib/rampart'],
});

/**
 * What rule states say: a missing path, a disabled rule, operations fanotify cannot deny (`d`, `c`),
 * a process pattern that matched nothing yet (its class is kept), one file protected by inode
 * through two paths (a hard link: one object).
 */
export const statesOnFanotify = baseInput({
  tamper: [
    tamperRule(1, { path: '/srv/missing', ops: ['w'] }),
    tamperRule(2, { path: '/etc/app.conf', ops: ['w'], process: '/opt/app/bin/app', level: 3 }),
    tamperRule(3, { path: '/etc/app-link.conf', ops: ['d', 'w'], level: 4 }),
    tamperRule(4, { path: '/srv/data', ops: ['r'], enabled: false }),
  ],
  naming: [namingRule(1, { dir: '/srv/data', deny_files: ['*.sh'] })],
  resolved: { '/srv/missing': null, '/etc/app.conf': file(300), '/etc/app-link.conf': file(300), '/srv/data': dir(301) },
  exes: { '/opt/app/bin/app': [] },
  backendOps: ['r', 'x', 'w'],
});

const accountFileOps = ['w', 'd', 'n', 't'] as const;

/**
 * User protection beside tamper rules: the four account files locked against every process
 * (write, delete, rename, times), gshadow missing on this host, a tamper allow rule over /etc that
 * must not reopen them, and a second module whose switch is off (its rule leaves no slot).
 */
export const accountSources = baseInput({
  tamper: [tamperRule(1, { path: '/etc', ops: [], level: 1, process: '/usr/sbin/cfgtool' }), tamperRule(2, { path: '/etc/app.conf', ops: ['w'] })],
  sources: [
    {
      module: 'account',
      enabled: true,
      rules: ['passwd', 'shadow', 'group', 'gshadow'].map((id) => ({ id, path: `/etc/${id}`, sub_path: '*', process: '*', exempt: [], level: 1, ops: [...accountFileOps], notify: true })),
    },
    { module: 'other', enabled: false, rules: [{ id: 'x', path: '/etc/app.conf', sub_path: '*', process: '*', exempt: [], level: 1, ops: ['r'], notify: false }] },
  ],
  resolved: { '/etc': dir(10), '/etc/passwd': file(11), '/etc/shadow': file(12), '/etc/group': file(13), '/etc/gshadow': null, '/etc/app.conf': file(14) },
  exes: { '/usr/sbin/cfgtool': [{ dev: 2049, ino: 7001, path: '/usr/sbin/cfgtool' }] },
  backendOps: ['r', 'x', 'w'],
});
