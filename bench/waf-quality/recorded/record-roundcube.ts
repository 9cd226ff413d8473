/**
 * Records a Roundcube webmail session driven in Chromium (issue 25): Debian's Roundcube 1.6
 * (packages `roundcube-core`, `roundcube-sqlite3`) behind Apache + mod_php from a temporary
 * configuration, reading a Dovecot IMAP server of its own (package `dovecot-imapd`, started here from
 * a temporary configuration on a loopback port, mail in a temporary Maildir) and sending through a
 * loopback SMTP sink (the `smtp-server` package the product's mail tests use), with the recording
 * reverse proxy (recording.ts). What the browser does, as a mail user does: signs in, reads plain,
 * HTML and Chinese messages and an attachment, searches, writes HTML mail in the rich-text editor
 * (formatting, a link, a code sample, a quoted reply), attaches a file, saves a draft, sends, replies,
 * forwards, flags, moves and deletes, creates a folder, adds a contact, and sets an HTML signature.
 *
 *   node bench/waf-quality/recorded/record-roundcube.ts bench/waf-quality/recorded/roundcube.ndjson [rounds]
 *
 * Writes /etc/roundcube/config.inc.php (Debian's Roundcube reads it there) and puts the package's
 * own back at the end. Loopback only.
 */
import { spawn } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { freePort, png, Recording, settle, waitFor } from './recording.ts';

const [outFile = 'roundcube.ndjson', roundsText = '2'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'mail.recorded.test';
const configFile = '/etc/roundcube/config.inc.php';
const recording = new Recording('roundcube');
const user = 'alice';
const password = 'Mail-Alice-Pass-2024';
const www = { uid: 33, gid: 33 };

/** Mail waiting in the inbox: what a working mailbox holds. */
function inbox(): string[] {
  const date = (d: number) => new Date(Date.UTC(2026, 10, d, 9, 30)).toUTCString().replace('GMT', '+0000');
  const boundary = '=_rc_boundary_1';
  return [
    `From: Bob Martin <bob@example.org>\r\nTo: Alice <alice@mail.recorded.test>\r\nSubject: Meeting notes, Tuesday\r\nDate: ${date(2)}\r\nMessage-ID: <notes-1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHi Alice,\r\n\r\nNotes from Tuesday:\r\n- move the backup window to 02:00\r\n- the invoice for order #4471 is overdue\r\n- Ops wants "SELECT * FROM orders WHERE status = 'open'" as a saved report\r\n\r\nBob\r\n`,
    `From: Newsletter <news@shop.example>\r\nTo: alice@mail.recorded.test\r\nSubject: Winter sale: 30% off\r\nDate: ${date(3)}\r\nMessage-ID: <sale-2@shop.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><h1 style="color:#c00">Winter sale</h1><p>Everything <b>30% off</b> until Sunday. <a href="https://shop.example/sale?utm_source=mail&utm_campaign=winter">Shop now</a></p><img src="https://shop.example/banner.png" alt="banner"><script>track()</script></body></html>\r\n`,
    `From: =?UTF-8?B?5byg5LiJ?= <zhang@example.cn>\r\nTo: alice@mail.recorded.test\r\nSubject: =?UTF-8?B?5oql5Lu35Y2V77ya5pyN5Yqh5Zmo57u05oqk?=\r\nDate: ${date(4)}\r\nMessage-ID: <quote-3@example.cn>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n您好，\r\n\r\n附上服务器维护的报价单，请查收。如有问题请回复。\r\n\r\n张三\r\n`,
    `From: Carol <carol@example.net>\r\nTo: alice@mail.recorded.test\r\nSubject: Logo files\r\nDate: ${date(5)}\r\nMessage-ID: <logo-4@example.net>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHere is the new logo, and the script Dave asked about.\r\n--${boundary}\r\nContent-Type: image/png; name="logo.png"\r\nContent-Disposition: attachment; filename="logo.png"\r\nContent-Transfer-Encoding: base64\r\n\r\n${png(40, 40, [20, 120, 200]).toString('base64')}\r\n--${boundary}\r\nContent-Type: text/x-shellscript; name="rotate-logs.sh"\r\nContent-Disposition: attachment; filename="rotate-logs.sh"\r\n\r\n#!/bin/sh\r\nfind /var/log/app -name '*.log' -mtime +7 -exec gzip {} \\;\r\n--${boundary}--\r\n`,
    `From: Dave <dave@example.com>\r\nTo: alice@mail.recorded.test\r\nSubject: Re: the deploy script\r\nDate: ${date(6)}\r\nMessage-ID: <deploy-5@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThis works on staging:\r\n\r\n  ssh deploy@web1 'cd /srv/app && git pull && npm ci && systemctl restart app'\r\n\r\nand the check is curl -s http://localhost:8080/health | grep ok\r\n`,
  ];
}

/** Dovecot from a configuration of its own: IMAP on a loopback port, one user, mail under the recording's folder. */
async function startDovecot(): Promise<number> {
  const dir = join(recording.dir, 'dovecot');
  const home = join(dir, 'home', user);
  for (const sub of ['run', 'state', 'home']) mkdirSync(join(dir, sub), { recursive: true });
  const maildir = join(home, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  inbox().forEach((message, i) => writeFileSync(join(maildir, 'new', `17640000${i}.M${i}P1.recorded`), message));
  for (const path of [join(dir, 'home'), home, maildir, ...['cur', 'new', 'tmp'].map((s) => join(maildir, s)), ...inbox().map((_, i) => join(maildir, 'new', `17640000${i}.M${i}P1.recorded`))]) chownSync(path, www.uid, www.gid);
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}\n`);
  const port = await freePort();
  const conf = join(dir, 'dovecot.conf');
  writeFileSync(conf, `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${www.uid} gid=${www.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
namespace inbox {
  inbox = yes
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
}
`);
  const dovecot = spawn('/usr/sbin/dovecot', ['-F', '-c', conf], { stdio: 'ignore', detached: true });
  recording.children.push(dovecot);
  await waitFor(() => readFileSync(join(dir, 'dovecot.log'), { encoding: 'utf8', flag: 'a+' }).includes('starting up'), 'dovecot');
  return port;
}

/** An SMTP server that takes every message and keeps none (Roundcube saves the sent copy over IMAP). */
async function startSmtp(): Promise<number> {
  const port = await freePort();
  const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onData: (stream, _session, done) => { stream.resume(); stream.on('end', () => done()); } });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  recording.onStop(() => new Promise<void>((r) => server.close(() => r())));
  return port;
}

async function openMessage(page: Page, subject: string): Promise<void> {
  await page.locator('#messagelist tbody tr', { hasText: subject }).first().click();
  await settle(page, 1500);
}

async function compose(page: Page, base: string, to: string, subject: string, html: (editor: Page) => Promise<void>, attach?: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.goto(`${base}/?_task=mail&_action=compose`, { waitUntil: 'load' });
  await settle(page, 1500);
  await page.locator('#compose_to input, #_to').first().fill(to);
  await page.locator('#compose-subject').fill(subject);
  // The rich-text editor: what most people write in.
  await page.locator('select[name=editorSelector]').selectOption('html').catch(() => {});
  await page.waitForTimeout(1500);
  await html(page);
  if (attach) {
    await page.locator('input[type=file][name="_attachments[]"]').first().setInputFiles(attach);
    await settle(page, 2000);
  }
}

async function typeInEditor(page: Page, lines: string[]): Promise<void> {
  const body = page.frameLocator('#composebody_ifr').locator('body');
  await body.click();
  for (const line of lines) {
    if (line === '**') { await page.keyboard.press('Control+B'); continue; }
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
}

async function main(): Promise<void> {
  const original = readFileSync(configFile);
  recording.onStop(async () => { writeFileSync(configFile, original); });
  const imapPort = await startDovecot();
  const smtpPort = await startSmtp();
  const db = join(recording.dir, 'roundcube.db');
  const temp = join(recording.dir, 'rc-temp');
  const logs = join(recording.dir, 'rc-logs');
  for (const d of [temp, logs]) { mkdirSync(d); chownSync(d, www.uid, www.gid); }
  chownSync(recording.dir, www.uid, www.gid);
  writeFileSync(configFile, `<?php
$config = [];
$config['db_dsnw'] = 'sqlite:///${db}?mode=0640';
$config['imap_host'] = '127.0.0.1:${imapPort}';
$config['smtp_host'] = '127.0.0.1:${smtpPort}';
$config['smtp_user'] = '';
$config['smtp_pass'] = '';
$config['temp_dir'] = '${temp}/';
$config['log_dir'] = '${logs}/';
$config['des_key'] = 'rc-recorded-test-des-key-24';
$config['product_name'] = 'Webmail';
$config['plugins'] = ['archive', 'zipdownload', 'markasjunk', 'newmail_notifier'];
$config['skin'] = 'elastic';
$config['htmleditor'] = 1;
$config['enable_spellcheck'] = false;
$config['mail_domain'] = 'mail.recorded.test';
$config['username_domain'] = '';
`);
  const apachePort = await recording.startApache(host, '/var/lib/roundcube/public_html');
  const port = await recording.startRecorder(outFile, apachePort);
  const base = `http://${host}:${port}`;
  const { browser, page } = await recording.browser(host);

  await recording.step(page, 'sign in', async () => {
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.fill('#rcmloginuser', user);
    await page.fill('#rcmloginpwd', password);
    await page.locator('#rcmloginsubmit').click();
    await page.locator('#messagelist').waitFor();
    await settle(page, 2000);
  });
  for (let round = 0; round < rounds; round++) {
    for (const subject of ['Meeting notes', 'Winter sale', 'Logo files', 'the deploy script']) {
      await recording.step(page, `read ${subject}`, async () => {
        await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
        await settle(page, 1200);
        await openMessage(page, subject);
      });
    }
    await recording.step(page, 'open the attachment', async () => {
      await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
      await settle(page, 1200);
      await page.locator('#messagelist tbody tr', { hasText: 'Logo files' }).first().dblclick();
      await settle(page, 1500);
      const download = page.waitForEvent('download', { timeout: 5000 }).catch(() => undefined);
      await page.locator('#attachment-list a.filename, #attachment-list li a').first().click().catch(() => {});
      await download;
      await settle(page, 800);
    });
    for (const words of [['invoice', 'order #4471'], ['报价单', "O'Brien"]][round % 2]!) {
      await recording.step(page, `search ${words}`, async () => {
        await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
        await settle(page, 1000);
        const box = page.locator('input#mailsearchform');
        await box.fill(words, { force: true });
        await box.press('Enter');
        await settle(page, 1500);
      });
    }
    await recording.step(page, 'write and send HTML mail with an attachment', async () => {
      await compose(page, base, 'bob@example.org', round ? 'Backup window, final' : 'Backup window moved to 02:00', (p) => typeInEditor(p, [
        'Hi Bob,',
        'As agreed, the backup now starts at 02:00. The job runs:',
        "mysqldump --single-transaction shop | gzip > /backup/shop-$(date +%F).sql.gz",
        '**', 'Please check the restore on Friday.', '**',
        'Details: https://wiki.example.org/index.php?title=Backup_procedure&action=history',
        'Thanks & regards, <Alice>',
      ]), { name: `restore-checklist-${round}.txt`, mimeType: 'text/plain', buffer: Buffer.from('1. stop app\n2. gunzip < dump.sql.gz | mysql shop\n3. start app; curl localhost/health\n') });
      await page.locator('button.send, a.send, #rcmbtn_send, button:has-text("Send")').first().click();
      await settle(page, 2500);
    });
    await recording.step(page, 'save a draft', async () => {
      await compose(page, base, 'team@example.org, zhang@example.cn', '下周的维护计划 / maintenance next week', (p) => typeInEditor(p, [
        '各位好：',
        '下周二 22:00–23:00 维护数据库，期间网站只读。',
        'Query for the report: SELECT name, COUNT(*) FROM visits WHERE day >= CURDATE() - INTERVAL 7 DAY GROUP BY name;',
      ]));
      await page.locator('a.savedraft, button.savedraft, #rcmbtn_savedraft, a:has-text("Save")').first().click().catch(() => page.keyboard.press('Control+S'));
      await settle(page, 2000);
    });
    await recording.step(page, 'reply', async () => {
      await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
      await settle(page, 1200);
      await openMessage(page, 'the deploy script');
      await page.locator('a.reply:visible').first().click();
      await settle(page, 2000);
      await typeInEditor(page, ['Works here too. I added', "  && curl -fsS http://localhost:8080/health || echo 'deploy failed' | mail -s alert ops@example.com"]);
      await page.locator('button.send, a.send, #rcmbtn_send, button:has-text("Send")').first().click();
      await settle(page, 2500);
    });
    await recording.step(page, 'forward', async () => {
      await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
      await settle(page, 1200);
      await openMessage(page, 'Winter sale');
      await page.locator('a.forward:visible').first().click();
      await settle(page, 2000);
      await page.locator('#compose_to input, #_to').first().fill('carol@example.net');
      await typeInEditor(page, ['FYI, the sale ends Sunday.']);
      await page.locator('button.send, a.send, #rcmbtn_send, button:has-text("Send")').first().click();
      await settle(page, 2500);
    });
    await recording.step(page, 'flag and mark unread', async () => {
      await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
      await settle(page, 1200);
      await page.locator('#messagelist tbody tr', { hasText: 'Meeting notes' }).first().click();
      await page.waitForTimeout(800);
      await page.locator('a.markmessage:visible').first().click();
      await page.waitForTimeout(500);
      await page.locator('a.flag:visible').first().click();
      await settle(page, 800);
      await page.locator('a.markmessage:visible').first().click();
      await page.waitForTimeout(500);
      await page.locator('a.unread:visible').first().click().catch(() => {});
      await settle(page, 1000);
    });
    await recording.step(page, 'sent folder', async () => {
      await page.goto(`${base}/?_task=mail&_mbox=Sent`, { waitUntil: 'load' });
      await settle(page, 1500);
    });
  }
  await recording.step(page, 'create a folder', async () => {
    await page.goto(`${base}/?_task=settings&_action=folders`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('a.create, #rcmbtn_create, button.create').first().click();
    await settle(page, 1500);
    const frame = page.frameLocator('#preferences-frame');
    await frame.locator('input[name=_name]').fill('Projects 2026');
    await frame.locator('button.submit, input[type=submit]').first().click().catch(() => page.locator('button.submit').first().click());
    await settle(page, 1500);
  });
  await recording.step(page, 'move a message', async () => {
    await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('#messagelist tbody tr', { hasText: 'Logo files' }).first().click();
    await page.waitForTimeout(600);
    await page.locator('#messagelist tbody tr', { hasText: 'Logo files' }).first().dragTo(page.locator('#mailboxlist li', { hasText: 'Projects' }).first());
    await settle(page, 1500);
  });
  await recording.step(page, 'delete a message', async () => {
    await page.goto(`${base}/?_task=mail&_mbox=INBOX`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('#messagelist tbody tr', { hasText: 'Winter sale' }).first().click();
    await page.waitForTimeout(600);
    await page.keyboard.press('Delete');
    await settle(page, 1500);
  });
  await recording.step(page, 'add a contact', async () => {
    await page.goto(`${base}/?_task=addressbook`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('a.create, #rcmbtn_create, button.create').first().click();
    await settle(page, 1500);
    const frame = page.frameLocator('#contact-frame');
    await frame.locator('input[name=_firstname]').fill('Seán');
    await frame.locator('input[name=_surname]').fill("O'Brien");
    await frame.locator('input[name^="_email"]').first().fill('sean.obrien@example.ie');
    await frame.locator('textarea[name=_notes]').fill('Met at the conference; prefers "short" mails. Phone: +353 1 234 5678', { timeout: 3000 }).catch(() => {});
    await frame.locator('button.submit, input[type=submit]').first().click().catch(() => page.locator('button.submit').first().click());
    await settle(page, 1500);
  });
  await recording.step(page, 'HTML signature', async () => {
    await page.goto(`${base}/?_task=settings&_action=identities`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('#identities-table tbody tr').first().click();
    await settle(page, 2000);
    const frame = page.frameLocator('#preferences-frame');
    await frame.locator('input[name=_organization]').fill('Example Ops & Co.');
    // The signature in the rich-text editor where the page offers it, else as plain text.
    const rich = frame.frameLocator('iframe[id$="_ifr"]').locator('body');
    const html = await frame.locator('input[name=_html_signature], a.html-editor, a[href="#html"]').first().click({ timeout: 3000 }).then(() => true, () => false);
    if (html) {
      await page.waitForTimeout(1500);
      await rich.click();
      await page.keyboard.type('Alice Smith — Operations');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Tel. +1 555 0100 | https://ops.example.org');
    } else {
      await frame.locator('textarea[name=_signature]').fill('-- \nAlice Smith — Operations\nTel. +1 555 0100 | https://ops.example.org');
    }
    await frame.locator('button.submit, input[type=submit]').first().click().catch(() => page.locator('button.submit').first().click());
    await settle(page, 1500);
  });
  await recording.step(page, 'preferences', async () => {
    await page.goto(`${base}/?_task=settings&_action=preferences`, { waitUntil: 'load' });
    await settle(page, 1200);
    await page.locator('#sections-table tbody tr', { hasText: /Displaying Messages|Mailbox View/ }).first().click();
    await settle(page, 1500);
    const frame = page.frameLocator('#preferences-frame');
    await frame.locator('button.submit, input[type=submit]').first().click();
    await settle(page, 1200);
  });
  await recording.step(page, 'sign out', async () => {
    await page.locator('a.logout, #rcmbtn_logout').first().click();
    await settle(page, 1200);
  });
  await browser.close();
}

await recording.run(outFile, main);
