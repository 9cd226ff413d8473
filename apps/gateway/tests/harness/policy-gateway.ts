import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultWebsiteSettings, gatewayConfigSchema, type GatewayConfig, type GatewayEventRecord, type GatewaySite, type WebsiteSettings } from '@rampart/contracts';
import { GatewayServers } from '../../src/gateway-servers.ts';
import type { GatewayEvent, Inspector } from '../../src/inspector.ts';
import { createLocalServices, type WorkerServices } from '../../src/services.ts';
import { freePort, nginxBinary, request, startEchoServer, waitForPort } from './origin.ts';

/*
 * A gateway with a policy in front of the real Debian nginx, for the pipeline-*.test.ts files: one
 * nginx, one GatewayServers and one set of local services per file; each test applies the
 * settings it needs (listeners stay, the site and policy swap at once). Clients choose their
 * address with X-Forwarded-For: the site trusts 127.0.0.0/8 as its proxy.
 */

export const secret = 'ab'.repeat(32);
export const siteHost = 'shop.example';
export const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/**
 * nginx serving what the settings groups act on: text pages, images, a cookie-setting URL, 404s, /echo,
 * /sink (answers with the body's length and hash once it has all of it) and the /ws WebSocket echo
 * proxied to a Node echo.
 */
export async function startPolicyOrigin(): Promise<{ port: number; dir: string; stop: () => Promise<void>; accessLog: () => string[] }> {
  const echo = await startEchoServer();
  const dir = mkdtempSync(join(tmpdir(), 'gw-policy-nginx-'));
  chmodSync(dir, 0o755);
  const www = join(dir, 'www');
  mkdirSync(join(www, 'admin'), { recursive: true });
  mkdirSync(join(www, 'img'), { recursive: true });
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(www, 'index.html'), '<h1>origin</h1>\n');
  writeFileSync(join(www, 'news.html'), '<p>The casino opened. Casino fans came to the CASINO.</p>\n');
  writeFileSync(join(www, 'data.json'), '{"text":"free casino chips"}\n');
  writeFileSync(join(www, 'report.txt'), 'quarterly report\n');
  writeFileSync(join(www, 'backup.csv'), 'secret,backup\n');
  writeFileSync(join(www, 'admin', 'old.csv'), 'old,admin\n');
  writeFileSync(join(www, 'admin', 'index.html'), '<h1>admin</h1>\n');
  writeFileSync(join(www, 'img', 'logo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  const big = Buffer.alloc(3 * 1024 * 1024, 'casino ');
  writeFileSync(join(www, 'big.txt'), big);
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; master_process on; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  log_format plain '$request_method $request_uri $status';
  access_log ${dir}/logs/access.log plain;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = /cookie {
      add_header Set-Cookie "sid=abc123; Path=/" always;
      add_header Set-Cookie "theme=dark; Path=/; SameSite=None; Secure" always;
      default_type text/plain;
      return 200 "cookie set\\n";
    }
    location /echo { proxy_pass http://127.0.0.1:${echo.port}; proxy_http_version 1.1; proxy_request_buffering off; client_max_body_size 0; }
    location /sink { proxy_pass http://127.0.0.1:${echo.port}; proxy_http_version 1.1; proxy_request_buffering off; client_max_body_size 0; }
    location /ws { proxy_pass http://127.0.0.1:${echo.port}; proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; proxy_read_timeout 60s; }
  }
}
`,
  );
  const child: ChildProcess = spawn(nginxBinary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log')], { stdio: 'ignore' });
  await waitForPort(port);
  return {
    port,
    dir,
    accessLog: () => readFileSync(join(dir, 'logs', 'access.log'), 'utf8').split('\n').filter((l) => l !== ''),
    stop: async () => {
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGQUIT');
      await exited;
      await echo.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** HH:MM of a minute of the day. */
const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** A daily window that does not hold the present minute (ten minutes of margin before it). */
export function windowNotNow(): { start: string; end: string } {
  const now = new Date();
  const m = now.getHours() * 60 + now.getMinutes();
  return m <= 1420 ? { start: clock(m + 10), end: clock(m + 15) } : { start: '00:00', end: '00:05' };
}

/** A fresh copy of the default settings for a test to change. */
export function settings(change: (s: WebsiteSettings) => void = () => {}): WebsiteSettings {
  const copy = structuredClone(defaultWebsiteSettings);
  change(copy);
  return copy;
}

export interface PolicyHarness {
  port: number;
  originPort: number;
  events: GatewayEventRecord[];
  legacy: GatewayEvent[];
  services: ReturnType<typeof createLocalServices>;
  /** What services.areasOf answers per address (tests fill it). */
  areas: Map<string, string[]>;
  /** What services.spiderDns answers per address. */
  dns: Map<string, 'genuine' | 'fake'>;
  /** nginx's access log lines: `METHOD URI STATUS`. */
  originLog(): string[];
  apply(s: WebsiteSettings, site?: Partial<GatewaySite>, policy?: { super_whitelist?: string[]; common_areas?: { id: number; members: string[] }[] }): Promise<void>;
  /** One request from `ip` (X-Forwarded-For), body as a string. */
  get(path: string, options?: { ip?: string; method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; text: string }>;
  stop(): Promise<void>;
}

export async function startPolicyGateway(inspector: Inspector): Promise<PolicyHarness> {
  const origin = await startPolicyOrigin();
  const port = await freePort();
  const events: GatewayEventRecord[] = [];
  const legacy: GatewayEvent[] = [];
  const areas = new Map<string, string[]>();
  const dns = new Map<string, 'genuine' | 'fake'>();
  const services = createLocalServices({ emit: (e) => events.push(e), areasOf: (ip) => areas.get(ip) ?? [], spiderDns: (ip) => dns.get(ip) });
  const gateway = new GatewayServers({ inspector, onEvent: (e) => legacy.push(e), services: services as WorkerServices });
  const configFor = (s: WebsiteSettings, site: Partial<GatewaySite> = {}, policy: Parameters<PolicyHarness['apply']>[2] = {}): GatewayConfig =>
    gatewayConfigSchema.parse({
      workers: 1,
      timeouts: { header_ms: 5000, idle_ms: 10_000, upstream_connect_ms: 1000, upstream_response_ms: 5000 },
      sites: [
        {
          id: 'shop',
          name: 'Shop',
          status: 'on',
          listen: [{ address: '127.0.0.1', port }],
          upstreams: [{ url: `http://127.0.0.1:${origin.port}` }],
          trusted_proxies: ['127.0.0.0/8'],
          block_mode: 'loose',
          ...site,
        },
      ],
      policy: { settings: s, cookie_secret: secret, ...policy },
    });
  const harness: PolicyHarness = {
    port,
    originPort: origin.port,
    events,
    legacy,
    services,
    areas,
    dns,
    originLog: origin.accessLog,
    apply: (s, site, policy) => gateway.apply(configFor(s, site, policy)),
    async get(path, options = {}) {
      // A named host, as browsers send: an address in Host is itself a (recorded) protocol finding.
      const headers: Record<string, string | string[]> = { host: siteHost, 'user-agent': browser, accept: '*/*', 'x-forwarded-for': options.ip ?? '198.51.100.1', ...options.headers };
      const r = await request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, ...(options.body !== undefined ? { body: options.body } : {}) });
      return { status: r.status, headers: r.headers, body: r.body, text: r.body.toString('utf8') };
    },
    async stop() {
      await gateway.drain(500);
      await origin.stop();
    },
  };
  await harness.apply(settings());
  return harness;
}
