/**
 * Records a WordPress session driven in Chromium (issue 25): Debian's WordPress 6.1 (bench setup.sh,
 * plus mariadb-server and wordpress-theme-twentytwentyone) served by Apache + mod_php from a temporary
 * configuration, a MariaDB of its own in a temporary folder, and a recording reverse proxy in front
 * that writes every request the browser sends (method, target, raw headers, body) as one JSON line,
 * as record-sdk-beacons.ts does (the database, Apache, proxy and browser parts are recording.ts, shared
 * with record-phpmyadmin.ts and record-mediawiki.ts). What the browser does: installs the site, signs in, writes and
 * publishes posts in the block editor (REST saves, autosaves), adds categories and tags, uploads
 * images, saves settings and the profile, searches, comments, moderates. Everything is WordPress's own
 * front end; the text typed is ordinary prose, some of it about SQL, shells and HTML, as people write.
 *
 *   node bench/waf-quality/recorded/record-wordpress.ts bench/waf-quality/recorded/wordpress.ndjson [rounds]
 *
 * Writes /etc/wordpress/config-wp.recorded.test.php (Debian's WordPress finds its configuration by
 * Host) and removes it at the end. Loopback only; Chromium resolves every other name to nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { png, Recording } from './recording.ts';

const [outFile = 'wordpress.ndjson', roundsText = '4'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'wp.recorded.test';
const configFile = `/etc/wordpress/config-${host}.php`;
const recording = new Recording('wp');
const dir = recording.dir;

/** Apache (prefork + mod_php) serving Debian's WordPress on a loopback port. */
async function startWordPress(socket: string): Promise<number> {
  const content = join(dir, 'wp-content');
  mkdirSync(join(content, 'uploads'), { recursive: true });
  for (const sub of ['themes', 'plugins']) symlinkSync(`/usr/share/wordpress/wp-content/${sub}`, join(content, sub));
  execFileSync('chown', ['-R', 'www-data:www-data', content]);
  recording.cleanup.unshift(configFile);
  writeFileSync(configFile, `<?php
define('DB_NAME', 'wp'); define('DB_USER', 'wp'); define('DB_PASSWORD', 'wp'); define('DB_HOST', 'localhost:${socket}');
define('WP_CONTENT_DIR', '${content}'); define('FS_METHOD', 'direct'); define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true); define('AUTOMATIC_UPDATER_DISABLED', true);
$table_prefix = 'wp_';
`);
  return recording.startApache(host, '/usr/share/wordpress', `Alias /wp-content ${content}`);
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
  const socket = await recording.startDatabase("CREATE DATABASE wp; CREATE USER 'wp'@'localhost' IDENTIFIED BY 'wp'; GRANT ALL ON wp.* TO 'wp'@'localhost';");
  const apachePort = await startWordPress(socket);
  const port = await recording.startRecorder(outFile, apachePort);
  const base = `http://${host}:${port}`;
  const { browser, page } = await recording.browser(host);
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

await recording.run(outFile, main);
