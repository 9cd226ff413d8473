import type { PortalView } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { getSetting } from '../db/settings.ts';
import { clientAddress, hostName, panelAddress } from './addresses.ts';
import { certificateInfo, readCertificate } from './certificate.ts';
import type { PortalRuntime } from './runtime.ts';

/** The host the caller reached the panel by (Host header), else the listener's address. */
export function requestHost(request: FastifyRequest, runtime: PortalRuntime): string {
  const host = hostName(request.headers.host);
  return host ? host.replace(/^\[|\]$/g, '') : runtime.currentHost();
}

/** The portal settings as the form shows them; the key stays on the server. */
export function portalView(ctx: ConsoleContext, runtime: PortalRuntime, request: FastifyRequest): PortalView {
  const db = ctx.db;
  const https = getSetting(db, 'panel_https');
  const cert = https.cert ? readCertificate(https.cert) : null;
  const entry = getSetting(db, 'panel_safe_entry');
  const domain = getSetting(db, 'panel_domain');
  const port = runtime.currentPort();
  return {
    port,
    safe_entry: entry,
    domain,
    https: { enabled: https.enabled, cert: https.cert, has_key: https.key_sealed !== '', info: cert ? certificateInfo(cert) : null },
    authorized: getSetting(db, 'panel_authorized') as PortalView['authorized'],
    login_notice: getSetting(db, 'panel_login_notice'),
    login_check_mode: getSetting(db, 'login_check_mode'),
    login_error_count: getSetting(db, 'login_error_count'),
    session_timeout: getSetting(db, 'session_timeout'),
    address: panelAddress({ tls: runtime.listening?.tls ?? https.enabled, host: domain || requestHost(request, runtime), port, entry }),
    client_ip: clientAddress(request.ip),
  };
}
