import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { sameText } from '../security/secret-box.ts';
import { clientAddress, hostName } from './addresses.ts';
import { portalRuntime, type PortalOptions, type PortalRuntime } from './runtime.ts';
import { presentedToken } from '../http/access-hook.ts';
import { liveTerminal } from '../services/trust-terminals.ts';

export const entryCookie = 'rampart_entry';

/**
 * A plain web server's "not found", with nothing of the panel in it: no envelope, no security
 * headers of the console, no cookie. Everything the gate turns away gets exactly this.
 */
const bareBody = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n</body>\r\n</html>\r\n';

function bare404(reply: FastifyReply): FastifyReply {
  reply.hijack();
  reply.raw.writeHead(404, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(bareBody) });
  reply.raw.end(bareBody);
  return reply;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie that lets this browser past the entry (host-wide: cookies ignore ports, so a port change keeps it). */
export function entryCookieHeader(runtime: PortalRuntime, secure: boolean): string {
  return `${entryCookie}=${runtime.gate.entryToken}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * A live trust terminal's own calls pass the authorized-IP check: the terminal exists for the moment
 * its address changes (a new DHCP lease, another office), and its next beat, from the new address,
 * is what moves the trust there. Its token was earned by a full sign-in from an admitted address and
 * can do nothing but hold an address (routes/terminal.ts); the entry and the bound domain still apply.
 */
function terminalCall(ctx: ConsoleContext, request: FastifyRequest): boolean {
  return (request.url.split('?')[0] ?? '').startsWith('/magapi/terminal/') && liveTerminal(ctx, presentedToken(request)) !== null;
}

async function admit(ctx: ConsoleContext, runtime: PortalRuntime, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const gate = runtime.gate;
  // Authorized IPs or areas (loopback and the super whitelist pass inside `passes`).
  if (gate.authorized.enabled && !terminalCall(ctx, request) && !(await runtime.passes(clientAddress(request.ip), gate.authorized))) return bare404(reply);
  // The bound domain: a Host header naming anything else is a stranger probing by address.
  if (gate.domain && hostName(request.headers.host) !== gate.domain) return bare404(reply);
  if (!gate.entry) return undefined;
  const path = request.url.split('?')[0];
  if (path === `/${gate.entry}` || path === `/${gate.entry}/`) {
    reply.hijack();
    reply.raw.writeHead(302, { location: '/', 'set-cookie': entryCookieHeader(runtime, request.protocol === 'https'), 'content-length': 0 });
    reply.raw.end();
    return reply;
  }
  // Shortcut links carry their own credential (an unguessable token) and are opened from a
  // message, not from a browser that visited the entry: the entry does not hide them.
  if (path?.startsWith('/shortcut/')) return undefined;
  const presented = cookieValue(request.headers.cookie, entryCookie);
  if (presented && sameText(presented, gate.entryToken)) return undefined;
  return bare404(reply);
}

/**
 * The portal's gate, in front of everything the console serves (web app, /magapi, /ws, /help).
 * Choices:
 * - Refused requests get a bare 404, not a 403: a 403 would tell a scanner there is something here.
 * - Loopback passes only the authorized-IP check (spec, section 6), not the safe entry or the bound
 *   domain: a reverse proxy on this machine makes every visitor look like loopback, and exempting it
 *   would open the panel to the whole internet through that proxy. Local scripts visit the entry
 *   once (or send the cookie) like a browser does.
 */
export function installPortalGate(app: FastifyInstance, ctx: ConsoleContext, options?: PortalOptions): PortalRuntime {
  const runtime = portalRuntime(ctx, options);
  app.addHook('onRequest', async (request, reply) => admit(ctx, runtime, request, reply));
  return runtime;
}
