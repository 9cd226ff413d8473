/**
 * What the recorders of PHP applications share (issue 25): a MariaDB of their own in a temporary
 * folder, Apache (prefork + mod_php) from a temporary configuration, the recording reverse proxy that
 * writes every request the browser sends (method, target, raw headers, body) as one JSON line — the
 * format `../recorded.ts` replays — and Debian's Chromium through playwright-core, resolving the
 * site's name to loopback and every other name to nothing. Used by record-wordpress.ts,
 * record-phpmyadmin.ts and record-mediawiki.ts.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';

/** One recording: its temporary folder, the processes it started and the files to remove at the end. */
export class Recording {
  readonly dir: string;
  readonly children: ChildProcess[] = [];
  readonly cleanup: string[] = [];
  recorded = 0;
  /** Steps of the session that failed (the page changed under the script): said at the end. */
  readonly failed: string[] = [];
  /** Run at the end before the processes are stopped (servers started in this process, files put back). */
  readonly #onStop: (() => Promise<void>)[] = [];

  onStop(action: () => Promise<void>): void {
    this.#onStop.push(action);
  }

  constructor(name: string) {
    this.dir = mkdtempSync(join(tmpdir(), `rampart-${name}-record-`));
    chmodSync(this.dir, 0o755);
    this.cleanup.push(this.dir);
  }

  /** MariaDB in `dir/db`, on a socket only; `setup` is SQL run as root once it answers. */
  async startDatabase(setup: string): Promise<string> {
    const data = join(this.dir, 'db');
    const socket = join(this.dir, 'mysql.sock');
    execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'ignore' });
    const db = spawn('mariadbd', ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking', '--user=root', `--pid-file=${join(this.dir, 'mysqld.pid')}`], { stdio: 'ignore', detached: true });
    this.children.push(db);
    await waitFor(() => existsSync(socket), 'mariadbd');
    chmodSync(socket, 0o777);
    execFileSync('mariadb', ['--no-defaults', '-S', socket, '-uroot', '-e', setup]);
    return socket;
  }

  /**
   * Apache (prefork + mod_php) on a loopback port for `host`, serving `documentRoot`; `extra` is
   * appended to the configuration (aliases, directory options).
   */
  async startApache(host: string, documentRoot: string, extra = ''): Promise<number> {
    const port = await freePort();
    const mod = (name: string, file: string) => `LoadModule ${name} /usr/lib/apache2/modules/${file}`;
    const conf = join(this.dir, 'apache2.conf');
    writeFileSync(conf, `ServerRoot ${this.dir}
DefaultRuntimeDir ${this.dir}
PidFile ${this.dir}/apache2.pid
Mutex file:${this.dir} default
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
ErrorLog ${this.dir}/error.log
StartServers 3
DocumentRoot ${documentRoot}
DirectoryIndex index.php index.html
<Directory />
  Require all granted
  AllowOverride None
</Directory>
<FilesMatch ".+\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
${extra}
`);
    // Its own process group: prefork's parent signals its whole group on the way out, which would
    // take this process with it.
    const apache = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], { stdio: 'ignore', detached: true });
    this.children.push(apache);
    await waitFor(() => canConnect(port), 'apache2');
    return port;
  }

  /**
   * The recording reverse proxy: every request as sent, then forwarded to `upstream`. `part` may name
   * a part of the set a request belongs to (written as `part`; `../recorded.ts` makes it a set of its own).
   */
  async startRecorder(outFile: string, upstream: number, part?: (target: string, body: Buffer) => string | undefined): Promise<number> {
    const out = createWriteStream(outFile);
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        out.write(recordedLine(req, body, part?.(req.url ?? '/', body)));
        this.recorded++;
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

  /** Debian's Chromium with `host` mapped to loopback and every other name to nothing; one page. */
  async browser(host: string): Promise<{ browser: Browser; page: Page }> {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [`--host-resolver-rules=MAP ${host} 127.0.0.1, MAP * ~NOTFOUND`, '--no-sandbox'] });
    const context = await browser.newContext({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => d.accept().catch(() => {}));
    return { browser, page };
  }

  /**
   * One step of the session: a step that fails (a control moved between versions) is said, its page
   * saved beside the recording's log as `<out>.step-N.html`, and the session goes on.
   */
  async step(page: Page, what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.failed.push(what);
      console.error(`step "${what}" failed: ${String(error).split('\n')[0]}`);
      if (process.env.RECORD_DEBUG) writeFileSync(`${process.env.RECORD_DEBUG}.step-${this.failed.length}.html`, await page.content().catch(() => ''));
    }
  }

  /** Runs `main`, says how many requests were recorded, stops what was started and removes the temporary files. */
  async run(outFile: string, main: () => Promise<void>): Promise<never> {
    const interrupted = new Promise<void>((resolve) => { for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve()); });
    try {
      await Promise.race([main(), interrupted]);
      console.log(`recorded ${this.recorded} requests to ${outFile}`);
      if (this.failed.length) console.error(`steps that failed: ${this.failed.join('; ')}`);
    } catch (error) {
      console.error(`stopped after ${this.recorded} requests:`, error);
    } finally {
      for (const action of this.#onStop.reverse()) await action().catch((error: unknown) => console.error('at stop:', error));
      // Apache before MariaDB; each waited for (MariaDB flushes its files on the way out).
      for (const child of this.children.reverse()) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      for (const path of this.cleanup) {
        try {
          rmSync(path, { recursive: true, force: true, maxRetries: 5 });
        } catch (error) {
          console.error(`could not remove ${path}:`, error);
        }
      }
    }
    process.exit(0);
  }
}

/** One request as `../recorded.ts` replays it: method, target, raw header pairs, body in base64, the part of the set if any. */
export function recordedLine(req: http.IncomingMessage, body: Buffer, part?: string): string {
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return JSON.stringify({ method: req.method, target: req.url, headers, body: body.toString('base64'), ...(part ? { part } : {}) }) + '\n';
}

/** Lets a page finish loading and its scripts send what they send. */
export async function settle(page: Page, ms = 1200): Promise<void> {
  await page.waitForLoadState('load').catch(() => {});
  await page.waitForTimeout(ms);
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
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

/** A small valid PNG (one colour, w×h) built here, so uploads carry a real image. */
export function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  const rows = Buffer.concat(Array.from({ length: h }, () => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
