import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';

export const nginxBinary = '/usr/sbin/nginx';
export const hasNginx = existsSync(nginxBinary);

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** What the Node echo server behind nginx saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
}

/**
 * A small Node origin behind nginx (nginx can't echo bodies): /echo streams the body back with the
 * headers it received as JSON in `x-echo-headers`; /sink counts and hashes the body; /slow?ms=
 * answers late; /ws is a WebSocket echo whose handshake sets a cookie.
 */
export async function startEchoServer(): Promise<{ port: number; seen: SeenRequest[]; connections: () => number; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/echo')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-echo-headers': JSON.stringify(req.headers) });
      req.pipe(res);
    } else if (url.pathname.startsWith('/sink')) {
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
        hash.update(c);
      });
      req.on('end', () => res.end(JSON.stringify({ bytes, sha256: hash.digest('hex') })));
    } else if (url.pathname.startsWith('/slow')) {
      setTimeout(() => res.end('slow done'), Number(url.searchParams.get('ms') ?? 1000));
    } else {
      res.end(JSON.stringify({ url: req.url, headers: req.headers }));
    }
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', () => connections++);
  const wss = new WebSocketServer({ noServer: true });
  // The handshake sets a session cookie, as chat and game servers do: the cookie attributes apply to it.
  wss.on('headers', (headers) => headers.push('Set-Cookie: ws_session=s1; Path=/ws'));
  server.on('upgrade', (req, socket, head) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders });
    wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    seen,
    connections: () => connections,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface NginxOrigin {
  port: number;
  dir: string;
  /** Bytes of the static binary file /bin.dat. */
  binary: Buffer;
  /** Access log lines: `connection-serial connection-requests uri xff realip host`. */
  accessLog: () => string[];
  stop: () => Promise<void>;
}

/**
 * The real Debian nginx as origin, with its own prefix, config, pid and logs in a temp folder:
 * static files, and /echo /sink /slow /ws proxied to the Node echo server (unbuffered both ways,
 * so a large upload streams through nginx too).
 */
export async function startNginxOrigin(echoPort: number): Promise<NginxOrigin> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-nginx-'));
  chmodSync(dir, 0o755); // nginx workers run as nobody and must read the files
  mkdirSync(join(dir, 'www'));
  mkdirSync(join(dir, 'logs'));
  const binary = randomBytes(3 * 1024 * 1024 + 17);
  writeFileSync(join(dir, 'www', 'bin.dat'), binary);
  writeFileSync(join(dir, 'www', 'index.html'), '<h1>origin</h1>\n');
  const port = await freePort();
  const proxied = `proxy_pass http://127.0.0.1:${echoPort}; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_request_buffering off; proxy_buffering off; client_max_body_size 0; proxy_read_timeout 120s;`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; master_process on; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  log_format conn '$connection $connection_requests $request_uri "$http_x_forwarded_for" "$http_x_real_ip" "$http_host"';
  access_log ${dir}/logs/access.log conn;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  keepalive_timeout 65s; keepalive_requests 100000;
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location /echo { ${proxied} }
    location /sink { ${proxied} }
    location /slow { ${proxied} }
    location /ws { proxy_pass http://127.0.0.1:${echoPort}; proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; proxy_read_timeout 120s; }
  }
}
`,
  );
  const child: ChildProcess = spawn(nginxBinary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log')], { stdio: 'ignore' });
  await waitForPort(port);
  return {
    port,
    dir,
    binary,
    accessLog: () => readFileSync(join(dir, 'logs', 'access.log'), 'utf8').split('\n').filter((l) => l !== ''),
    stop: async () => {
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs) throw new Error(`port ${port} did not open`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A self-signed certificate for `name`, made by openssl. */
export function makeCert(name: string): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One HTTP request, body collected as a Buffer. */
export function request(
  options: http.RequestOptions & { body?: Buffer | string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
