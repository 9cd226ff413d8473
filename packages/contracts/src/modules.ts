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
 * Modules whose engine ships in this build: the one list the console's switch route, the home
 * page's "open all basic modules", the web's switches and the audit read. Every other module shows
 * its header, switch (disabled, saying why) and tabs, and says plainly that it is not in this build
 * yet; it cannot be switched on (switching it off stays allowed).
 */
export const modulesInBuild: readonly ModuleKey[] = ['firewall', 'website', 'tamper', 'remote', 'account', 'process', 'trojan', 'cloud'];

export function isModuleInBuild(key: ModuleKey): boolean {
  return modulesInBuild.includes(key);
}

/** Why a switch left a module as it was. */
export const moduleNotSwitchedReasons = ['not_in_build'] as const;
export type ModuleNotSwitchedReason = (typeof moduleNotSwitchedReasons)[number];

/**
 * The data of POST /module_switch: the flags after the call, the modules it switched and the ones
 * it left as they were, each with why ("open all basic modules" opens only those of this build).
 */
export const moduleSwitchResultSchema = z.object({
  modules: moduleFlagsSchema,
  switched: z.array(moduleKeySchema),
  not_switched: z.array(z.object({ module: moduleKeySchema, reason: z.enum(moduleNotSwitchedReasons) })),
});
export type ModuleSwitchResult = z.infer<typeof moduleSwitchResultSchema>;
