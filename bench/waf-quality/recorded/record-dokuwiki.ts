/**
 * Records a DokuWiki session driven in Chromium (issue 25): Debian's DokuWiki 2022-07-31 (package
 * `dokuwiki`) at /dokuwiki behind Apache + mod_php from a temporary configuration (recording.ts), its
 * pages and media in a temporary copy of the package's data folder. What the browser does, as the
 * wiki's editors and its administrator do: signs in, writes pages in DokuWiki syntax (headings,
 * tables `^ … ^`, `<code bash>` / `<code sql>` / `<file>` blocks, links, footnotes, `<del>`, HTML-ish
 * text) with the toolbar's preview, saves, uploads an image in the media manager, searches (the quick
 * search's suggestions included), reads revisions and a diff, updates the profile, and in the admin
 * pages adds a user, gives a group rights on a namespace and opens the configuration manager.
 *
 *   node bench/waf-quality/recorded/record-dokuwiki.ts bench/waf-quality/recorded/dokuwiki.ndjson [rounds]
 *
 * Writes /etc/dokuwiki/local.protected.php (the data folder and the test's own settings; Debian's
 * DokuWiki reads it after local.php) and the users file, and puts both back at the end. Loopback only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { png, Recording, settle } from './recording.ts';

const [outFile = 'dokuwiki.ndjson', roundsText = '2'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'doku.recorded.test';
const protectedFile = '/etc/dokuwiki/local.protected.php';
const usersFile = '/var/lib/dokuwiki/acl/users.auth.php';
const recording = new Recording('dokuwiki');
const adminPassword = 'Doku-Admin-Pass-2024';

const pages: { id: string; text: string; summary: string }[] = [
  {
    id: 'ops:backup',
    summary: 'How we back up the database',
    text: `====== Backup procedure ======
The **nightly backup** copies the database and ''/var/www'' to the backup host.((Set up in 2021, see [[ops:inventory]].))

===== Database =====
Run as the ''backup'' user:
<code bash>
mysqldump --single-transaction --routines shop | gzip > /backup/shop-$(date +%F).sql.gz
find /backup -name '*.sql.gz' -mtime +14 -delete
</code>

To check the last dump:
<code sql>
SELECT table_name, table_rows FROM information_schema.tables WHERE table_schema = 'shop' ORDER BY table_rows DESC;
</code>

===== Restore =====
  - Stop Apache: ''systemctl stop apache2''
  - ''gunzip < dump.sql.gz | mysql shop''
  - Start Apache again and check [[https://www.example.org/health|the health page]].
`,
  },
  {
    id: 'ops:inventory',
    summary: 'Server list',
    text: `====== Server inventory ======
^ Host ^ Role ^ OS ^ Address ^
| web1 | Apache, PHP 8.2 | Debian 12 | 10.0.0.11 |
| db1 | MariaDB 10.11 | Debian 12 | 10.0.0.21 |
| backup | rsync target | Debian 11 | 10.0.0.31 |

Disk usage grows about 5% per month; at > 80% run ''du -sh /var/* | sort -h''.
<file ini /etc/app/config.ini>
[database]
host = db1
user = app
password = <see the vault>
</file>
`,
  },
  {
    id: 'team:onboarding',
    summary: 'First day checklist',
    text: `====== Onboarding ======
Welcome! On your first day:
  * Get an account on the wiki (you have one if you can read this).
  * Clone the repository: ''git clone git@git.example.org:ops/infra.git''
  * Read [[ops:backup]] and [[ops:inventory]].
  * Ask in #ops if anything is unclear -- we don't bite.

> "Never run ''rm -rf /'' on a Friday" -- old team motto

<del>Old VPN instructions</del> are gone; use the <nowiki>[[WireGuard]]</nowiki> page. Emails: <ops@example.org>.
`,
  },
];

async function edit(page: Page, base: string, id: string, text: string, summary: string): Promise<void> {
  await page.goto(`${base}/dokuwiki/doku.php?id=${id}&do=edit`, { waitUntil: 'load' });
  await page.waitForTimeout(800);
  const box = page.locator('#wiki__text');
  await box.fill(text);
  await box.press('End');
  await page.keyboard.type('\n\n//Reviewed.//', { delay: 10 });
  await page.fill('#edit__summary', summary);
  await page.locator('button[name="do[preview]"], input[name="do[preview]"]').first().click();
  await settle(page);
  await page.locator('button[name="do[save]"], input[name="do[save]"]').first().click();
  await settle(page);
}

function bcrypt(password: string): string {
  return execFileSync('php', ['-r', 'echo password_hash($argv[1], PASSWORD_BCRYPT);', password], { encoding: 'utf8' });
}

async function main(): Promise<void> {
  if (existsSync(protectedFile)) throw new Error(`${protectedFile} exists: this recorder would overwrite a real wiki's settings`);
  const data = join(recording.dir, 'data');
  execFileSync('cp', ['-a', '/var/lib/dokuwiki/data', data]);
  for (const sub of ['pages', 'meta', 'media', 'media_attic', 'media_meta', 'attic', 'cache', 'index', 'locks', 'tmp', 'log']) execFileSync('mkdir', ['-p', join(data, sub)]);
  execFileSync('chown', ['-R', 'www-data:root', data]);
  const users = readFileSync(usersFile);
  recording.onStop(async () => {
    writeFileSync(usersFile, users);
    rmSync(protectedFile, { force: true });
  });
  writeFileSync(usersFile, `# users of the recording\nadmin:${bcrypt(adminPassword)}:Wiki Admin:admin@doku.recorded.test:admin,user\n`);
  writeFileSync(protectedFile, `<?php
$conf['savedir'] = '${data}';
$conf['useacl'] = 1;
$conf['superuser'] = '@admin';
$conf['userewrite'] = 0;
$conf['cachetime'] = 0;
`);
  execFileSync('chmod', ['644', protectedFile]);
  const apachePort = await recording.startApache(host, recording.dir, 'Alias /dokuwiki /usr/share/dokuwiki/');
  const port = await recording.startRecorder(outFile, apachePort);
  const base = `http://${host}:${port}`;
  const { browser, page } = await recording.browser(host);

  await recording.step(page, 'sign in', async () => {
    await page.goto(`${base}/dokuwiki/doku.php?id=start&do=login`, { waitUntil: 'load' });
    await page.locator('input[name=u]').fill('admin');
    await page.locator('input[name=p]').fill(adminPassword);
    await page.locator('#dw__login button[type=submit], #dw__login input[type=submit]').first().click();
    await settle(page);
  });
  for (let round = 0; round < rounds; round++) {
    for (const p of pages) {
      const text = round ? `${p.text}\n===== Changes =====\nRevised in round ${round + 1}; see the [[${p.id}?do=revisions|history]].\n` : p.text;
      await recording.step(page, `edit ${p.id}`, () => edit(page, base, p.id, text, round ? `${p.summary} (fixes)` : p.summary));
    }
    await recording.step(page, 'upload in the media manager', async () => {
      await page.goto(`${base}/dokuwiki/doku.php?id=start&do=media&ns=ops&tab_files=upload`, { waitUntil: 'load' });
      await page.waitForTimeout(1000);
      await page.locator('input[type=file]').first().setInputFiles({ name: `rack-diagram-${round}.png`, mimeType: 'image/png', buffer: png(80 + round, 60, [30, 90 + round * 20, 160]) });
      await page.waitForTimeout(500);
      await page.locator('#mediamanager__upload_button, button:has-text("Upload"), input[value="Upload"]').first().click().catch(() => undefined);
      await settle(page, 1500);
    });
    await recording.step(page, 'search', async () => {
      for (const q of [['backup', 'rm -rf'], ['select table_name', "don't bite"]][round % 2]!) {
        await page.goto(`${base}/dokuwiki/doku.php?id=start`, { waitUntil: 'load' });
        const box = page.locator('#qsearch__in');
        await box.click();
        await page.keyboard.type(q, { delay: 60 });
        await page.waitForTimeout(700);
        await page.keyboard.press('Enter');
        await settle(page, 600);
      }
    });
    await recording.step(page, 'revisions and diff', async () => {
      await page.goto(`${base}/dokuwiki/doku.php?id=ops:backup&do=revisions`, { waitUntil: 'load' });
      await settle(page, 600);
      await page.goto(`${base}/dokuwiki/doku.php?id=ops:backup&do=diff`, { waitUntil: 'load' });
      await settle(page, 600);
      await page.goto(`${base}/dokuwiki/doku.php?id=start&do=recent`, { waitUntil: 'load' });
      await settle(page, 600);
    });
  }
  await recording.step(page, 'add a user', async () => {
    await page.goto(`${base}/dokuwiki/doku.php?id=start&do=admin&page=usermanager`, { waitUntil: 'load' });
    await settle(page, 600);
    const form = page.locator('form:has([name="fn[add]"])');
    await form.locator('input[name="userid"]').fill('maria');
    await form.locator('input[name="userpass"]').fill('Maria-Wiki-2024!');
    await form.locator('input[name="userpass2"]').fill('Maria-Wiki-2024!').catch(() => undefined);
    await form.locator('input[name="username"]').fill("Maria O'Neil");
    await form.locator('input[name="usermail"]').fill('maria@ops.example');
    await form.locator('input[name="usergroups"]').fill('user,ops');
    await form.locator('button[name="fn[add]"], input[name="fn[add]"]').first().click();
    await settle(page);
  });
  await recording.step(page, 'ACL', async () => {
    await page.goto(`${base}/dokuwiki/doku.php?id=ops:backup&do=admin&page=acl`, { waitUntil: 'load' });
    await settle(page, 600);
    await page.locator('select[name="acl_t"]').selectOption({ index: 1 }).catch(() => undefined);
    await page.locator('input[type=text][name="acl_w"]').fill('ops');
    await page.locator('button:has-text("Select")').first().click();
    await settle(page);
    await page.locator('input[name="acl"][value="2"]').check();
    await page.locator('button[name="cmd[save]"]').first().click();
    await settle(page);
  });
  // The configuration manager saves into /etc/dokuwiki/local.php, which the package keeps read-only to
  // the web server: it offers no Save here, so it is only read (its form's values are not sent).
  await recording.step(page, 'configuration manager', async () => {
    await page.goto(`${base}/dokuwiki/doku.php?id=start&do=admin&page=config`, { waitUntil: 'load' });
    await settle(page, 800);
  });
  await recording.step(page, 'update profile', async () => {
    await page.goto(`${base}/dokuwiki/doku.php?id=start&do=profile`, { waitUntil: 'load' });
    await settle(page, 600);
    await page.locator('form:has([name="oldpass"]) input[name="fullname"]').fill('Wiki Admin (Ops & Support)');
    await page.locator('form:has([name="oldpass"]) input[name="oldpass"]').fill(adminPassword);
    await page.locator('form:has([name="oldpass"]) button[type=submit]').first().click();
    await settle(page);
  });
  await browser.close();
}

await recording.run(outFile, main);
