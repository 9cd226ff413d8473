/**
 * The servers the benchmark starts for itself, from temporary configurations on loopback ports (the
 * system's nginx and Apache units are not touched): nginx as the origin answering 200 to anything,
 * and Apache + mod_security2 + Debian's OWASP CRS (paranoia level 1, anomaly blocking → 403) as a
 * reverse proxy in front of it — the peer WAF.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Running {
  name: string;
  port: number;
  /** The server's main process (nginx master, Apache parent, gateway primary): its children are the workers. */
  pid: number;
  logFile: string | null;
  /** The gateway's block events so far (JSON lines from its stdout), for rule attribution. */
  events?: string[];
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, child: ChildProcess, what: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : ''}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: '127.0.0.1', port }, () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on 127.0.0.1:${port}`);
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

function workDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755); // worker processes run unprivileged and write their temporary files here
  return dir;
}

export interface OriginShape {
  /** nginx worker processes (default 1). */
  workers?: number;
  /** What every request is answered with (default `ok` and a newline); no `"`, `\\` or `$` in it. */
  body?: string;
}

/**
 * nginx answering 200 with the same body to every method and target; bodies of any size are read
 * and dropped. The performance bench (bench/waf-perf) gives it a page and one worker per core.
 */
export async function startOriginNginx(fixedPort?: number, shape: OriginShape = {}): Promise<Running> {
  const dir = workDir('rampart-wafq-nginx-');
  const port = fixedPort ?? (await freePort());
  const conf = join(dir, 'nginx.conf');
  const body = shape.body ?? 'ok\\n';
  if (/["\\$]/.test(shape.body ?? '')) throw new Error('origin body: no ", \\ or $ (nginx would read them)');
  writeFileSync(conf, `worker_processes ${shape.workers ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 0;
  large_client_header_buffers 8 64k;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port} default_server;
    server_name _;
    location / { default_type ${shape.body === undefined ? 'text/plain' : 'text/html'}; return 200 "${body}"; }
  }
}
`);
  const child = spawn('nginx', ['-c', conf, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', () => {});
  await waitForPort(port, child, 'nginx', join(dir, 'error.log'));
  return { name: 'nginx', port, pid: child.pid!, logFile: null, stop: stopper(child, dir) };
}

/**
 * Apache 2.4 (event MPM) + mod_security2 with Debian's recommended configuration switched to
 * `SecRuleEngine On`, and Debian's CRS package (crs-setup.conf as shipped: paranoia level 1,
 * inbound anomaly threshold 5, blocking with 403). Changes from the packaged defaults, each because
 * the benchmark needs it: audit log off (disk), temp and data dirs in the run's folder, and
 * `AllowEncodedSlashes NoDecode` so requests with %2F reach ModSecurity instead of being refused by
 * Apache's core with a 404 before any rule runs.
 */
export interface PeerTuning {
  /** CRS's own WordPress exclusion package (crs-setup.conf rule 900130, commented out by default). */
  wordpressExclusions: boolean;
  /** REST methods allowed (rule 900200; the default allows GET HEAD POST OPTIONS only). */
  restMethods: boolean;
}

/**
 * The event MPM's fixed pool: `processes` children of `threadsPerChild` threads each, all started at
 * once and never reaped (spare-thread bounds cover the whole pool), so a measurement never includes
 * a child being forked. The quality bench keeps 4 × 25; the performance bench sets one child per core.
 */
export interface ApacheWorkers {
  processes: number;
  threadsPerChild: number;
}

/**
 * `tuning` switches on what an administrator of a WordPress site with a JSON API would switch on
 * in crs-setup.conf — nothing else — so the report can show the peer both as packaged and as
 * commonly configured.
 */
export async function startApacheModsecurity(originPort: number, tuning?: PeerTuning, workers: ApacheWorkers = { processes: 4, threadsPerChild: 25 }): Promise<Running> {
  const dir = workDir('rampart-wafq-apache-');
  const port = await freePort();
  for (const sub of ['modsec-tmp', 'modsec-data']) { mkdirSync(join(dir, sub)); chmodSync(join(dir, sub), 0o1777); }
  const recommended = readFileSync('/etc/modsecurity/modsecurity.conf-recommended', 'utf8')
    .replace(/^SecRuleEngine .*$/m, 'SecRuleEngine On')
    .replace(/^SecAuditEngine .*$/m, 'SecAuditEngine Off')
    .replace(/^SecAuditLog .*$/m, `SecAuditLog ${dir}/modsec_audit.log`)
    .replace(/^SecTmpDir .*$/m, `SecTmpDir ${dir}/modsec-tmp/`)
    .replace(/^SecDataDir .*$/m, `SecDataDir ${dir}/modsec-data/`)
    .replace(/^SecUnicodeMapFile unicode\.mapping/m, 'SecUnicodeMapFile /etc/modsecurity/unicode.mapping');
  writeFileSync(join(dir, 'modsecurity.conf'), recommended);
  const tuningRules = [
    tuning?.wordpressExclusions ? 'SecAction "id:900130,phase:1,nolog,pass,t:none,setvar:tx.crs_exclusions_wordpress=1"' : '',
    tuning?.restMethods ? `SecAction "id:900200,phase:1,nolog,pass,t:none,setvar:'tx.allowed_methods=GET HEAD POST OPTIONS PUT PATCH DELETE'"` : '',
  ].filter(Boolean).join('\n');
  // Debian's owasp-crs.load, with the tuning placed after crs-setup.conf and before the rules.
  writeFileSync(join(dir, 'crs.conf'), `Include /etc/modsecurity/crs/crs-setup.conf
${tuningRules}
IncludeOptional /etc/modsecurity/crs/REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf
Include /usr/share/modsecurity-crs/rules/*.conf
IncludeOptional /etc/modsecurity/crs/RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf
`);
  const mod = (name: string, file: string) => `LoadModule ${name} /usr/lib/apache2/modules/${file}`;
  const conf = join(dir, 'apache2.conf');
  const logFile = join(dir, 'error.log');
  writeFileSync(conf, `ServerRoot ${dir}
DefaultRuntimeDir ${dir}
PidFile ${dir}/apache2.pid
Mutex file:${dir} default
${mod('mpm_event_module', 'mod_mpm_event.so')}
${mod('authz_core_module', 'mod_authz_core.so')}
${mod('unique_id_module', 'mod_unique_id.so')}
${mod('proxy_module', 'mod_proxy.so')}
${mod('proxy_http_module', 'mod_proxy_http.so')}
${mod('security2_module', 'mod_security2.so')}
User www-data
Group www-data
ServerName localhost
Listen 127.0.0.1:${port}
ErrorLog ${logFile}
LogLevel warn
KeepAlive On
MaxKeepAliveRequests 0
KeepAliveTimeout 30
ServerLimit ${workers.processes}
StartServers ${workers.processes}
ThreadsPerChild ${workers.threadsPerChild}
ThreadLimit ${Math.max(64, workers.threadsPerChild)}
MaxRequestWorkers ${workers.processes * workers.threadsPerChild}
MinSpareThreads ${workers.threadsPerChild}
MaxSpareThreads ${workers.processes * workers.threadsPerChild}
AllowEncodedSlashes NoDecode
Include ${dir}/modsecurity.conf
Include ${dir}/crs.conf
ProxyRequests Off
ProxyPreserveHost On
ProxyPass / http://127.0.0.1:${originPort}/ keepalive=On nocanon
`);
  const child = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  try {
    await waitForPort(port, child, 'apache2', logFile);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\n${stderr}`);
  }
  return { name: tuning ? 'apache-modsecurity-tuned' : 'apache-modsecurity', port, pid: child.pid!, logFile, stop: stopper(child, dir) };
}

/**
 * The Rampart gateway (apps/gateway), started as its own process from a temporary configuration:
 * one site on a loopback port in front of the origin, the engine in the given block mode. Its block
 * events (JSON lines on stdout) are kept for the report's rule attribution.
 */
export async function startRampartGateway(originPort: number, mode: 'loose' | 'strict', workers = 1): Promise<Running> {
  const dir = workDir('rampart-wafq-gateway-');
  const port = await freePort();
  const conf = join(dir, 'gateway.json');
  writeFileSync(conf, JSON.stringify({
    workers,
    sites: [{ id: 'bench', name: 'bench', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${originPort}` }], block_mode: mode }],
  }));
  const main = join(dirname(fileURLToPath(import.meta.url)), '../../apps/gateway/src/main.ts');
  const logFile = join(dir, 'stderr.log');
  const child = spawn(process.execPath, [main, '--config', conf, '--workers', String(workers)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: string[] = [];
  let partial = '';
  child.stdout?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{"event"')) events.push(line);
  });
  child.stderr?.on('data', (d: Buffer) => appendFileSync(logFile, d));
  await waitForPort(port, child, 'rampart gateway', logFile);
  return { name: `rampart-gateway-${mode}`, port, pid: child.pid!, logFile: null, events, stop: stopper(child, dir) };
}
