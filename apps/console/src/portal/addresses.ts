/* Addresses as the portal gate sees them. */

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is the IPv4 address. */
export function clientAddress(raw: string | undefined): string {
  const ip = raw ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/** This machine: 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return ip === '::1' || /^127\.\d+\.\d+\.\d+$/.test(ip);
}

/** The host name of a Host header (`example.com:8080`, `[::1]:80`), lower case, without the port. */
export function hostName(header: string | undefined): string {
  const host = (header ?? '').trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return (colon >= 0 ? host.slice(0, colon) : host).replace(/\.$/, '');
}

/** A host for a URL: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The panel's address: scheme, host, port (left out when it is the scheme's default) and the entry. */
export function panelAddress(options: { tls: boolean; host: string; port: number; entry: string }): string {
  const defaultPort = options.tls ? 443 : 80;
  const port = options.port === defaultPort ? '' : `:${options.port}`;
  return `${options.tls ? 'https' : 'http'}://${urlHost(options.host)}${port}/${options.entry}`;
}

/** The websocket on that address, which answers only when the new listener runs and lets this session in. */
export function probeAddress(options: { tls: boolean; host: string; port: number }): string {
  return `${options.tls ? 'wss' : 'ws'}://${urlHost(options.host)}:${options.port}/ws`;
}
