import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apacheCandidates, discoverLocalSites, nginxCandidates } from '../src/discover.ts';
import { parseApacheVhosts } from '../src/apache-vhosts.ts';
import { apacheDocumentRoot } from '../src/apache-document-root.ts';
import { globMatches } from '../src/nginx-config.ts';
import { parseNginxDump, parseNginxListen } from '../src/nginx-dump.ts';

// Golden outputs, produced by the real Debian nginx 1.22 (`nginx -T -c`) and apache2 2.4 (`apache2 -S -f`).
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

describe('nginx -T', () => {
  it('finds both server blocks, one of them in an included file', () => {
    const sites = parseNginxDump(fixture('nginx-T.txt'));
    expect(sites).toEqual([
      {
        file: '/tmp/ngx-disc/nginx.conf', line: 8,
        listen: [
          { address: '127.0.0.1', port: 8081, tls: false, defaultServer: true },
          { address: '::1', port: 8081, tls: false, defaultServer: false },
        ],
        serverNames: ['shop.example.com', 'www.shop.example.com'], root: '/var/www/shop',
        proxyPass: ['http://127.0.0.1:3000'], sslCertificate: undefined, sslCertificateKey: undefined,
      },
      {
        file: '/tmp/ngx-disc/conf.d/blog.conf', line: 5,
        listen: [{ address: undefined, port: 8443, tls: true, defaultServer: false }],
        serverNames: ['blog.example.org', '*.blog.example.org'], root: undefined,
        proxyPass: ['http://127.0.0.1:4000', 'http://127.0.0.1:4001'],
        sslCertificate: '/tmp/ngx-disc/ssl/fullchain.pem', sslCertificateKey: '/tmp/ngx-disc/ssl/privkey.pem',
      },
    ]);
    expect(nginxCandidates(fixture('nginx-T.txt')).map((c) => c.name)).toEqual(['shop.example.com', 'blog.example.org']);
  });
  it('parses listen forms and globs', () => {
    expect(parseNginxListen(['80'])).toEqual({ address: undefined, port: 80, tls: false, defaultServer: false });
    expect(parseNginxListen(['*:443', 'ssl'])).toMatchObject({ address: undefined, port: 443, tls: true });
    expect(parseNginxListen(['localhost'])).toMatchObject({ address: 'localhost', port: 80 });
    expect(parseNginxListen(['unix:/run/x.sock'])).toBeNull();
    expect(globMatches('/etc/nginx/sites-enabled/*', '/etc/nginx/sites-enabled/default')).toBe(true);
    expect(globMatches('/etc/nginx/conf.d/*.conf', '/etc/nginx/conf.d/sub/x.conf')).toBe(false);
    expect(globMatches('/etc/nginx/conf.d/*.conf', '/etc/nginx/conf.d/a.conff')).toBe(false);
  });
  it('handles comments, quotes and braces inside strings', () => {
    const dump = `# configuration file /x/nginx.conf:\nhttp { server { listen 81; # c { }\n server_name "a;b" 'c}d'; } }\n`;
    expect(parseNginxDump(dump)[0]?.serverNames).toEqual(['a;b', 'c}d']);
  });
});

describe('apachectl -S', () => {
  it('reads name-based and single vhosts with aliases and file:line', () => {
    expect(parseApacheVhosts(fixture('apachectl-S.txt'))).toEqual([
      { address: '127.0.0.1', port: 8082, serverName: 'shop.example.com', aliases: ['www.shop.example.com'], file: '/tmp/apache-disc/sites/shop.conf', line: 1, isDefault: true },
      { address: '127.0.0.1', port: 8082, serverName: 'api.example.com', aliases: [], file: '/tmp/apache-disc/sites/shop.conf', line: 7, isDefault: false },
      { address: undefined, port: 8444, serverName: 'blog.example.org', aliases: [], file: '/tmp/apache-disc/sites/blog-ssl.conf', line: 1, isDefault: true },
    ]);
    expect(apacheCandidates(fixture('apachectl-S.txt')).map((c) => c.serverNames)).toEqual([
      ['shop.example.com', 'www.shop.example.com'], ['api.example.com'], ['blog.example.org'],
    ]);
  });
});

describe('an Apache virtual host\'s DocumentRoot (apachectl -S gives only its file and line)', () => {
  const config = ['Listen 80', '<VirtualHost *:80>', '  ServerName a.test', '  DocumentRoot "/srv/a b"', '</VirtualHost>', '<VirtualHost *:80>', '  ServerName b.test', '</VirtualHost>', 'DocumentRoot /var/www/html'].join('\n');
  it('is read from the block that starts at the line, quoted or not, and never from the next block or the global one', () => {
    expect(apacheDocumentRoot(config, 2)).toBe('/srv/a b');
    expect(apacheDocumentRoot(config, 6)).toBeNull();
    expect(apacheDocumentRoot('<VirtualHost *:80>\ndocumentroot /srv/c/\n</VirtualHost>', 1)).toBe('/srv/c/');
  });
});

describe('discovery against the real servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-disc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const hasNginx = existsSync('/usr/sbin/nginx');
  it.skipIf(!hasNginx)('runs nginx -T on a temporary configuration', async () => {
    mkdirSync(join(dir, 'conf.d'));
    writeFileSync(join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {}\nhttp { access_log off;\n server { listen 127.0.0.1:18081; server_name one.test; root ${dir}; }\n include ${dir}/conf.d/*.conf; }\n`);
    writeFileSync(join(dir, 'conf.d', 'two.conf'), `server { listen 127.0.0.1:18082; server_name two.test; location / { proxy_pass http://127.0.0.1:9999; } }\n`);
    const sites = await discoverLocalSites({ nginx: { command: 'nginx', args: ['-T', '-c', join(dir, 'nginx.conf')] }, apache: { command: '/nonexistent', args: [] } });
    expect(sites.map((s) => [s.name, s.listen[0]?.port, s.proxyPass])).toEqual([['one.test', 18081, undefined], ['two.test', 18082, ['http://127.0.0.1:9999']]]);
  });
  it.skipIf(!existsSync('/usr/sbin/apache2'))('runs apache2 -S on a temporary configuration', async () => {
    writeFileSync(join(dir, 'apache2.conf'), `ServerName t.local\nPidFile ${dir}/a.pid\nErrorLog ${dir}/a.log\nInclude /etc/apache2/mods-enabled/*.load\nListen 127.0.0.1:18083\n<VirtualHost 127.0.0.1:18083>\nServerName three.test\nServerAlias www.three.test\n  DocumentRoot "${dir}/three"\n</VirtualHost>\n<VirtualHost 127.0.0.1:18083>\nServerName four.test\n</VirtualHost>\n`);
    const sites = await discoverLocalSites({
      nginx: { command: '/nonexistent', args: [] },
      apache: { command: 'sh', args: ['-c', `. /etc/apache2/envvars && exec apache2 -d /etc/apache2 -f ${dir}/apache2.conf -S`] },
    });
    expect(sites.map((s) => [s.server, s.name, s.serverNames, s.listen[0]?.port, s.root])).toEqual([
      ['apache', 'three.test', ['three.test', 'www.three.test'], 18083, `${dir}/three`],
      ['apache', 'four.test', ['four.test'], 18083, undefined],
    ]);
  });
});
