import { resolveNginxDump, type NginxDirective } from './nginx-config.ts';

export interface NginxListen {
  /** Undefined = every address. */
  address: string | undefined;
  port: number;
  tls: boolean;
  defaultServer: boolean;
}

/** One `server { }` of the http block, as a site the gateway could front. */
export interface NginxSite {
  file: string;
  line: number;
  listen: NginxListen[];
  serverNames: string[];
  root: string | undefined;
  /** proxy_pass targets, upstream names expanded to their servers (`http://127.0.0.1:4000`). */
  proxyPass: string[];
  sslCertificate: string | undefined;
  sslCertificateKey: string | undefined;
}

/** `80`, `127.0.0.1:8080`, `[::1]:443`, `*:80`, `localhost` (port 80); unix sockets are not sites. */
export function parseNginxListen(args: readonly string[]): NginxListen | null {
  const spec = args[0];
  if (!spec || spec.startsWith('unix:')) return null;
  const flags = args.slice(1);
  let address: string | undefined;
  let portText: string;
  if (spec.startsWith('[')) {
    const close = spec.indexOf(']');
    address = spec.slice(1, close);
    portText = spec.slice(close + 2) || '80';
  } else if (/^\d+$/.test(spec)) {
    portText = spec;
  } else {
    const colon = spec.lastIndexOf(':');
    address = colon >= 0 ? spec.slice(0, colon) : spec;
    portText = colon >= 0 ? spec.slice(colon + 1) : '80';
  }
  if (address === '*') address = undefined;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { address, port, tls: flags.includes('ssl'), defaultServer: flags.includes('default_server') || flags.includes('default') };
}

const first = (ds: readonly NginxDirective[], name: string) => ds.find((d) => d.name === name)?.args[0];

function collect(ds: readonly NginxDirective[], name: string): NginxDirective[] {
  return ds.flatMap((d) => [...(d.name === name ? [d] : []), ...(d.block ? collect(d.block, name) : [])]);
}

/** Sites from `nginx -T` output: every server block of the http context. */
export function parseNginxDump(dump: string): NginxSite[] {
  const root = resolveNginxDump(dump);
  const http = root.filter((d) => d.name === 'http').flatMap((d) => d.block ?? []);
  const upstreams = new Map<string, string[]>();
  for (const u of http.filter((d) => d.name === 'upstream')) {
    const servers = (u.block ?? []).filter((d) => d.name === 'server' && d.args[0]).map((d) => d.args[0] as string);
    if (u.args[0]) upstreams.set(u.args[0], servers);
  }
  return http
    .filter((d) => d.name === 'server' && d.block)
    .map((server) => {
      const body = server.block ?? [];
      const legacySsl = first(body, 'ssl') === 'on';
      const listen = body
        .filter((d) => d.name === 'listen')
        .map((d) => parseNginxListen(d.args))
        .filter((l): l is NginxListen => l !== null)
        .map((l) => (legacySsl ? { ...l, tls: true } : l));
      const proxyPass = collect(body, 'proxy_pass').flatMap((d) => {
        const target = d.args[0] ?? '';
        const scheme = target.startsWith('https://') ? 'https://' : 'http://';
        const hostPart = target.slice(scheme.length).split('/')[0] ?? '';
        const servers = upstreams.get(hostPart);
        return servers ? servers.map((s) => scheme + s) : [target];
      });
      return {
        file: server.file,
        line: server.line,
        // nginx's default when a server has no listen: *:80.
        listen: listen.length > 0 ? listen : [{ address: undefined, port: 80, tls: false, defaultServer: false }],
        serverNames: body.filter((d) => d.name === 'server_name').flatMap((d) => d.args).filter((n) => n !== '' && n !== '_'),
        root: first(body, 'root'),
        proxyPass,
        sslCertificate: first(body, 'ssl_certificate'),
        sslCertificateKey: first(body, 'ssl_certificate_key'),
      };
    });
}
