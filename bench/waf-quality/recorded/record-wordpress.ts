/**
 * Records a WordPress session driven in Chromium (issue 25): Debian's WordPress 6.1 (bench setup.sh,
 * plus mariadb-server and wordpress-theme-twentytwentyone) served by Apache + mod_php from a temporary
 * configuration, a MariaDB of its own in a temporary folder, and a recording reverse proxy in front
 * that writes every request the browser sends (method, target, raw headers, body) as one JSON line,
 * as record-sdk-beacons.ts does. What the browser does: installs the site, signs in, writes and
 * publishes posts in the block editor (REST saves, autosaves), adds categories and tags, uploads
 * images, saves settings and the profile, searches, comments, moderates. Everything is WordPress's own
 * front end; the text typed is ordinary prose, some of it about SQL, shells and HTML, as people write.
 *
 *   node bench/waf-quality/recorded/record-wordpress.ts bench/waf-quality/recorded/wordpress.ndjson [rounds]
 *
 * Writes /etc/wordpress/config-wp.recorded.test.php (Debian's WordPress finds its configuration by
 * Host) and removes it at the end. Loopback only; Chromium resolves every other name to nothing.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';

const [outFile = 'wordpress.ndjson', roundsText = '4'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'wp.recorded.test';
const configFile = `/etc/wordpress/config-${host}.php`;
const dir = mkdtempSync(join(tmpdir(), 'rampart-wp-record-'));
chmodSync(dir, 0o755);
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up`);
}

const canConnect = (port: number) => new Promise<boolean>((resolve) => {
  const s = net.connect({ host: '127.0.0.1', port }, () => { s.destroy(); resolve(true); });
  s.on('error', () => resolve(false));
});

/** MariaDB in `dir/db`, on a socket only. */
async function startDatabase(): Promise<string> {
  const data = join(dir, 'db');
  const socket = join(dir, 'mysql.sock');
  execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'ignore' });
  const db = spawn('mariadbd', ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking', '--user=root', `--pid-file=${join(dir, 'mysqld.pid')}`], { stdio: 'ignore', detached: true });
  children.push(db);
  await waitFor(() => existsSync(socket), 'mariadbd');
  chmodSync(socket, 0o777);
  execFileSync('mariadb', ['--no-defaults', '-S', socket, '-uroot', '-e', "CREATE DATABASE wp; CREATE USER 'wp'@'localhost' IDENTIFIED BY 'wp'; GRANT ALL ON wp.* TO 'wp'@'localhost';"]);
  return socket;
}

/** Apache (prefork + mod_php) serving Debian's WordPress on a loopback port. */
async function startWordPress(socket: string): Promise<number> {
  const content = join(dir, 'wp-content');
  mkdirSync(join(content, 'uploads'), { recursive: true });
  for (const sub of ['themes', 'plugins']) symlinkSync(`/usr/share/wordpress/wp-content/${sub}`, join(content, sub));
  execFileSync('chown', ['-R', 'www-data:www-data', content]);
  writeFileSync(configFile, `<?php
define('DB_NAME', 'wp'); define('DB_USER', 'wp'); define('DB_PASSWORD', 'wp'); define('DB_HOST', 'localhost:${socket}');
define('WP_CONTENT_DIR', '${content}'); define('FS_METHOD', 'direct'); define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true); define('AUTOMATIC_UPDATER_DISABLED', true);
$table_prefix = 'wp_';
`);
  const port = await freePort();
  const mod = (name: string, file: string) => `LoadModule ${name} /usr/lib/apache2/modules/${file}`;
  const conf = join(dir, 'apache2.conf');
  writeFileSync(conf, `ServerRoot ${dir}
DefaultRuntimeDir ${dir}
PidFile ${dir}/apache2.pid
Mutex file:${dir} default
${mod('mpm_prefork_module', 'mod_mpm_prefork.so')}
${mod('authz_core_module', 'mod_authz_core.so')}
${mod('dir_module', 'mod_dir.so')}
${mod('mime_module', 'mod_mime.so')}
${mod('alias_module', 'mod_alias.so')}
${mod('php_module', 'libphp8.2.so')}
TypesConfig /etc/mime.types
User www-data
Group www-data
ServerName ${host}
Listen 127.0.0.1:${port}
ErrorLog ${dir}/error.log
StartServers 3
DocumentRoot /usr/share/wordpress
Alias /wp-content ${content}
DirectoryIndex index.php index.html
<Directory />
  Require all granted
  AllowOverride None
</Directory>
<FilesMatch ".+\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
`);
  // Its own process group: prefork's parent signals its whole group on the way out, which would
  // take this process with it.
  const apache = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], { stdio: 'ignore', detached: true });
  children.push(apache);
  await waitFor(() => canConnect(port), 'apache2');
  return port;
}

let recorded = 0;
/** The recording reverse proxy: every request as sent, then forwarded to Apache. */
async function startRecorder(upstream: number): Promise<number> {
  const out = createWriteStream(outFile);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      out.write(JSON.stringify({ method: req.method, target: req.url, headers, body: body.toString('base64') }) + '\n');
      recorded++;
      const forward = http.request({ host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** A small valid PNG (one colour, w×h) built here, so uploads carry a real image. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  const rows = Buffer.concat(Array.from({ length: h }, () => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const posts = [
  { title: 'How we moved our shop to a new server', text: ['We copied the database with mysqldump and checked every table afterwards.', 'The old server ran Apache; the new one runs nginx in front of PHP-FPM.', "If you see an error like \"select command denied to user\", check the grants."] },
  { title: 'Ten tips for better product photos', text: ['Use daylight, a white sheet and a cheap tripod.', 'Crop to a square: most shop themes show 1:1 thumbnails.', 'Name files like red-wool-scarf.jpg, not IMG_0042.JPG.'] },
  { title: 'Union Square market report — 2024', text: ['The farmers at Union Square select their best produce for Saturday.', 'Prices were up 5% or more on apples; drop by before 10 am.', 'Next week: the <b>holiday</b> edition, with music & hot cider.'] },
  { title: 'Notes from the shell scripting workshop', text: ['We started with ls -la, cat and grep, then pipes: ps aux | grep nginx.', 'Never run rm -rf with a variable you have not checked.', 'Homework: write a script that backs up /var/www every night.'] },
  { title: '我们的新店开张了', text: ['欢迎大家来参观！地址：上海市南京路 100 号。', '开业期间全场八折，会员再享九五折。'] },
  { title: 'JavaScript for shop owners', text: ["A button that says alert('Added to cart') is the first thing everyone writes.", 'Later you learn document.querySelector and fetch().', 'Keep tracking scripts out of the <head> if you can.'] },
];

async function dismissEditorWelcome(page: Page): Promise<void> {
  await page.keyboard.press('Escape').catch(() => {});
  const close = page.locator('.components-modal__header button[aria-label="Close"], .edit-post-welcome-guide button[aria-label="Close"]');
  if (await close.count()) await close.first().click().catch(() => {});
}

async function writePost(page: Page, base: string, post: (typeof posts)[number], round: number): Promise<void> {
  await page.goto(`${base}/wp-admin/post-new.php`, { waitUntil: 'load' });
  await page.waitForTimeout(2500);
  await dismissEditorWelcome(page);
  const title = page.locator('.editor-post-title__input, [aria-label="Add title"]').first();
  await title.click();
  await page.keyboard.type(`${post.title}${round ? ` (${round + 1})` : ''}`, { delay: 5 });
  await page.keyboard.press('Enter');
  for (const line of post.text) {
    await page.keyboard.type(line, { delay: 3 });
    await page.keyboard.press('Enter');
  }
  await page.waitForTimeout(1200);
  await page.locator('.editor-post-publish-panel__toggle').first().click();
  await page.waitForTimeout(800);
  await page.locator('.editor-post-publish-button').first().click();
  await page.waitForTimeout(2500);
}

async function main(): Promise<void> {
  const socket = await startDatabase();
  const apachePort = await startWordPress(socket);
  const port = await startRecorder(apachePort);
  const base = `http://${host}:${port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [`--host-resolver-rules=MAP ${host} 127.0.0.1, MAP * ~NOTFOUND`, '--no-sandbox'] });
  const context = await browser.newContext({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (d) => d.accept().catch(() => {}));
  // Installation, as a new site owner does it.
  await page.goto(`${base}/wp-admin/install.php`, { waitUntil: 'load' });
  if (await page.locator('#language-continue').count()) await page.locator('#language-continue').click();
  await page.waitForLoadState('load');
  await page.fill('#weblog_title', 'Corner Shop');
  await page.fill('#user_login', 'owner');
  await page.fill('#pass1', 'Correct-Horse-Battery-9');
  await page.fill('#admin_email', 'owner@corner-shop.example');
  await page.locator('#submit').click();
  await page.waitForLoadState('load');
  // Sign in.
  await page.goto(`${base}/wp-login.php`, { waitUntil: 'load' });
  await page.fill('#user_login', 'owner');
  await page.fill('#user_pass', 'Correct-Horse-Battery-9');
  await page.locator('#rememberme').check();
  await page.locator('#wp-submit').click();
  await page.waitForLoadState('load');
  // Theme with a front end (Debian ships it as its own package).
  await page.goto(`${base}/wp-admin/themes.php`, { waitUntil: 'load' });
  const activate = page.locator('a.activate').first();
  // (The button shows on hover; the link is followed as the click would.)
  const activateHref = (await activate.count()) ? await activate.getAttribute('href') : null;
  if (activateHref) await page.goto(activateHref, { waitUntil: 'load' });
  for (let round = 0; round < rounds; round++) {
    for (const post of posts) await writePost(page, base, post, round);
    // Settings, profile, taxonomy.
    await page.goto(`${base}/wp-admin/options-general.php`, { waitUntil: 'load' });
    await page.fill('#blogdescription', ['Fresh bread & good coffee', 'Open 7–19, Sundays 9–13', 'Since 1998 — family run', '"Best corner shop" 2023'][round % 4]!);
    await page.locator('#submit').click();
    await page.waitForLoadState('load');
    await page.goto(`${base}/wp-admin/profile.php`, { waitUntil: 'load' });
    await page.fill('#description', ['I run the shop with my sister. We love <em>sourdough</em>.', "Ask me about the shop's history; it's a long one!", 'Coffee first, then e-mail: owner@corner-shop.example', 'Rule #1: the customer is always… mostly right.'][round % 4]!);
    await page.fill('#url', 'https://corner-shop.example/about');
    await page.locator('#submit').click();
    await page.waitForLoadState('load');
    await page.goto(`${base}/wp-admin/edit-tags.php?taxonomy=category`, { waitUntil: 'load' });
    await page.fill('#tag-name', ['Recipes', 'Shop news', 'Events & markets', 'How-to'][round % 4]! + ` ${round}`);
    await page.fill('#tag-description', 'Posts about this topic; see also the archive.');
    await page.locator('#submit').click();
    await page.waitForTimeout(1500);
    await page.goto(`${base}/wp-admin/edit-tags.php?taxonomy=post_tag`, { waitUntil: 'load' });
    await page.fill('#tag-name', ['bread', 'coffee', 'c++', 'open source'][round % 4]! + ` ${round}`);
    await page.locator('#submit').click();
    await page.waitForTimeout(1500);
    // Media upload with the browser uploader form.
    await page.goto(`${base}/wp-admin/media-new.php?browser-uploader`, { waitUntil: 'load' });
    await page.locator('#async-upload').setInputFiles({ name: `shop-front-${round}.png`, mimeType: 'image/png', buffer: png(64 + round, 48, [200, 120 + round * 10, 40]) });
    await page.locator('#html-upload').click();
    await page.waitForLoadState('load');
    // The front end: search and a comment.
    for (const q of ['sourdough', 'union select', 'opening hours', 'rm -rf', "O'Brien"]) {
      await page.goto(`${base}/?s=${encodeURIComponent(q)}`, { waitUntil: 'load' });
    }
    await page.goto(`${base}/`, { waitUntil: 'load' });
    const first = page.locator('h2.entry-title a, .entry-title a').first();
    if (await first.count()) {
      await first.click();
      await page.waitForLoadState('load');
      const comment = page.locator('#comment');
      if (await comment.count()) {
        await comment.fill(['Great post! We tried the same and it worked.', 'Does "select * from" really belong in a shop blog? 😄', 'See you at the market; I will bring <b>cookies</b>.', 'Thanks — the tip about rm -rf saved my weekend.'][round % 4]!);
        await page.locator('#submit').click();
        await page.waitForLoadState('load');
      }
    }
    // Moderation screens and lists.
    await page.goto(`${base}/wp-admin/edit-comments.php`, { waitUntil: 'load' });
    await page.goto(`${base}/wp-admin/edit.php?s=market&post_status=all&post_type=post`, { waitUntil: 'load' });
    await page.goto(`${base}/wp-admin/upload.php`, { waitUntil: 'load' });
    await page.waitForTimeout(1000);
  }
  await browser.close();
}

try {
  await main();
  console.log(`recorded ${recorded} requests to ${outFile}`);
} catch (error) {
  console.error(`stopped after ${recorded} requests:`, error);
} finally {
  // Apache before MariaDB; each waited for (MariaDB flushes its files on the way out).
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const path of [configFile, dir]) {
    try {
      rmSync(path, { recursive: true, force: true, maxRetries: 5 });
    } catch (error) {
      console.error(`could not remove ${path}:`, error);
    }
  }
  process.exit(0);
}
