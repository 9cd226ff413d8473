import { z } from 'zod';

export const diskUsageSchema = z.object({
  mount: z.string(),
  device: z.string(),
  fstype: z.string(),
  size: z.number().nonnegative(),
  used: z.number().nonnegative(),
  available: z.number().nonnegative(),
});
export type DiskUsage = z.infer<typeof diskUsageSchema>;

export const loadLevels = ['light', 'heavy', 'too_heavy'] as const;
export type LoadLevel = (typeof loadLevels)[number];

/**
 * Load level from the 1-minute load average per core. Choice (the specs give no thresholds):
 * up to 0.7 per core is light, up to 1.0 heavy, above that too heavy.
 */
export function loadLevel(load1: number, cores: number): LoadLevel {
  const perCore = load1 / Math.max(1, cores);
  if (perCore <= 0.7) return 'light';
  if (perCore <= 1) return 'heavy';
  return 'too_heavy';
}

export const kernelStatusSchema = z.object({
  status: z.enum(['normal', 'abnormal']),
  os: z.string(),
  kernel: z.string(),
  /** Why the kernel side cannot enforce; empty when normal. A locale key under `kernel_cause.`. */
  causes: z.array(z.string()),
});
export type KernelStatus = z.infer<typeof kernelStatusSchema>;

export const hostInfoSchema = z.object({
  os: z.string(),
  osType: z.enum(['linux', 'windows', 'other']),
  hostname: z.string(),
  kernel: z.string(),
  arch: z.string(),
  cores: z.number().int().positive(),
  memory: z.object({ total: z.number(), used: z.number(), available: z.number() }),
  load: z.object({ one: z.number(), five: z.number(), fifteen: z.number(), level: z.enum(loadLevels) }),
  disks: z.array(diskUsageSchema),
  uptime: z.number(),
  kernelStatus: kernelStatusSchema,
});
export type HostInfo = z.infer<typeof hostInfoSchema>;

/** Network rates in bits per second, summed over every interface but loopback. */
export const netRatesSchema = z.object({ rx: z.number().nonnegative(), tx: z.number().nonnegative(), at: z.number() });
export type NetRates = z.infer<typeof netRatesSchema>;
