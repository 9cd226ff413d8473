import { z } from 'zod';

/** Modules that carry an ON/OFF switch in their page header. */
export const moduleKeys = ['firewall', 'trojan', 'remote', 'account', 'tamper', 'process', 'website', 'cloud'] as const;
export const moduleKeySchema = z.enum(moduleKeys);
export type ModuleKey = z.infer<typeof moduleKeySchema>;

/** The "basic" modules that the home page opens or closes in one click (host-level guards). */
export const basicModules: readonly ModuleKey[] = ['firewall', 'trojan', 'remote', 'account', 'tamper', 'process'];

/** Module flags: a map of module key to 0/1, as the global info returns it. */
export const moduleFlagsSchema = z.record(moduleKeySchema, z.union([z.literal(0), z.literal(1)]));
export type ModuleFlags = Record<ModuleKey, 0 | 1>;

export function defaultModuleFlags(): ModuleFlags {
  return Object.fromEntries(moduleKeys.map((k) => [k, 0])) as ModuleFlags;
}

/**
 * Modules whose engine ships in this build. Every other module shows its header, switch and tabs
 * and says plainly that it is not in this build yet.
 */
export const modulesInBuild: readonly ModuleKey[] = ['firewall', 'tamper', 'remote', 'account', 'process'];
