/**
 * Records a phpMyAdmin session driven in Chromium (issue 25): Debian's phpMyAdmin 5.2 (package
 * `phpmyadmin`, plus mariadb-server) at /phpmyadmin behind Apache + mod_php from a temporary
 * configuration, a MariaDB of its own with phpMyAdmin's configuration storage, and the recording
 * reverse proxy (recording.ts, shared with record-wordpress.ts). What the browser does, as a database
 * administrator: signs in, creates a database, creates tables in the form and in the SQL box, types SQL
 * queries (SELECT, JOIN, UNION, GROUP BY, UPDATE, SHOW …) into the SQL box and runs them, browses,
 * inserts and edits rows, searches the database and a table, exports and imports a small .sql file.
 *
 * The SQL box legitimately sends SQL: every request carrying the box's text (the queries run, and
 * the lint requests phpMyAdmin sends while they are typed: `sqlBox` below) is written with
 * `"part": "sql-box"`, so the bench counts it as the set `real/phpmyadmin/sql-box` beside the rest.
 *
 *   node bench/waf-quality/recorded/record-phpmyadmin.ts bench/waf-quality/recorded/phpmyadmin.ndjson [rounds]
 *
 * Writes /etc/phpmyadmin/conf.d/recorded-test.php (the socket and the control user; Debian's
 * config.inc.php reads conf.d) and removes it at the end. Loopback only.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Recording, settle } from './recording.ts';

const [outFile = 'phpmyadmin.ndjson', roundsText = '2'] = process.argv.slice(2);
const rounds = Number(roundsText);
const host = 'pma.recorded.test';
const configFile = '/etc/phpmyadmin/conf.d/recorded-test.php';
const recording = new Recording('pma');
const password = 'Db-Admin-Pass-2024';

/** What the administrator types into the SQL box: the first two make and fix the tables, the rest are spread over the rounds. */
const queries = [
  'ALTER TABLE categories MODIFY id INT NOT NULL AUTO_INCREMENT PRIMARY KEY;',
  'CREATE TABLE products (\n  id INT AUTO_INCREMENT PRIMARY KEY,\n  name VARCHAR(100) NOT NULL,\n  price DECIMAL(8,2) NOT NULL DEFAULT 0,\n  category_id INT,\n  added DATETIME DEFAULT CURRENT_TIMESTAMP\n);',
  "SELECT * FROM products WHERE price > 2.5 ORDER BY name LIMIT 20;",
  "SELECT p.name, c.title, p.price\nFROM products p\nJOIN categories c ON c.id = p.category_id\nWHERE c.title LIKE '%bread%'\nORDER BY p.price DESC;",
  'SELECT name FROM products UNION SELECT title FROM categories;',
  'SELECT category_id, COUNT(*) AS n, AVG(price) FROM products GROUP BY category_id HAVING COUNT(*) > 1;',
  "UPDATE products SET price = price * 1.05 WHERE category_id = 1;",
  "SELECT VERSION(), CURRENT_USER(), DATABASE();",
  "SHOW VARIABLES LIKE 'character_set%';",
  "SELECT user, host FROM mysql.user;",
  "INSERT INTO categories (title) VALUES ('Cakes & pastries'), ('Drinks');",
  "DELETE FROM products WHERE name = 'Old stock' OR price = 0;",
  "SELECT * FROM products WHERE name LIKE 'R%' AND (price BETWEEN 1 AND 5 OR category_id IS NULL);",
  "SELECT c.title, (SELECT COUNT(*) FROM products p WHERE p.category_id = c.id) AS products FROM categories c;",
  "EXPLAIN SELECT * FROM products WHERE category_id = 2;",
];
/**
 * A request carrying the SQL box's text: what phpMyAdmin's linter is sent while the box is edited
 * (`route=/lint`: what the administrator typed, or the `SELECT * FROM \`t\` WHERE 1` phpMyAdmin puts in
 * a table's box itself), and the box's Go (`route=/import` with `sql_query`). The SQL phpMyAdmin
 * writes into its own links (browse, sort, page) is not the box's and stays in the main set.
 */
function sqlBox(target: string, body: Buffer): string | undefined {
  const route = new URLSearchParams(target.split('?')[1] ?? '').get('route');
  if (route === '/lint') return 'sql-box';
  return route === '/import' && new URLSearchParams(body.toString('latin1')).get('sql_query') ? 'sql-box' : undefined;
}

const importFile = `-- Exported by hand from the old shop database
SET NAMES utf8mb4;
INSERT INTO products (name, price, category_id) VALUES
  ('Rye loaf', 3.40, 1),
  ('Sourdough', 4.20, 1),
  ('Croissant', 1.60, 2),
  ('Espresso beans 250g', 7.90, 3),
  ('Old stock', 0.00, NULL);
UPDATE products SET name = 'Rye loaf (whole)' WHERE name = 'Rye loaf';
`;

/** Types a query into the SQL box (CodeMirror) as a person does, then runs it. */
async function runQuery(page: Page, base: string, db: string, sql: string): Promise<void> {
  await page.goto(`${base}/phpmyadmin/index.php?route=/database/sql&db=${db}`, { waitUntil: 'load' });
  await page.waitForTimeout(800);
  const editor = page.locator('#sqlquery ~ .CodeMirror');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  for (const line of sql.split('\n')) {
    await page.keyboard.type(line, { delay: 8 });
    await page.keyboard.press('Enter');
  }
  // CodeMirror closes brackets and indents as it goes: the box holds exactly what was meant.
  await page.evaluate(`document.querySelector('#sqlquery ~ .CodeMirror').CodeMirror.setValue(${JSON.stringify(sql)})`);
  await page.waitForTimeout(600);
  await page.locator('#button_submit_query').click();
  await settle(page, 2000);
}

async function main(): Promise<void> {
  const socket = await recording.startDatabase(`CREATE USER 'admin'@'localhost' IDENTIFIED BY '${password}'; GRANT ALL ON *.* TO 'admin'@'localhost' WITH GRANT OPTION;
CREATE DATABASE phpmyadmin; CREATE USER 'pma'@'localhost' IDENTIFIED BY 'pma-control'; GRANT ALL ON phpmyadmin.* TO 'pma'@'localhost';
USE phpmyadmin; ${readFileSync('/usr/share/phpmyadmin/sql/create_tables.sql', 'utf8').replace(/^--.*$/gm, '')}`);
  recording.cleanup.unshift(configFile);
  writeFileSync(configFile, `<?php
$cfg['Servers'][1]['host'] = 'localhost';
$cfg['Servers'][1]['connect_type'] = 'socket';
$cfg['Servers'][1]['socket'] = '${socket}';
$cfg['Servers'][1]['controluser'] = 'pma';
$cfg['Servers'][1]['controlpass'] = 'pma-control';
$cfg['Servers'][1]['pmadb'] = 'phpmyadmin';
$cfg['TempDir'] = '${join(recording.dir, 'tmp')}';
$cfg['VersionCheck'] = false;
`);
  execFileSync('install', ['-d', '-o', 'www-data', '-g', 'www-data', join(recording.dir, 'tmp')]);
  const apachePort = await recording.startApache(host, recording.dir, 'Alias /phpmyadmin /usr/share/phpmyadmin');
  const port = await recording.startRecorder(outFile, apachePort, sqlBox);
  const base = `http://${host}:${port}`;
  const { browser, page } = await recording.browser(host);
  const sqlFile = join(recording.dir, 'shop-products.sql');
  writeFileSync(sqlFile, importFile);

  // Sign in.
  await page.goto(`${base}/phpmyadmin/`, { waitUntil: 'load' });
  await page.fill('#input_username', 'admin');
  await page.fill('#input_password', password);
  await page.locator('#input_go').click();
  await settle(page);
  // A database, from the Databases tab.
  await recording.step(page, 'create database', async () => {
    await page.goto(`${base}/phpmyadmin/index.php?route=/server/databases`, { waitUntil: 'load' });
    await page.fill('#text_create_db', 'shop');
    await page.locator('#create_database_form [type=submit]').first().click();
    await settle(page, 2500);
  });
  // A table from the form: categories (id, title, note).
  await recording.step(page, 'create table in the form', async () => {
    await page.goto(`${base}/phpmyadmin/index.php?route=/database/structure&db=shop`, { waitUntil: 'load' });
    await page.waitForTimeout(800);
    await page.fill('#createTableNameInput', 'categories');
    await page.fill('#createTableNumFieldsInput', '3');
    await page.locator('#createTableNameInput').press('Enter');
    await settle(page);
    await page.fill('input[name="field_name[0]"]', 'id');
    await page.selectOption('select[name="field_type[0]"]', 'INT');
    await page.fill('input[name="field_name[1]"]', 'title');
    await page.selectOption('select[name="field_type[1]"]', 'VARCHAR');
    await page.fill('input[name="field_length[1]"]', '80');
    await page.fill('input[name="field_name[2]"]', 'note');
    await page.selectOption('select[name="field_type[2]"]', 'TEXT');
    await page.locator('input[name="field_null[2]"]').check();
    await page.locator('textarea[name="field_comments[2]"]').fill('Shown under the title on the shop page');
    await page.locator('input[name="do_save_data"]').first().click();
    await settle(page, 2500);
  });
  for (const sql of queries.slice(0, 2)) await recording.step(page, 'tables in the SQL box', () => runQuery(page, base, 'shop', sql));

  for (let round = 0; round < rounds; round++) {
    // Rows in the insert form.
    await recording.step(page, 'insert rows', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/table/change&db=shop&table=categories`, { waitUntil: 'load' });
      await page.waitForTimeout(800);
      const values = [['Bread & rolls', 'Baked every morning; rye, wheat and spelt.'], ['Pastries', "Croissants, pain au chocolat — \"viennoiserie\""], ['Coffee', 'Beans from two roasters: 100% arabica']][round % 3]!;
      const title = page.locator('input[name^="fields[multi_edit][0]"][type="text"], input[name^="fields[multi_edit][0]"]:not([type])').first();
      await title.fill(values[0]!);
      await page.locator('textarea[name^="fields[multi_edit][0]"]').first().fill(values[1]!);
      await page.locator('#buttonYes, #insertForm [type=submit]').first().click();
      await settle(page);
    });
    if (round === 0) await recording.step(page, 'import a .sql file', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/database/import&db=shop`, { waitUntil: 'load' });
      await page.waitForTimeout(800);
      await page.locator('#input_import_file').setInputFiles(sqlFile);
      await page.locator('#buttonGo').click();
      await settle(page, 2500);
    });
    // Queries typed in the SQL box.
    for (const sql of queries.slice(2).filter((_, i) => i % rounds === round)) await recording.step(page, `query ${sql.slice(0, 30)}`, () => runQuery(page, base, 'shop', sql));
    // Browse, edit a row in the form, edit a cell in the grid.
    await recording.step(page, 'browse and edit', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/sql&db=shop&table=products&pos=0`, { waitUntil: 'load' });
      await page.waitForTimeout(1200);
      const edit = page.locator('a[data-post*="default_action=update"]').first();
      await edit.click();
      await settle(page);
      const name = page.locator('input[name^="fields[multi_edit][0]"][type="text"], input[name^="fields[multi_edit][0]"]:not([type])').nth(1);
      await name.fill(['Sourdough (1 kg)', 'Croissant — butter', 'Espresso beans 250 g'][round % 3]!);
      await page.locator('#buttonYes, #insertForm [type=submit]').first().click();
      await settle(page);
    });
    await recording.step(page, 'grid edit', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/sql&db=shop&table=products&pos=0`, { waitUntil: 'load' });
      await page.waitForTimeout(1200);
      const cell = page.locator('td.grid_edit').nth(2);
      await cell.dblclick();
      await page.waitForTimeout(600);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(round ? '2.95' : '3.10');
      await page.keyboard.press('Enter');
      await settle(page);
    });
    // Search the database and a table.
    await recording.step(page, 'search the database', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/database/search&db=shop`, { waitUntil: 'load' });
      await page.waitForTimeout(800);
      await page.fill('#criteriaSearchString', ['sourdough', "O'Brien's bakery", 'coffee'][round % 3]!);
      await page.locator('#db_search_form [type=submit], #buttonGo').first().click();
      await settle(page);
    });
    await recording.step(page, 'search a table', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/table/search&db=shop&table=products`, { waitUntil: 'load' });
      await page.waitForTimeout(800);
      await page.locator('input[name="criteriaValues[1]"]').fill(['%bread%', 'Cro%'][round % 2]!);
      await page.locator('select[name="criteriaColumnOperators[1]"]').selectOption('LIKE').catch(() => {});
      await page.locator('#tbl_search_form [type=submit], input[name="submit"]').first().click();
      await settle(page);
    });
    // Structure and export.
    await recording.step(page, 'structure', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/table/structure&db=shop&table=products`, { waitUntil: 'load' });
      await settle(page, 800);
    });
    await recording.step(page, 'export', async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=/database/export&db=shop`, { waitUntil: 'load' });
      await page.waitForTimeout(1000);
      const download = page.waitForEvent('download', { timeout: 10_000 }).catch(() => undefined);
      await page.locator('#buttonGo').click();
      await download;
      await page.waitForTimeout(800);
    });
  }
  // The server's pages an administrator checks.
  for (const route of ['/server/status', '/server/variables', '/server/privileges']) {
    await recording.step(page, route, async () => {
      await page.goto(`${base}/phpmyadmin/index.php?route=${route}`, { waitUntil: 'load' });
      await settle(page, 800);
    });
  }
  await browser.close();
}

await recording.run(outFile, main);
