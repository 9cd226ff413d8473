export interface ApacheVhost {
  /** Undefined = every address (`*`). */
  address: string | undefined;
  port: number;
  serverName: string;
  aliases: string[];
  file: string;
  line: number;
  /** The default server of a name-based address. */
  isDefault: boolean;
}

/** `(/etc/apache2/sites-enabled/x.conf:12)` at the end of a line → file and line. */
function location(text: string): { file: string; line: number; before: string } | null {
  const open = text.lastIndexOf('(');
  if (open < 0 || !text.endsWith(')')) return null;
  const inner = text.slice(open + 1, -1);
  const colon = inner.lastIndexOf(':');
  const line = Number(inner.slice(colon + 1));
  if (colon < 0 || !Number.isInteger(line)) return null;
  return { file: inner.slice(0, colon), line, before: text.slice(0, open).trim() };
}

function splitAddress(spec: string): { address: string | undefined; port: number } | null {
  const colon = spec.lastIndexOf(':');
  if (colon < 0) return null;
  let address = spec.slice(0, colon);
  const port = Number(spec.slice(colon + 1));
  if (!Number.isInteger(port)) return null;
  if (address.startsWith('[')) address = address.slice(1, -1);
  return { address: address === '*' || address === '_default_' ? undefined : address, port };
}

/**
 * Virtual hosts from `apachectl -S` (section "VirtualHost configuration:"). Its shapes:
 *   `127.0.0.1:8082   is a NameVirtualHost` then indented `default server N (f:l)`,
 *   `port P namevhost N (f:l)` and `alias A` lines; or one line `*:8444   N (f:l)`.
 */
export function parseApacheVhosts(output: string): ApacheVhost[] {
  const out: ApacheVhost[] = [];
  let inSection = false;
  let group: { address: string | undefined; port: number } | null = null;
  let defaultOf: string | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    if (line.startsWith('VirtualHost configuration:')) {
      inSection = true;
      continue;
    }
    if (!inSection || line === '') continue;
    const indented = line.startsWith(' ') || line.startsWith('\t');
    const text = line.trim();
    if (!indented) {
      const [spec = '', ...rest] = text.split(/\s+/);
      const addr = splitAddress(spec);
      if (!addr) {
        inSection = false; // "ServerRoot: …": the section is over
        continue;
      }
      if (rest.join(' ') === 'is a NameVirtualHost') {
        group = addr;
        defaultOf = undefined;
        continue;
      }
      group = null;
      const loc = location(text.slice(spec.length).trim());
      if (loc) out.push({ ...addr, serverName: loc.before, aliases: [], file: loc.file, line: loc.line, isDefault: true });
      continue;
    }
    if (text.startsWith('alias ')) {
      out.at(-1)?.aliases.push(text.slice('alias '.length).trim());
      continue;
    }
    const loc = location(text);
    if (!loc || !group) continue;
    if (loc.before.startsWith('default server ')) {
      defaultOf = `${loc.file}:${loc.line}`;
      continue;
    }
    const words = loc.before.split(/\s+/);
    if (words[0] === 'port' && words[2] === 'namevhost' && words[3]) {
      out.push({
        address: group.address,
        port: Number(words[1]),
        serverName: words[3],
        aliases: [],
        file: loc.file,
        line: loc.line,
        isDefault: defaultOf === `${loc.file}:${loc.line}`,
      });
    }
  }
  return out;
}
