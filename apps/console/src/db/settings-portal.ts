import { z } from 'zod';

/**
 * Console settings of the portal tab (same shape as settingDefs in settings.ts, which merges them).
 * The login policy (check mode, error count, session timeout) lives in settings.ts; the portal
 * form edits those too.
 */
export const portalSettingDefs = {
  /**
   * The panel port once an administrator has saved one; null: never saved, RAMPART_PORT (or 6688)
   * applies. Choice: a saved port wins over RAMPART_PORT, so a restart keeps the panel where the
   * administrator moved it (README, "Choices written down").
   */
  panel_port: { schema: z.number().int().min(1024).max(65535).nullable(), default: null as number | null },
  /** The safe entry's name (`/name`), '' for none. */
  panel_safe_entry: { schema: z.string().max(32), default: '' as string },
  /** The one host name the panel answers to, '' for any. */
  panel_domain: { schema: z.string().max(253), default: '' as string },
  /** HTTPS: the certificate (PEM, public) and its key, sealed (see security/secret-box.ts). */
  panel_https: {
    schema: z.object({ enabled: z.boolean(), cert: z.string(), key_sealed: z.string() }),
    default: { enabled: false, cert: '', key_sealed: '' } as { enabled: boolean; cert: string; key_sealed: string },
  },
  /** Authorized IPs or areas; loopback and the super whitelist always pass. */
  panel_authorized: {
    schema: z.object({ enabled: z.boolean(), ips: z.array(z.string()), areas: z.array(z.string()) }),
    default: { enabled: false, ips: [], areas: [] } as { enabled: boolean; ips: string[]; areas: string[] },
  },
  /** A notice for every successful panel sign-in. */
  panel_login_notice: { schema: z.boolean(), default: false as boolean },
} as const;
