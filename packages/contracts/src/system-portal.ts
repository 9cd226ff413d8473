import { z } from 'zod';
import { areaCodeSchema } from './areas.ts';
import { parseAddressEntry } from './ip-address.ts';
import { secretField } from './panel-actions.ts';
import { isHostOrIp } from './validators.ts';

// Schemas of the portal tab: panel listener, HTTPS, authorized IPs, login policy (GET, POST /system/portal).

/**
 * Ports below 1024 need root or CAP_NET_BIND_SERVICE; the console runs as the unprivileged
 * `rampart` user and could never bind them, so they are refused up front with their own message.
 */
export const portalPortSchema = z
  .number({ message: 'portal_port_invalid' })
  .int('portal_port_invalid')
  .max(65535, 'portal_port_invalid')
  .refine((port) => port >= 1, 'portal_port_invalid')
  .refine((port) => port >= 1024, 'portal_port_privileged');

/**
 * Paths the console itself serves; an entry with one of these names would hide the API, the
 * websocket, the manual or the app's assets behind the entry page.
 */
export const reservedEntryNames = ['magapi', 'ws', 'help', 'assets', 'index.html', 'favicon.ico', 'favicon.svg', 'robots.txt'] as const;

/** Letters, digits, `_` and `-`, 6 to 32 of them: short entries are guessed by scanners. */
export const safeEntryPattern = /^[A-Za-z0-9_-]{6,32}$/;

/** The safe entry is as good as a password to whoever reads the log: the log says only that it changed. */
export const safeEntrySchema = secretField(z
  .string({ message: 'portal_entry_invalid' })
  .trim()
  // A leading slash is what people type ("/abc123"); the stored entry is the name alone.
  .transform((value) => value.replace(/^\/+/, '').replace(/\/+$/, ''))
  .refine((value) => value === '' || safeEntryPattern.test(value), 'portal_entry_invalid')
  .refine((value) => !(reservedEntryNames as readonly string[]).includes(value.toLowerCase()), 'portal_entry_reserved'));

/** A DNS name; an IP address is not a "domain" to bind (the listener's address already is one). */
export const boundDomainSchema = z
  .string({ message: 'portal_domain_invalid' })
  .trim()
  .toLowerCase()
  .max(253, 'portal_domain_invalid')
  .refine((value) => value === '' || (value.includes('.') && isHostOrIp(value) && !/^[\d.]+$/.test(value) && !value.includes(':')), 'portal_domain_invalid');

/** PEM text as pasted or read from an uploaded file; 64 KiB holds a long chain. */
const pemText = z.string({ message: 'portal_pem_too_long' }).max(64 * 1024, 'portal_pem_too_long');

export const portalHttpsInputSchema = z
  .object({
    enabled: z.boolean({ message: 'bad_request' }),
    /** The certificate, with its chain after it; empty with HTTPS off clears it. */
    cert: pemText,
    /** The private key; empty keeps the stored one (it is never sent back). */
    key: pemText,
  })
  .strict();

/** At most this many authorized addresses and areas. */
export const maxAuthorizedIps = 1000;
export const maxAuthorizedAreas = 300;

export const authorizedIpEntrySchema = z
  .string({ message: 'portal_ip_invalid' })
  .trim()
  .max(100, 'portal_ip_invalid')
  .refine((value) => parseAddressEntry(value) !== null, 'portal_ip_invalid');

export const portalAuthorizedSchema = z
  .object({
    enabled: z.boolean({ message: 'bad_request' }),
    /** IPv4 / IPv6, single, CIDR, range or `*`, one per entry. */
    ips: z.array(authorizedIpEntrySchema).max(maxAuthorizedIps, 'portal_too_many_ips'),
    /** Country and Chinese province codes (`/resource/area`). */
    areas: z.array(areaCodeSchema).max(maxAuthorizedAreas, 'portal_too_many_areas'),
  })
  .strict();
export type PortalAuthorized = z.infer<typeof portalAuthorizedSchema>;

export const loginCheckModes = ['off', 'loose', 'strict'] as const;

/** The login policy fields live in the console's general settings; the portal form edits them. */
export const portalLoginSchema = {
  login_notice: z.boolean({ message: 'bad_request' }),
  login_check_mode: z.enum(loginCheckModes, { message: 'portal_check_mode_invalid' }),
  /** Failed sign-ins per IP per day before lock-out; 0 = no limit. */
  login_error_count: z.number({ message: 'portal_error_count_invalid' }).int('portal_error_count_invalid').min(0, 'portal_error_count_invalid').max(1000, 'portal_error_count_invalid'),
  /** Minutes; 0 = sessions never expire. */
  session_timeout: z.number({ message: 'portal_timeout_invalid' }).int('portal_timeout_invalid').min(0, 'portal_timeout_invalid').max(525600, 'portal_timeout_invalid'),
};

export const portalSaveSchema = z
  .object({
    port: portalPortSchema,
    safe_entry: safeEntrySchema,
    domain: boundDomainSchema,
    https: portalHttpsInputSchema,
    authorized: portalAuthorizedSchema,
    ...portalLoginSchema,
    /**
     * The second "yes": a save that could cut the administrator off (unbinding the domain,
     * cancelling the entry, a port the firewall blocks, an empty or foreign authorized list)
     * answers with its warnings and changes nothing until it is sent again with confirm: true.
     */
    confirm: z.boolean({ message: 'bad_request' }).default(false),
  })
  .strict();
export type PortalSaveInput = z.input<typeof portalSaveSchema>;
export type PortalSave = z.output<typeof portalSaveSchema>;

/** What the certificate says about itself. */
export const certificateInfoSchema = z.object({
  issuer: z.string(),
  subject: z.string(),
  /** Names the certificate covers: the subject's CN and the SAN DNS names and addresses. */
  domains: z.array(z.string()),
  not_before: z.number().int(),
  not_after: z.number().int(),
});
export type CertificateInfo = z.infer<typeof certificateInfoSchema>;

export const portalViewSchema = z.object({
  port: z.number().int(),
  safe_entry: z.string(),
  domain: z.string(),
  https: z.object({
    enabled: z.boolean(),
    cert: z.string(),
    /** A key is stored (it never leaves the server). */
    has_key: z.boolean(),
    info: certificateInfoSchema.nullable(),
  }),
  authorized: portalAuthorizedSchema,
  login_notice: z.boolean(),
  login_check_mode: z.enum(loginCheckModes),
  login_error_count: z.number().int(),
  session_timeout: z.number().int(),
  /** The panel's address as it stands (scheme, host, port, entry). */
  address: z.string(),
  /** The address of the caller, as the authorized-IP check sees it. */
  client_ip: z.string(),
});
export type PortalView = z.infer<typeof portalViewSchema>;

export const portalWarningKeys = [
  'portal_warn_domain_unbind',
  'portal_warn_domain_bind',
  'portal_warn_entry_cancel',
  'portal_warn_port_firewall',
  'portal_warn_authorized_empty',
  'portal_warn_own_ip',
] as const;
export type PortalWarningKey = (typeof portalWarningKeys)[number];

/** The panel moves: where to go, and the websocket address that says it is up there. */
export const portalRestartSchema = z.object({
  target: z.string(),
  probe: z.string(),
});
export type PortalRestart = z.infer<typeof portalRestartSchema>;

export const portalSaveResultSchema = z.object({
  saved: z.boolean(),
  /** Unsaved: what must be confirmed, as localized lines. */
  warnings: z.array(z.object({ key: z.enum(portalWarningKeys), msg: z.string() })),
  /** Saved with a change of port, domain, HTTPS or entry: the listener restarts after this answer. */
  restart: portalRestartSchema.nullable(),
  view: portalViewSchema.nullable(),
});
export type PortalSaveResult = z.infer<typeof portalSaveResultSchema>;

/** Polling the new address after a restart: 20 tries, 1 s apart (spec, section 9). */
export const restartPollTries = 20;
export const restartPollIntervalMs = 1000;
