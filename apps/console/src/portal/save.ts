import { translate, type MessageKey, type PortalRestart, type PortalSave, type PortalWarningKey } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { transaction } from '../db/database.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { clientAddress, panelAddress, probeAddress } from './addresses.ts';
import { checkPair, readCertificate } from './certificate.ts';
import { firewallBlocksPort } from './firewall-check.ts';
import { canListen } from './port-probe.ts';
import { parseEntries, type PortalRuntime } from './runtime.ts';
import { requestHost } from './view.ts';

type Params = Record<string, string | number>;

export type SaveOutcome =
  | { kind: 'refused'; msg: MessageKey; params?: Params; field?: string }
  | { kind: 'confirm'; warnings: { key: PortalWarningKey; msg: string }[] }
  | { kind: 'saved'; restart: PortalRestart | null; entryChanged: boolean };

interface StoredHttps {
  enabled: boolean;
  cert: string;
  key_sealed: string;
}

/** The HTTPS part checked: a certificate and key that read and belong together; a blank key keeps the stored one. */
function checkHttps(runtime: PortalRuntime, input: PortalSave['https'], stored: StoredHttps): { ok: StoredHttps } | { refused: SaveOutcome & { kind: 'refused' } } {
  const cert = input.cert.trim();
  const key = input.key.trim() || runtime.box.open(stored.key_sealed);
  if (input.enabled && !cert) return { refused: { kind: 'refused', msg: 'portal_cert_required', field: 'https.cert' } };
  if (input.enabled && !key) return { refused: { kind: 'refused', msg: 'portal_key_required', field: 'https.key' } };
  if (cert && !readCertificate(cert)) return { refused: { kind: 'refused', msg: 'portal_cert_invalid', field: 'https.cert' } };
  // Off with a certificate but no key yet is fine (stored for later); otherwise the pair must match.
  if (cert && key) {
    const pair = checkPair(cert, key);
    if (!pair.ok) return { refused: { kind: 'refused', msg: pair.msg, field: pair.field } };
  }
  // No certificate: nothing to keep a key for.
  return { ok: { enabled: input.enabled, cert, key_sealed: cert && key ? runtime.box.seal(key) : '' } };
}

/**
 * Saves the portal form. Order: input the schema cannot judge (a port in use, the certificate and
 * key) refuses; then the risks — unless `confirm` — come back as warnings with nothing saved; then
 * everything is written in one transaction and the gate takes it at once. A change of port, domain,
 * HTTPS or entry answers where the panel moves to; the listener moves after that answer.
 */
export async function savePortal(ctx: ConsoleContext, runtime: PortalRuntime, request: FastifyRequest, input: PortalSave): Promise<SaveOutcome> {
  const db = ctx.db;
  const before = {
    port: runtime.currentPort(),
    entry: getSetting(db, 'panel_safe_entry'),
    domain: getSetting(db, 'panel_domain'),
    https: getSetting(db, 'panel_https'),
    authorized: getSetting(db, 'panel_authorized'),
  };
  const portChanged = input.port !== before.port;
  if (portChanged && !(await canListen(runtime.currentHost(), input.port))) {
    return { kind: 'refused', msg: 'portal_port_in_use', params: { port: input.port }, field: 'port' };
  }
  const https = checkHttps(runtime, input.https, before.https);
  if ('refused' in https) return https.refused;

  if (!input.confirm) {
    const warnings: { key: PortalWarningKey; params?: Params }[] = [];
    const host = requestHost(request, runtime);
    if (before.domain && !input.domain) warnings.push({ key: 'portal_warn_domain_unbind' });
    if (input.domain && input.domain !== before.domain && input.domain !== host) warnings.push({ key: 'portal_warn_domain_bind', params: { domain: input.domain } });
    if (before.entry && !input.safe_entry) warnings.push({ key: 'portal_warn_entry_cancel' });
    if (portChanged && (await firewallBlocksPort(ctx.agent, input.port))) warnings.push({ key: 'portal_warn_port_firewall', params: { port: input.port } });
    const list = input.authorized;
    const listChanged = JSON.stringify(list) !== JSON.stringify(before.authorized);
    if (list.enabled && listChanged) {
      if (list.ips.length === 0 && list.areas.length === 0) warnings.push({ key: 'portal_warn_authorized_empty' });
      // The administrator saving the list must still get in afterwards, or say so twice.
      const ip = clientAddress(request.ip);
      if (!(await runtime.passes(ip, { enabled: true, entries: parseEntries(list.ips), areas: list.areas }))) {
        warnings.push({ key: 'portal_warn_own_ip', params: { ip } });
      }
    }
    if (warnings.length > 0) {
      return { kind: 'confirm', warnings: warnings.map((w) => ({ key: w.key, msg: translate(request.lang, w.key, w.params) })) };
    }
  }

  const httpsChanged = https.ok.enabled !== before.https.enabled
    || (https.ok.enabled && (https.ok.cert !== before.https.cert || runtime.box.open(https.ok.key_sealed) !== runtime.box.open(before.https.key_sealed)));
  transaction(db, () => {
    // The port is stored only once it differs from where the panel runs: RAMPART_PORT keeps applying until then.
    if (portChanged || getSetting(db, 'panel_port') !== null) setSetting(db, 'panel_port', input.port);
    setSetting(db, 'panel_safe_entry', input.safe_entry);
    setSetting(db, 'panel_domain', input.domain);
    setSetting(db, 'panel_https', https.ok);
    setSetting(db, 'panel_authorized', input.authorized);
    setSetting(db, 'panel_login_notice', input.login_notice);
    setSetting(db, 'login_check_mode', input.login_check_mode);
    setSetting(db, 'login_error_count', input.login_error_count);
    setSetting(db, 'session_timeout', input.session_timeout);
  });
  runtime.reloadGate();

  const entryChanged = input.safe_entry !== before.entry;
  const moves = portChanged || httpsChanged || input.domain !== before.domain || entryChanged;
  if (!moves) return { kind: 'saved', restart: null, entryChanged };
  const target = { tls: https.ok.enabled, host: input.domain || requestHost(request, runtime), port: input.port };
  return { kind: 'saved', restart: { target: panelAddress({ ...target, entry: input.safe_entry }), probe: probeAddress(target) }, entryChanged };
}
