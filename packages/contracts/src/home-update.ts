import { z } from 'zod';
import { kernelStatusSchema } from './host.ts';
import { cloudPublicKeySchema } from './cloud.ts';
import { cloudUrlSchema } from './cloud-api.ts';
import { noQuerySchema } from './api.ts';

/*
 * The home page's update calls (issue 24): the "driver update" (POST /home/update_kernel), the
 * cloud library update (POST /home/update_virlib) and the Rampart release check and download
 * (GET / POST /home/update). Each answer says per part what happened; refusals are message keys.
 */

/* POST /home/update_kernel */

/** What happened to the guard helper's build: rebuilt because an input changed, already current, no build step beside the binary, or the build failed (the old binary kept). */
export const guardBuildOutcomes = ['rebuilt', 'up_to_date', 'no_build_step', 'failed'] as const;
/** What happened to the helper: restarted by the agent, run by another supervisor (systemd: not restarted here), or not started (not root, binary missing). */
export const guardRestartOutcomes = ['restarted', 'external', 'not_started'] as const;

export const kernelUpdateResultSchema = z.object({
  /** A message key when nothing was done (`update_kernel_busy`). */
  refused: z.string().nullable(),
  build: z.enum(guardBuildOutcomes),
  /** The build's error output (last lines), when it failed. */
  build_error: z.string(),
  helper: z.enum(guardRestartOutcomes),
  /** The guard plan's generation after the rules were applied again. */
  generation: z.number().int(),
  /** The kernel status as the dashboard reads it, after the update. */
  status: kernelStatusSchema,
});
export type KernelUpdateResult = z.infer<typeof kernelUpdateResultSchema>;

/* POST /home/update_virlib */

export const virlibComponentStates = ['updated', 'unchanged', 'failed'] as const;
/** One part of the cloud library: a URL feed, the built-in web-shell rule set, the custom library. */
export const virlibComponentSchema = z.object({
  kind: z.enum(['feed', 'webshell_rules', 'custom_library']),
  /** The feed's name; empty for the rule sets (the page names them). */
  name: z.string(),
  state: z.enum(virlibComponentStates),
  old_version: z.string(),
  new_version: z.string(),
  /** A message key and its detail when failed. */
  reason: z.string(),
  detail: z.string(),
});
export type VirlibComponent = z.infer<typeof virlibComponentSchema>;

export const virlibUpdateResultSchema = z.object({
  refused: z.string().nullable(),
  components: z.array(virlibComponentSchema),
  /** The cloud library version the dashboard shows, after the update. */
  virlib_version: z.string().nullable(),
});
export type VirlibUpdateResult = z.infer<typeof virlibUpdateResultSchema>;

/* GET / POST /home/update: Rampart releases */

export const releaseFormat = 'rampart-release/1';
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** Dotted numeric versions (1.2.3); compared part by part. */
export const releaseVersionSchema = z.string().regex(/^\d{1,6}(\.\d{1,6}){0,3}$/);
/** The package's file name: no directory, nothing a path could climb with. */
export const releaseFileNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/).refine((name) => !name.includes('..'));

export const releaseManifestSchema = z.object({
  product: z.literal('rampart'),
  version: releaseVersionSchema,
  date: z.string().max(40).refine((text) => !Number.isNaN(Date.parse(text))),
  notes: z.object({ 'zh-CN': z.string().max(20_000), 'en-US': z.string().max(20_000) }).strict(),
  file: releaseFileNameSchema,
  size: z.number().int().positive().max(4 * 1024 ** 3),
  sha256: sha256Hex,
}).strict();
export type ReleaseManifest = z.infer<typeof releaseManifestSchema>;

/** What the vendor publishes: the manifest and ed25519 over `canonicalJson(manifest)` (as cloud feeds are signed). */
export const signedReleaseSchema = z.object({
  format: z.literal(releaseFormat),
  manifest: releaseManifestSchema,
  signature: z.object({ alg: z.literal('ed25519'), key_id: z.string().regex(/^[0-9a-f]{16}$/), value: z.string().max(200) }).strict(),
}).strict();
export type SignedRelease = z.infer<typeof signedReleaseSchema>;

/** -1, 0 or 1 as `a` is older, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export const releaseCheckStates = ['not_checked', 'no_key', 'available', 'up_to_date', 'offline', 'refused'] as const;
export const releaseDownloadStates = ['idle', 'downloading', 'staged', 'failed'] as const;

export const releaseViewSchema = z.object({
  current: z.string(),
  /** Where releases are looked for: the configured URL, else the licence authority's. */
  url: z.string(),
  url_configured: z.boolean(),
  /** The pinned vendor key's id, or null: none is shipped, the administrator pins it. */
  key_id: z.string().nullable(),
  check: z.object({
    state: z.enum(releaseCheckStates),
    checked_at: z.number().int().nullable(),
    /** The newest release the source offers (verified), when there is one. */
    latest: releaseManifestSchema.nullable(),
    /** A message key and its detail when offline or refused. */
    reason: z.string(),
    detail: z.string(),
  }),
  download: z.object({
    state: z.enum(releaseDownloadStates),
    version: z.string(),
    bytes: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** Where the verified package lies, once staged. */
    staged_path: z.string(),
    reason: z.string(),
    detail: z.string(),
  }),
  /** False in this build: a staged release is not installed automatically. */
  can_install: z.boolean(),
});
export type ReleaseView = z.infer<typeof releaseViewSchema>;

/** Empty: the licence authority's; else an http(s) URL, checked as a cloud feed's URL is. */
const releaseUrlSchema = z.string().trim().max(2000, 'release_url_invalid').refine((text) => text === '' || cloudUrlSchema.safeParse(text).success, 'release_url_invalid');

/** GET /home/update: `check=1` asks the source now; without it, the state as it stands (the page polls this during a download). */
export const releaseQuerySchema = noQuerySchema.extend({ check: z.enum(['0', '1'], { message: 'bad_request' }).optional() }).strict();

/** POST /home/update: download (and verify, and stage) the available release, or set where releases come from and the vendor key. */
export const releaseBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('download') }).strict(),
  z.object({ action: z.literal('settings'), url: releaseUrlSchema, public_key: z.union([z.literal(''), cloudPublicKeySchema]) }).strict(),
], { message: 'bad_request' });
export type ReleaseBody = z.infer<typeof releaseBodySchema>;

const none = z.object({}).strict();
/** The licence authority's release address, used when no URL is configured (the console knows it). */
const authority = z.object({ authority_url: z.string().max(2000) }).strict();

export const homeUpdateAgentParams = {
  'home.update_kernel': none,
  'home.update_virlib': none,
  'release.status': authority,
  'release.check': authority,
  'release.download': authority,
  'release.settings': z.object({ url: releaseUrlSchema, public_key: z.union([z.literal(''), cloudPublicKeySchema]), authority_url: z.string().max(2000) }).strict(),
} as const;

/** A release call's answer: the view, and a message key when the call was refused (nothing changed). */
export const releaseAnswerSchema = z.object({ refused: z.string().nullable(), detail: z.string(), view: releaseViewSchema });
export type ReleaseAnswer = z.infer<typeof releaseAnswerSchema>;

export const homeUpdateAgentResults = {
  'home.update_kernel': kernelUpdateResultSchema,
  'home.update_virlib': virlibUpdateResultSchema,
  'release.status': releaseAnswerSchema,
  'release.check': releaseAnswerSchema,
  'release.download': releaseAnswerSchema,
  'release.settings': releaseAnswerSchema,
} as const;

/**
 * The dashboard's "cloud library version": the web-shell rule set's version, then each enabled
 * threat-intel feed's name and version ("2026.11.1 · Lab feed v2"). Null when none of them is known.
 */
export function virlibVersionOf(ruleSetVersion: string | null | undefined, feeds: readonly { name: string; version: number; enabled: boolean }[]): string | null {
  const parts = [...(ruleSetVersion ? [ruleSetVersion] : []), ...feeds.filter((feed) => feed.enabled).map((feed) => `${feed.name} v${feed.version}`)];
  return parts.length ? parts.join(' · ') : null;
}
