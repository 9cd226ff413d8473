import { describe } from 'vitest';
import { detectPathTraversal } from '../../src/detect/traversal/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('path traversal detector', () => {
  checkAttacks(detectPathTraversal, 'path_traversal', [
    { value: '/static/img/../../etc/passwd', location: 'path' },
    { value: '/a/../b', location: 'path' },
    { value: '../../../../etc/passwd', rule: 'traversal.dot_segments' },
    { value: '..\\..\\..\\windows\\win.ini' },
    { value: '..%2f..%2fetc%2fpasswd' },
    { value: '..%252f..%252f..%252fetc%252fpasswd' },
    { value: '%2e%2e/%2e%2e/etc/shadow' },
    { value: '%C0%AE%C0%AE%C0%AF%C0%AE%C0%AE%C0%AFetc%C0%AFpasswd' },
    { value: '\u00c0\u00ae\u00c0\u00ae\u00c0\u00afetc' },
    { value: '%c0%ae%c0%ae%c1%9c%c0%ae%c0%ae%c1%9cwindows' },
    { value: '%e0%80%ae%e0%80%ae%e0%80%afetc' },
    { value: '%u002e%u002e%u2215etc%u2215passwd' },
    { value: '\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fetc' },
    { value: '....//....//etc/passwd' },
    { value: '/app/..;/manager/html', location: 'path' },
    { value: '..;/..;/WEB-INF/web.xml' },
    { value: '../WEB-INF/web.xml' },
    { value: '../config', severity: 1 },
    { value: '/etc/passwd', rule: 'traversal.sensitive_file' },
    { value: 'c:\\windows\\win.ini' },
    { value: 'C:/Windows/System32/drivers/etc/hosts' },
    { value: '/proc/self/environ' },
    { value: 'file=/home/www/.ssh/id_rsa' },
    { value: '\\\\::1\\c$\\users\\default\\ntuser.dat', rule: 'traversal.admin_share' },
    { value: 'see ../../../etc/passwd please', location: 'body' },
    // C-style hex bytes (CRS 930100), home-relative secrets, kernel tunables (930120/930121)
    { value: '0x5c0x2e./0x5c0x2e./etc', location: 'header' },
    { value: '0x2e0x2e0x2f0x2e0x2e0x2fetc' },
    { value: '.ssh/id_rsa', rule: 'traversal.sensitive_file' },
    { value: '/proc/sys/kernel/randomize_va_space', location: 'header' },
    { value: '../.history' },
    // Host fingerprinting and container secrets (CRS 930120-13, 930130-2)
    { value: '/path/to/.docker/secrets', rule: 'traversal.sensitive_file' },
    { value: '/get/proc/interrupts', location: 'path' },
    { value: '/run/secrets/db_password' },
    // sysfs folders, named with or without the trailing slash
    { value: '/sys/class', rule: 'traversal.sensitive_file' },
    { value: '/sys/kernel/debug/tracing' },
    // an upload's file name climbing out of the upload folder (browsers send base names only)
    { value: '../1.7z', location: 'file_name' },
    { value: '..\\1.7z', location: 'file_name' },
    // one level with a Tomcat `;` parameter on the dots (CRS 930110): evasion, whatever follows
    { value: '..;.\\.;\\.' },
    { value: '..;jsessionid=1/admin', location: 'header' },
    { value: '..;/x', location: 'cookie' },
    // a database dump in an archive, named in a parameter: suspicious (strict mode)
    { value: 'backup.sql.zip', severity: 1, rule: 'traversal.dump_file' },
    { value: 'exports/site-2024.SQL.GZ', location: 'body', severity: 1 },
    { value: 'C:\\dumps\\db.sql.7z', severity: 1 },
    // a development server's module routes (Vite), on the request path: suspicious (strict mode)
    { value: '/@id/__x00__', location: 'path', severity: 1, rule: 'traversal.dev_server_route' },
    { value: '/@fs/home/app/src/main.ts', location: 'path', severity: 1 },
    { value: '/@fs/C:/Users/dev/app/vite.config.ts', location: 'path', severity: 1 },
  ]);
  checkBenign(detectPathTraversal, [
    { value: 'C:\\Users\\bob\\Documents\\report.docx' },
    { value: 'report..final.pdf', location: 'file_name' },
    { value: '/usr/sys/classic', location: 'query' },
    { value: '/docs/sys/class-notes' },
    { value: 'D:\\Projects\\site\\index.html', location: 'body' },
    { value: 'https://example.com/a/b/c.html' },
    { value: 'wait... what.' },
    { value: 'version 1.2..3' },
    { value: 'See ../docs/setup.md for details.', location: 'body' },
    { value: 'Use ../../lib in your import path to reach it', location: 'body', below: 2 },
    { value: '/images/2024/photo.jpg', location: 'path' },
    { value: '/etc/hosts lists local names; edit it with care', location: 'body', below: 2 },
    { value: 'price 3.50/kg' },
    { value: 'Résumé – naïve café' },
    { value: 'a/b/./c' },
    { value: 'mask = 0x2f & flags' },
    { value: '/get/..', location: 'path', below: 2 },
    // an ellipsis before a semicolon in a sentence that later names a folder
    { value: 'well ..; see /docs for more', below: 2 },
    { value: 'Tomcat treats ..;/ as ../ so block it', location: 'body', below: 2 },
    { value: 'a;b/c..d' },
    // SQL files that are no packed dump, a dump named in a sentence, archives of other things
    { value: 'migrations/001_init.sql' },
    { value: 'schema.sql', location: 'body' },
    { value: 'download backup.sql.zip from the admin panel', location: 'body' },
    { value: 'photos.zip' },
    { value: 'postgresql.tar.gz' },
    { value: 'backup.sql.zip', location: 'path' },
    // scoped packages and mentions in a path, the routes' names in a parameter
    { value: '/node_modules/@osd/ui-framework/dist/kui_light.css', location: 'path' },
    { value: '/users/@fs/profile', location: 'path' },
    // a profile or a post of someone named "fs" or "id" (Mastodon, Medium)
    { value: '/@fs/109876543210', location: 'path' },
    { value: '/@fs/home-improvement-tips-3f2a', location: 'path' },
    { value: '/@id/with_replies', location: 'path' },
    { value: '/@id/__x00__', location: 'query' },
  ]);
  checkRobust(detectPathTraversal);
});
