/**
 * Words and sentences for the legitimate set: names from many scripts, products, prices, emails,
 * prose (some of it talks about SQL, scripts and shells, as real forum and support text does),
 * markdown and editor HTML. Everything is drawn through the seeded random.
 */
import type { Random } from '../random.ts';

export const firstNames = ['Anna', 'José', 'Zoë', 'Łukasz', 'Øyvind', 'Chloé', 'Mehmet', 'Siobhán', 'Jürgen', 'Aiko', 'Priya', 'Olu', 'Mateo', 'Ingrid', 'Dmitri', 'Fatima', 'Liam', "D'Arcy", "O'Neil", 'Nguyễn', '王芳', '李雷', 'さくら', 'Алексей', 'Мария', 'محمد', 'Ελένη', 'Søren', 'Ana-María', 'Jean-Luc'];
export const lastNames = ['Müller', 'García', "O'Brien", 'Smith', 'Kowalski', 'Nakamura', 'Dubois', 'Rossi', 'Johansson', 'Öztürk', 'Silva', 'Van der Berg', 'MacDonald', 'Ivanova', 'Patel', 'Nguyen', 'Hernández', 'Schäfer', 'Kim', 'Żuraw', 'Fernández-López', 'Okafor', 'Tanaka', 'Lefèvre'];
export const cities = ['Zürich', 'São Paulo', 'Kraków', 'Lyon', 'Osaka', 'Reykjavík', 'Austin', 'Köln', 'Montréal', 'Bengaluru', 'Cape Town', 'Málaga', 'Tromsø', 'Hà Nội', '上海', 'Санкт-Петербург'];
export const products = ['Ergonomic chair', 'USB-C hub (7-in-1)', 'Noise-cancelling headphones', 'Mechanical keyboard — brown switches', '4K monitor 27"', 'Standing desk 160×80', "Chef's knife 8\"", 'Cast-iron pan, 28 cm', 'Trail running shoes', 'Espresso beans 1 kg', 'Wool socks (3 pairs)', 'Bike light set', 'Notebook A5, dotted', 'Tea sampler: 12 × 10 g'];
/** Ordinary words; `technicalWords` are the ones a naive filter mistakes for attack keywords. */
export const words = ['account', 'update', 'release', 'shipping', 'invoice', 'report', 'weekly', 'design', 'meeting', 'garden', 'recipe', 'travel', 'budget', 'feature', 'question', 'support', 'review', 'photo', 'summer', 'project', 'draft', 'launch', 'team', 'order', 'delivery', 'schedule', 'feedback', 'migration', 'backup', 'server', 'jacket', 'lamp', 'bicycle', 'birthday', 'vegan', 'printer', 'coffee', 'kids', 'insurance', 'rental'];
export const technicalWords = ['select', 'union', 'drop', 'script', 'alert', 'exec', 'system', 'order by', 'table', 'insert', 'delete', 'where', 'from', 'join', 'null', 'true', 'or', 'and', 'not', 'eval', 'cat', 'ping'];

export function word(r: Random): string {
  return r.chance(0.15) ? r.pick(technicalWords) : r.pick(words);
}
export const tags = ['news', 'how-to', 'release-notes', 'databases', 'javascript', 'python', 'devops', 'linux', 'security', 'cooking', 'travel', 'photography', 'c++', 'c#', 'node.js', '.net', 'q&a'];

/** Everyday prose. */
export const plainSentences = [
  'Thanks for the quick reply, the order arrived on Tuesday.',
  'Could you update the shipping address to the one below?',
  'We are planning the release for next week; please review the draft.',
  'My cat walked over the keyboard and typed ;;;;\'\'\'\' into the form, sorry!',
  "The price is 12.50 € (or $13.99), isn't it?",
  'Our team meets every Monday at 10:00 — agenda in the shared doc.',
  'I love the new design; the dark mode is 👌 and the fonts are great.',
  'Her résumé lists C, C++, and "Node.js & TypeScript" as main skills.',
  'Ich hätte gern eine Rechnung für meine Bestellung Nr. 4711.',
  '注文番号を確認していただけますか？',
  'Спасибо за помощь, всё работает!',
  'Average response time went from 250 ms to 90 ms after adding the index.',
  "Temperature tonight: -5 °C; tomorrow between -2 and +3.",
  'Price < 100 and rating > 4 — that is what I filter on.',
  'A & B Consulting, Ltd. — "quality first"',
  "You can't delete a user who still owns posts; reassign them first.",
  'Please cancel order #10234 & refund to my original payment method.',
  'Hi! Just checking whether my parcel left the warehouse yet.',
  'The blue one is nicer, but the grey one fits better with our kitchen.',
  'Could we move the call to 3 pm? Something came up.',
  'Great article, thanks for sharing — bookmarked.',
  'The hotel was lovely; breakfast could be better though.',
  'Is there a student discount for the annual plan?',
  'I ordered size M but received an L, can I exchange it?',
  'Happy birthday! Hope you have a wonderful day 🎉',
  'Our office will be closed on 24–26 December.',
  'Please find attached the signed contract (2 pages).',
  'We need 12 chairs and 3 tables for the event on Saturday.',
  'The recipe calls for 200 g flour, 2 eggs and a pinch of salt.',
  'My flight lands at 7:45, so I should be there by nine.',
  'Can you recommend a good book about Roman history?',
  'The new firmware fixed the Wi-Fi drops on my router.',
  'Kindly confirm receipt of payment for invoice INV-2024-0193.',
  'The kids loved the museum, especially the dinosaur hall.',
  'Weather permitting, the picnic starts at noon in the park.',
  'I would like to unsubscribe from the weekly digest, please.',
  'Parking is available behind the building (entrance on Elm St.).',
  'Merci beaucoup pour votre aide rapide !',
  '¿Tienen envío gratuito a Canarias?',
  'Die Lieferung kam zwei Tage früher als erwartet — super!',
  'Thanks, the refund arrived today.',
  'La réunion est déplacée à jeudi, désolé pour le dérangement.',
];

/** Prose that talks about SQL, scripts and shells, as real forum and support text does. */
export const technicalSentences = [
  'How do I SELECT from two tables and join them on the customer id?',
  'Use <script> tags carefully: put them at the end of the body or add defer.',
  "I tried DROP TABLE on my test database and now the app won't start — how do I restore the backup?",
  'The union of both sets should give us every customer who ordered in 2023 or 2024.',
  "Please don't select the express option, normal delivery is fine.",
  'Is it safe to run rm -rf node_modules and reinstall?',
  'Set the value to 1 or 2, whichever works; 1=1 seemed to do nothing.',
  'In Excel, =SUM(A1:A10) gives me the total, but =A1*B1 shows #VALUE!',
  'Where can I find the /etc/nginx/sites-available folder on Debian?',
  'Can you explain what "ORDER BY 1 DESC" does in this query?',
  'Question: does the alert() box block the page until the user clicks OK?',
  'The script --help output says to pass --dry-run first.',
  'We exec the nightly job via cron; is there a better way?',
  'Tip: wrap long commands in a shell script and call it from make.',
  'Insert the SD card, then select the boot device from the menu.',
  'He said: "Where is the table from the old office?"',
  'I wrote a small JavaScript snippet that uses document.getElementById to toggle the menu.',
  'My password manager generated something like k8#Lp!2q — is that strong enough?',
];

export const sentences = [...plainSentences, ...technicalSentences];

/** One sentence; one in six talks about SQL, scripts or shells. */
export function sentence(r: Random): string {
  return r.chance(1 / 6) ? r.pick(technicalSentences) : r.pick(plainSentences);
}

/** A comment in a developer- or tech-support-flavoured place: half the sentences are technical. */
export function technicalSentence(r: Random): string {
  return r.chance(0.5) ? r.pick(technicalSentences) : r.pick(plainSentences);
}

export function paragraph(r: Random, min = 2, max = 5): string {
  const n = r.int(min, max);
  return Array.from({ length: n }, () => sentence(r)).join(' ');
}

export function fullName(r: Random): string {
  return `${r.pick(firstNames)} ${r.pick(lastNames)}`;
}

export function email(r: Random): string {
  const local = r.pick(['anna', 'j.garcia', 'zoe+shop', 'lukasz_k', 'info', 'o.brien', 'priya.patel', 'dev-team', 'sales', 'mueller.j', 'support+billing', 'first.last']);
  return `${local}${r.chance(0.5) ? r.int(1, 99) : ''}@${r.pick(['example.com', 'mail.example.org', 'gmail.com', 'outlook.com', 'firma.de', 'exemple.fr', 'uni.ac.uk'])}`;
}

export function price(r: Random): number {
  return Math.round(r.int(99, 99999)) / 100;
}

export function isoDate(r: Random): string {
  const d = new Date(Date.UTC(2023, 0, 1) + r.int(0, 900) * 86400000 + r.int(0, 86399) * 1000);
  return d.toISOString();
}

export function slug(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'post';
}

export function title(r: Random): string {
  return r.pick([
    'How we cut our AWS bill in half',
    'Release notes 4.2: faster search, new editor',
    'Ten recipes for a rainy weekend',
    'SELECT vs. JOIN: a beginner’s guide',
    'Why our <script> loading strategy changed',
    'Q&A: "Is DROP TABLE ever safe?"',
    'Trip report: Kraków → Zürich by train',
    'Understanding UNION ALL in PostgreSQL',
    'Bash tips: 5 one-liners I use every day',
    'Migrating from MySQL 5.7 to 8.0',
    'Das neue Büro in Köln',
    '新しいデザインについて',
    'Shell scripting for people who hate shell scripting',
    'Monthly update — March',
    'On writing safe SQL with prepared statements',
  ]);
}

/** Markdown as a comment or README field holds it. */
export function markdown(r: Random): string {
  const parts = [
    `## ${title(r)}`,
    paragraph(r, 1, 3),
    `- ${sentence(r)}\n- ${sentence(r)}\n- **Note:** ${sentence(r)}`,
    `> ${sentence(r)}`,
    `See [the docs](https://docs.example.com/${slug(title(r))}) and \`npm run build\`.`,
    '| id | name | price |\n|---:|------|------:|\n| 1 | Chair | 99.00 |\n| 2 | Desk | 349.00 |',
  ];
  return parts.filter(() => r.chance(0.75)).join('\n\n') || parts[1]!;
}

/** The HTML a rich-text editor (TinyMCE, CKEditor, Quill, Gutenberg) posts. */
export function editorHtml(r: Random): string {
  const blocks = [
    () => `<p>${escapeHtml(paragraph(r, 1, 3))}</p>`,
    () => `<h2>${escapeHtml(title(r))}</h2>`,
    () => `<p>Read <a href="https://www.example.com/${slug(title(r))}" target="_blank" rel="noopener noreferrer">this article</a> first.</p>`,
    () => `<p><img src="https://cdn.example.com/uploads/2024/0${r.int(1, 9)}/photo-${r.int(100, 999)}.jpg" alt="${escapeHtml(r.pick(products))}" width="${r.int(300, 1200)}" height="${r.int(200, 800)}" class="aligncenter size-large" /></p>`,
    () => `<ul><li>${escapeHtml(sentence(r))}</li><li>${escapeHtml(sentence(r))}</li></ul>`,
    () => `<ol><li><strong>${escapeHtml(word(r))}</strong>: ${escapeHtml(sentence(r))}</li><li><em>${escapeHtml(sentence(r))}</em></li></ol>`,
    () => `<pre><code class="language-sql">${escapeHtml(r.pick(sqlSnippets))}</code></pre>`,
    () => `<blockquote><p>${escapeHtml(sentence(r))}</p></blockquote>`,
    () => `<p style="text-align: center;"><span style="color: #e03e2d;">${escapeHtml(sentence(r))}</span></p>`,
    () => `<table><tbody><tr><td>${escapeHtml(r.pick(products))}</td><td>${price(r).toFixed(2)}</td></tr></tbody></table>`,
    () => `<p>Use <code>&lt;script defer&gt;</code> or <code>async</code> for ${escapeHtml(word(r))}.</p>`,
  ];
  const n = r.int(2, 6);
  return Array.from({ length: n }, () => r.pick(blocks)()).join('\n');
}

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/* Code people post in blogs, forums and issue trackers. */

export const sqlSnippets = [
  'SELECT c.name, COUNT(o.id) AS orders\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nGROUP BY c.name\nORDER BY orders DESC\nLIMIT 10;',
  "SELECT * FROM users WHERE email = 'anna@example.com';",
  'UPDATE products SET price = price * 1.1 WHERE category_id = 3;',
  'CREATE INDEX idx_orders_created ON orders (created_at);',
  'SELECT id FROM a\nUNION ALL\nSELECT id FROM b;',
  'DELETE FROM sessions WHERE expires_at < NOW();',
  "INSERT INTO tags (name) VALUES ('news'), ('release');",
  'ALTER TABLE posts ADD COLUMN published_at TIMESTAMP NULL;',
  'WITH ranked AS (\n  SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at DESC) AS rn\n  FROM events\n)\nSELECT * FROM ranked WHERE rn = 1;',
  "SELECT name FROM employees WHERE hired BETWEEN '2020-01-01' AND '2020-12-31' OR manager_id IS NULL;",
  'DROP TABLE IF EXISTS tmp_import;',
  'EXPLAIN ANALYZE SELECT * FROM orders WHERE status = $1;',
];

export const shellSnippets = [
  'sudo apt-get update && sudo apt-get install -y nginx',
  'find . -name "*.log" -mtime +7 -delete',
  'tar -czf backup-$(date +%F).tar.gz /var/www/html',
  'for f in *.jpg; do convert "$f" -resize 50% "small/$f"; done',
  'grep -rn "TODO" src/ | wc -l',
  'ssh -i ~/.ssh/id_ed25519 deploy@server.example.com "systemctl restart app"',
  'cat /etc/os-release',
  'curl -sSL https://example.com/install.sh | less',
  'export PATH="$HOME/.local/bin:$PATH"',
  'docker run --rm -p 8080:80 -v "$PWD":/usr/share/nginx/html nginx:stable',
  'ls -la /var/log/nginx/',
  'ps aux | grep node | grep -v grep',
];

export const jsSnippets = [
  "document.querySelector('#menu').addEventListener('click', () => {\n  nav.classList.toggle('open');\n});",
  "const res = await fetch('/api/items?page=2');\nconst items = await res.json();",
  'export function debounce(fn, ms) {\n  let t;\n  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };\n}',
  "<script src=\"https://cdn.example.com/lib.min.js\" defer></script>",
  "window.onload = function () { alert('Welcome back!'); };",
  'const total = cart.reduce((sum, item) => sum + item.price * item.qty, 0);',
  "if (user && user.isAdmin) { console.log('admin'); }",
  'element.innerHTML = template(data); // is this safe?',
];

export const pythonSnippets = [
  'import os\nfor name in os.listdir("."):\n    print(name)',
  'def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a',
  'with open("data.csv") as f:\n    rows = list(csv.DictReader(f))',
  'cursor.execute("SELECT * FROM users WHERE id = %s", (user_id,))',
  'subprocess.run(["ls", "-l"], check=True)',
  'import requests\nr = requests.get("https://api.example.com/items", timeout=5)\nprint(r.json())',
  "eval_result = model.evaluate(x_test, y_test)  # not Python's eval()",
];

export function codeSnippet(r: Random): { lang: string; code: string } {
  const lang = r.pick(['sql', 'bash', 'javascript', 'python']);
  const pool = { sql: sqlSnippets, bash: shellSnippets, javascript: jsSnippets, python: pythonSnippets }[lang]!;
  return { lang, code: r.pick(pool) };
}

/* Browser headers. */

export const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
];
export const languages = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.8', 'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'ja,en-US;q=0.9,en;q=0.8', 'zh-CN,zh;q=0.9', 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7', 'es-ES,es;q=0.9'];
