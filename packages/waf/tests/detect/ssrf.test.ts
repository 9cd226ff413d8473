import { describe, expect, it } from 'vitest';
import { detectSsrf } from '../../src/detect/ssrf/index.ts';
import { parseIp } from '../../src/detect/ssrf/ip.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('IP literals as URL parsers read them', () => {
  it('reads inet_aton forms', () => {
    const metadata = 0xa9fea9fe;
    for (const host of ['2852039166', '0xA9FEA9FE', '0xA9.0xFE.0xA9.0xFE', '0251.0376.0251.0376', '169.254.43518', '169.16689662', '7147006462', '0x41414141A9FEA9FE', '[::ffff:a9fe:a9fe]', '[0:0:0:0:0:ffff:169.254.169.254]']) {
      const ip = parseIp(host);
      expect(ip?.v4, host).toBe(metadata);
      expect(ip?.obfuscated, host).toBe(true);
    }
    expect(parseIp('169.254.169.254')).toMatchObject({ v4: metadata, obfuscated: false });
    expect(parseIp('example.com')).toBeNull();
    expect(parseIp('1.2.3.4.5')).toBeNull();
  });
});

describe('SSRF detector', () => {
  checkAttacks(detectSsrf, 'file_inclusion', [
    { value: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', rule: 'ssrf.cloud_metadata' },
    { value: 'http://metadata.google.internal/computeMetadata/v1/' },
    { value: 'https://metadata.packet.net/userdata' },
    { value: 'http://100.100.100.200/latest/meta-data/' },
    { value: 'http://[fd00:ec2::254]/latest' },
    { value: 'http://2852039166/', rule: 'ssrf.cloud_metadata' },
    { value: 'http://0x7f000001/admin', rule: 'ssrf.obfuscated_ip' },
    { value: 'http://0177.0.0.1/' },
    { value: 'ssh://0177.00.00.01' },
    { value: 'rtmp://017700000001' },
    { value: 'http://[::ffff:127.0.0.1]/' },
    { value: 'gopher://2130706433:6379/_SET%20x' },
    { value: 'http://169。254。169。254/' },
    { value: 'acap://①②⑦.⓪.⓪.①' },
    { value: 'http://[fe80::1%25eth0]/' },
    { value: 'http://google.com:80 &@127.88.23.245:22/#@google.com:80/', rule: 'ssrf.authority_confusion' },
    { value: 'http://\\l\\o\\c\\a\\l\\h\\o\\s\\t/', rule: 'ssrf.escaped_host' },
    { value: 'url=http://user:pass@169.254.169.254:80/x' },
    // suspicious only: internal names and canonical private addresses
    { value: 'http://localhost:8080/admin', severity: 1, rule: 'ssrf.internal_host' },
    { value: 'http://127.0.0.1/', severity: 1 },
    { value: 'http://[::1]/', severity: 1 },
    { value: 'localhost/', severity: 1 },
    { value: 'lvh.me/', severity: 1 },
    // container and cluster names resolve only inside the infrastructure: no browser is sent there
    { value: 'http://host.docker.internal/', rule: 'ssrf.internal_host' },
    { value: 'http://gateway.docker.internal:2375/containers/json' },
    { value: 'host.containers.internal/' },
    { value: 'kubernetes.default.svc.cluster.local/' },
    { value: 'https://redis.cache.svc.cluster.local:6379/' },
    // PHP's ssh2 stream wrappers
    { value: 'ssh2.sftp://user:password@example.com:22/path/to/filename', rule: 'ssrf.php_ssh2_wrapper' },
    { value: 'ssh2.tunnel://user:password@example.com:22/10.0.0.1:25' },
    // an internal IP right after the scheme's colon, without `//` (URL parsers complete it)
    { value: 'http:127.0.0.1', rule: 'ssrf.slashless_url' },
    { value: 'gopher:10.0.0.5:6379/_INFO' },
    { value: 'see http:192.168.1.1/admin' },
  ]);
  it('keeps slashless URLs to names and public addresses, and a one-slash typo, as judged before', () => {
    // `http:8080` is a port typed after the scheme (0.0.31.144 as an address), not an internal host
    expect(detectSsrf('listen on http:8080', 'query')?.severity ?? 0).toBeLessThan(2);
    expect(detectSsrf('http:localhost', 'query')?.severity).toBe(1);
    expect(detectSsrf('http:/192.168.1.10:8080', 'query')?.severity).toBe(1);
    expect(detectSsrf('http:93.184.216.34', 'query')).toBeNull();
  });
  it('takes the loopback aliases of hosts files as clear attacks, localhost itself as suspicious (CRS 934190)', () => {
    for (const value of ['localhost4/', 'localhost4.localdomain4/', 'ipv6-localhost/', 'ip6-loopback/', 'http://ip6-localhost:8080/admin', 'gopher://localhost6.localdomain6/_x']) {
      expect(detectSsrf(value, 'query')?.severity, value).toBe(2);
    }
    expect(detectSsrf('localhost/', 'query')?.severity).toBe(1);
    expect(detectSsrf('http://localhost.localdomain/', 'query')?.severity).toBe(1);
    // a pasted hosts file names them with no URL; a Referer is navigation
    expect(detectSsrf('127.0.0.1 localhost localhost4 localhost4.localdomain4', 'body')).toBeNull();
    expect(detectSsrf('::1 ip6-localhost ip6-loopback', 'body')).toBeNull();
    expect(detectSsrf('http://ip6-localhost/', 'header', 'Referer')).toBeNull();
  });
  it('keeps development callbacks below the loose threshold', () => {
    expect(detectSsrf('http://localhost:3000/auth/callback', 'query')?.severity).toBe(1);
    expect(detectSsrf('http://192.168.1.20/status', 'query')?.severity).toBe(1);
  });
  it('takes a loopback or private URL in running text (a mail, a post) as a mention, not a fetch target', () => {
    // What Roundcube's rich-text editor sends: the URL typed in a sentence, made a link.
    const mail = '<p>Works here too. I added</p><p>&nbsp; &amp;&amp; curl -fsS <a href="http://localhost:8080/health">http://localhost:8080/health</a> || echo failed</p>';
    expect(detectSsrf(mail, 'body')).toBeNull();
    expect(detectSsrf('The dashboard runs at http://192.168.1.20:3000/ on the office network', 'body')).toBeNull();
    // The parameter that is the URL still is one, and so is a short value naming it.
    expect(detectSsrf('http://localhost:8080/health', 'body')?.rule).toBe('ssrf.internal_host');
    expect(detectSsrf('fetch http://127.0.0.1/admin', 'query')?.rule).toBe('ssrf.internal_host');
    // Metadata, evasive spellings and infrastructure names count in prose too.
    expect(detectSsrf('Please read the notes on the page at http://169.254.169.254/latest/meta-data/ now', 'body')?.severity).toBe(2);
    expect(detectSsrf('Please read the notes on the page at http://0x7f000001/admin now', 'body')?.severity).toBe(2);
    expect(detectSsrf('Please read the notes on the page at http://host.docker.internal/ now', 'body')?.severity).toBe(2);
  });
  it('takes a local Referer or Origin as navigation, not a URL to fetch (CRS 943110-4)', () => {
    expect(detectSsrf('http://localhost/test', 'header', 'Referer')).toBeNull();
    expect(detectSsrf('http://127.0.0.1:8080', 'header', 'origin')).toBeNull();
    expect(detectSsrf('http://localhost/test', 'header', 'X-Callback-Url')?.rule).toBe('ssrf.internal_host');
    expect(detectSsrf('http://169.254.169.254/latest/meta-data/', 'header', 'Referer')?.severity).toBe(2);
  });
  checkBenign(detectSsrf, [
    { value: 'https://example.com/a?b=c' },
    { value: 'http://8.8.8.8/' },
    { value: 'https://www.google.com/search?q=169.254.169.254' },
    { value: 'see http://example.org, then http://example.net' },
    { value: 'mailto:someone@example.com' },
    { value: 'time: 10:30' },
    { value: 'https://cdn.example.com/lib-1.2.3.min.js' },
    { value: 'http://user@example.com/' },
    { value: 'http://10.0.0.1/', location: 'path' },
    { value: 'http://0xABCDEF', below: 2 },
    { value: 'localhost' },
    { value: 'dbhost=localhost' },
    { value: 'ssh2.sftp is a PHP wrapper' },
    // a container name in prose or as a bare setting value, no URL
    { value: 'run it with --add-host=host.docker.internal:host-gateway' },
    { value: 'host.docker.internal' },
    { value: 'http://docker.internal.example.com/' },
  ]);
  checkRobust(detectSsrf);
});
