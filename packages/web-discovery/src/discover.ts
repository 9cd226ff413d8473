import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { apacheDocumentRoot } from './apache-document-root.ts';
import { parseApacheVhosts } from './apache-vhosts.ts';
import { parseNginxDump } from './nginx-dump.ts';

/** A local website the gateway offers to protect. */
export interface CandidateSite {
  server: 'nginx' | 'apache';
  /** The first server name, or address:port when it has none. */
  name: string;
  serverNames: string[];
  /** Where the web server listens today (the gateway would take this, the origin moves behind it). */
  listen: { address: string | undefined; port: number; tls: boolean }[];
  /** Where it is configured: file and line. */
  file: string;
  line: number;
  root?: string;
  /** The site's own upstreams when it is itself a proxy. */
  proxyPass?: string[];
  sslCertificate?: string;
}

export function nginxCandidates(dump: string): CandidateSite[] {
  return parseNginxDump(dump).map((s) => ({
    server: 'nginx',
    name: s.serverNames[0] ?? `${s.listen[0]?.address ?? '*'}:${s.listen[0]?.port ?? 80}`,
    serverNames: s.serverNames,
    listen: s.listen.map(({ address, port, tls }) => ({ address, port, tls })),
    file: s.file,
    line: s.line,
    ...(s.root ? { root: s.root } : {}),
    ...(s.proxyPass.length > 0 ? { proxyPass: s.proxyPass } : {}),
    ...(s.sslCertificate ? { sslCertificate: s.sslCertificate } : {}),
  }));
}

/** apachectl -S does not say which ports are TLS; 443 is assumed TLS (the operator confirms). */
export function apacheCandidates(output: string): CandidateSite[] {
  return parseApacheVhosts(output).map((v) => ({
    server: 'apache',
    name: v.serverName,
    serverNames: [v.serverName, ...v.aliases],
    listen: [{ address: v.address, port: v.port, tls: v.port === 443 }],
    file: v.file,
    line: v.line,
  }));
}

/** Runs a command and returns its combined output, or null when it is missing or fails. */
export function runForOutput(command: string, args: readonly string[], timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      // `nginx -T` prints the dump to stdout and its verdict to stderr; apachectl -S prints to stdout.
      if (err && !stdout) return resolve(null);
      resolve(`${stdout}\n${stderr}`);
    });
  });
}

/**
 * Finds the local nginx and Apache sites. Either server may be absent; both are asked through
 * their own tools, so includes, variables and defaults are as the servers themselves see them.
 */
export async function discoverLocalSites(
  options: { nginx?: { command: string; args: string[] }; apache?: { command: string; args: string[] } } = {},
): Promise<CandidateSite[]> {
  const nginx = options.nginx ?? { command: 'nginx', args: ['-T'] };
  const apache = options.apache ?? { command: 'apache2ctl', args: ['-S'] };
  const [nginxOut, apacheOut] = await Promise.all([runForOutput(nginx.command, nginx.args), runForOutput(apache.command, apache.args)]);
  const apacheSites = apacheOut ? apacheCandidates(apacheOut) : [];
  await Promise.all(apacheSites.map(async (site) => {
    const text = await readFile(site.file, 'utf8').catch(() => null);
    const root = text === null ? null : apacheDocumentRoot(text, site.line);
    if (root) site.root = root;
  }));
  return [...(nginxOut ? nginxCandidates(nginxOut) : []), ...apacheSites];
}
