/**
 * Records a MediaWiki session driven in Chromium (issue 25): Debian's MediaWiki 1.39 (package
 * `mediawiki`, plus mariadb-server) at /mediawiki behind Apache + mod_php from a temporary
 * configuration, a MariaDB of its own, installed with MediaWiki's own installer (maintenance/install.php)
 * and the bundled extensions a wiki about software turns on (WikiEditor, Cite, ParserFunctions,
 * SyntaxHighlight, Math, TemplateData), and the recording reverse proxy (recording.ts, shared with
 * record-wordpress.ts). What the browser does: creates an account, signs in, writes templates and
 * pages in wikitext (templates `{{…}}`, tables `{|`, links, `<ref>`, code blocks with shell and SQL,
 * math), previews, shows changes, saves, uploads an image, searches (with the search box's
 * suggestions), and reads history and diffs.
 *
 *   node bench/waf-quality/recorded/record-mediawiki.ts bench/waf-quality/recorded/mediawiki.ndjson [rounds]
 *
 * Writes /etc/mediawiki/LocalSettings.php (Debian's MediaWiki reads it there) and removes it at the
 * end. Loopback only.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, png, Recording, settle } from './recording.ts';

const [outFile = 'mediawiki.ndjson', roundsText = '2'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'wiki.recorded.test';
const settings = '/etc/mediawiki/LocalSettings.php';
const recording = new Recording('wiki');
const adminPassword = 'Wiki-Admin-Pass-2024';

const pages: { title: string; text: string; summary: string }[] = [
  {
    title: 'Template:Infobox software',
    summary: 'New infobox',
    text: `{| class="infobox" style="float:right; width:22em"
! colspan="2" | {{{name|{{PAGENAME}}}}}
|-
| Developer || {{{developer|unknown}}}
|-
| Written in || {{{language|}}}
{{#if: {{{license|}}} | {{!}}-
{{!}} License {{!}}{{!}} {{{license}}} }}
|}<noinclude>
Use: <code><nowiki>{{Infobox software|name=…|developer=…|language=…|license=…}}</nowiki></code>
[[Category:Templates]]
</noinclude>`,
  },
  {
    title: 'Backup procedure',
    summary: 'How we back up the database and the web root',
    text: `{{Infobox software|name=Nightly backup|developer=Ops team|language=Bash|license=MIT}}
The '''nightly backup''' copies the database and <code>/var/www</code> to the backup host.<ref>Set up in 2021, see [[Server inventory]].</ref>

== Database ==
Run as the <code>backup</code> user:
<syntaxhighlight lang="bash">
mysqldump --single-transaction --routines wiki | gzip > /backup/wiki-$(date +%F).sql.gz
find /backup -name '*.sql.gz' -mtime +14 -delete
</syntaxhighlight>

To check the last dump:
<syntaxhighlight lang="sql">
SELECT table_name, table_rows FROM information_schema.tables WHERE table_schema = 'wiki' ORDER BY table_rows DESC;
</syntaxhighlight>

== Files ==
<pre>
rsync -a --delete /var/www/ backup@backup.example.org:/srv/www/
tar -czf /backup/www.tar.gz /var/www && ls -la /backup
</pre>

== Restore ==
# Stop Apache: <code>systemctl stop apache2</code>
# <code>gunzip < dump.sql.gz | mysql wiki</code>
# Start Apache again and check [[Special:Version]].

== References ==
<references />
[[Category:Operations]]`,
  },
  {
    title: 'Server inventory',
    summary: 'Table of our servers',
    text: `{| class="wikitable sortable"
|+ Servers (updated monthly)
! Name !! Role !! OS !! Address
|-
| web1 || Apache, PHP 8.2 || Debian 12 || 10.0.0.11
|-
| db1 || MariaDB 10.11 || Debian 12 || 10.0.0.21
|-
| backup || rsync target || Debian 11 || 10.0.0.31
|}
See also [[Backup procedure#Restore|restoring]], [https://www.debian.org/releases/ Debian releases] and [[:Category:Operations]].

Disk usage grows about 5% per month; at > 80% run <code>du -sh /var/* | sort -h</code>.`,
  },
  {
    title: 'Response times',
    summary: 'Math for the latency estimate',
    text: `The mean response time over <math>n</math> requests is
:<math>\\bar{t} = \\frac{1}{n}\\sum_{i=1}^{n} t_i</math>
and with Little's law, <math>L = \\lambda W</math>, 200 requests/s at 50 ms means 10 in flight.

{| class="wikitable"
! Percentile !! Target
|-
| p50 || &lt; 120 ms
|-
| p99 || &lt; 800 ms
|}
''Note:'' a query like <code>SELECT COUNT(*) FROM logs WHERE status >= 500</code> gives the error count.<ref name="grafana">The dashboard "Latency" in Grafana.</ref>
<references />`,
  },
  {
    title: 'Onboarding',
    summary: 'First day checklist',
    text: `Welcome! On your first day:
* Get an account on the wiki (you have one if you can read this).
* Clone the repository: <code>git clone git@git.example.org:ops/infra.git</code>
* Read [[Backup procedure]] and [[Server inventory]].
* Ask in #ops if anything is unclear — we don't bite.

<blockquote>"Never run <code>rm -rf /</code> on a Friday" – old team motto</blockquote>

Useful HTML in templates: <span style="color:#a00">red text</span>, <small>small print</small>, <br />
{{Infobox software|name=Wiki|developer=Wikimedia|language=PHP|license=GPL-2.0-or-later}}`,
  },
];

/** Opens the editor, writes the text, previews, shows the changes, saves. */
async function edit(page: Page, base: string, title: string, text: string, summary: string): Promise<void> {
  await page.goto(`${base}/mediawiki/index.php?title=${encodeURIComponent(title.replace(/ /g, '_'))}&action=edit`, { waitUntil: 'load' });
  await page.waitForTimeout(1000);
  const box = page.locator('#wpTextbox1');
  await box.fill(text);
  // The last lines typed by hand, so the editor's own scripts see keystrokes.
  await box.press('End');
  await page.keyboard.type('\n\n<!-- reviewed -->', { delay: 10 });
  await page.fill('#wpSummary', summary);
  await page.locator('#wpPreview').click();
  await settle(page);
  await page.locator('#wpDiff').click();
  await settle(page);
  await page.locator('#wpSave').click();
  await settle(page);
}

async function main(): Promise<void> {
  const socket = await recording.startDatabase("CREATE DATABASE wiki; CREATE USER 'wiki'@'localhost' IDENTIFIED BY 'wiki-db-pass'; GRANT ALL ON wiki.* TO 'wiki'@'localhost';");
  if (existsSync(settings)) throw new Error(`${settings} exists: this recorder would overwrite a real wiki's configuration`);
  const images = join(recording.dir, 'images');
  mkdirSync(images);
  execFileSync('chown', ['www-data:www-data', images]);
  const proxyPort = await freePort();
  // MediaWiki's own installer, the way `php maintenance/install.php` is documented.
  const conf = join(recording.dir, 'conf');
  mkdirSync(conf);
  execFileSync('php', ['/usr/share/mediawiki/maintenance/install.php', '--dbtype=mysql', `--dbserver=localhost:${socket}`, '--dbname=wiki', '--dbuser=wiki', '--dbpass=wiki-db-pass',
    `--server=http://${host}:${proxyPort}`, '--scriptpath=/mediawiki', `--confpath=${conf}`, `--pass=${adminPassword}`, 'Ops Wiki', 'Admin'], { stdio: 'ignore' });
  recording.cleanup.unshift(settings);
  copyFileSync(join(conf, 'LocalSettings.php'), settings);
  appendFileSync(settings, `
$wgEnableUploads = true;
$wgUploadDirectory = '${images}';
$wgUploadPath = '/mediawiki/images';
$wgUseInstantCommons = false;
$wgMainCacheType = CACHE_NONE;
foreach (['WikiEditor', 'Cite', 'ParserFunctions', 'SyntaxHighlight_GeSHi', 'Math', 'TemplateData'] as $extension) wfLoadExtension($extension);
$wgDefaultUserOptions['usebetatoolbar'] = 1;
$wgMathValidModes = ['source'];
$wgDefaultUserOptions['math'] = 'source';
`);
  execFileSync('chmod', ['644', settings]);
  const apachePort = await recording.startApache(host, recording.dir, `Alias /mediawiki/images ${images}\nAlias /mediawiki /var/lib/mediawiki`);
  const port = await recording.startRecorder(outFile, apachePort);
  if (port !== proxyPort) {
    // The installer wrote the proxy's port into $wgServer; the recorder took whatever was free.
    appendFileSync(settings, `$wgServer = 'http://${host}:${port}';\n`);
  }
  const base = `http://${host}:${port}`;
  const { browser, page } = await recording.browser(host);

  // A new account, as an editor joins.
  await recording.step(page, 'create account', async () => {
    await page.goto(`${base}/mediawiki/index.php?title=Special:CreateAccount`, { waitUntil: 'load' });
    await page.fill('#wpName2', 'Maria Ops');
    await page.fill('#wpPassword2', 'Maria-Wiki-2024!');
    await page.fill('#wpRetype', 'Maria-Wiki-2024!');
    await page.fill('#wpEmail', 'maria@ops.example');
    await page.locator('#wpCreateaccount').click();
    await settle(page);
  });
  for (let round = 0; round < rounds; round++) {
    for (const p of pages) {
      const text = round ? `${p.text}\n\n== Changes ==\nRevised in round ${round + 1}; see the [[${p.title}|history]] and {{CURRENTYEAR}}.` : p.text;
      await recording.step(page, `edit ${p.title}`, () => edit(page, base, p.title, text, round ? `${p.summary} (fixes)` : p.summary));
    }
    await recording.step(page, 'upload', async () => {
      await page.goto(`${base}/mediawiki/index.php?title=Special:Upload`, { waitUntil: 'load' });
      await page.locator('#wpUploadFile').setInputFiles({ name: `Rack-diagram-${round}.png`, mimeType: 'image/png', buffer: png(80 + round, 60, [30, 90 + round * 20, 160]) });
      await page.fill('#wpUploadDescription', `Rack layout of web1 and db1 (${round ? 'after' : 'before'} the move). {{Information|source=own work}}`);
      await page.locator('input[name="wpUpload"]').click();
      await settle(page);
    });
    await recording.step(page, 'search', async () => {
      for (const q of ['backup', 'rm -rf', 'select table_name', "Little's law"]) {
        await page.goto(`${base}/mediawiki/index.php?title=Main_Page`, { waitUntil: 'load' });
        const box = page.locator('#searchInput, input[name="search"]').first();
        await box.click();
        await page.keyboard.type(q, { delay: 60 });
        await page.waitForTimeout(600);
        await page.keyboard.press('Enter');
        await settle(page, 600);
      }
    });
    await recording.step(page, 'history and diff', async () => {
      await page.goto(`${base}/mediawiki/index.php?title=Backup_procedure&action=history`, { waitUntil: 'load' });
      const diff = page.locator('a.mw-changeslist-diff, a:has-text("prev")').first();
      if (await diff.count()) {
        await diff.click();
        await settle(page, 600);
      }
      await page.goto(`${base}/mediawiki/index.php?title=Special:RecentChanges&days=30&limit=50`, { waitUntil: 'load' });
      await settle(page, 600);
    });
  }
  await browser.close();
}

await recording.run(outFile, main);
