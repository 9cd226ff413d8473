import { z } from 'zod';
import { moduleKeys } from './modules.ts';

/**
 * The event store's shapes. One record for security events and administrative actions alike.
 * A record keeps a stable `kind` and its raw `params`; the words (content and solution) come from
 * the catalogue (event-catalogue.ts) in the reader's language, so one stored row reads in both.
 */
export const eventLevels = ['info', 'warning', 'critical'] as const;
export const eventLevelSchema = z.enum(eventLevels, { message: 'log_level_invalid' });
export type EventLevel = z.infer<typeof eventLevelSchema>;

/** Where an event belongs: a module, or `system` for the panel itself (sign-in, settings, logs). */
export const eventModules = ['system', ...moduleKeys] as const;
export const eventModuleSchema = z.enum(eventModules, { message: 'log_module_invalid' });
export type EventModule = z.infer<typeof eventModuleSchema>;

/**
 * What an event is about, for syslog's "content kinds": attacks and detections (security),
 * what administrators did (operation), and the product's own state (system).
 */
export const eventCategories = ['security', 'operation', 'system'] as const;
export const eventCategorySchema = z.enum(eventCategories);
export type EventCategory = z.infer<typeof eventCategorySchema>;

export const eventKindSchema = z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/).max(64);
export const eventParamsSchema = z
  .record(z.string().regex(/^[a-z_][a-z0-9_]*$/).max(32), z.union([z.string().max(1000), z.number()]))
  .refine((p) => Object.keys(p).length <= 16);
export type EventParams = z.infer<typeof eventParamsSchema>;

/** What a producer hands to the store. `time` defaults to now; `detail` is raw evidence (a log line, a request). */
export const eventInputSchema = z
  .object({
    time: z.number().int().nonnegative().optional(),
    kind: eventKindSchema,
    module: eventModuleSchema,
    level: eventLevelSchema,
    source: z.string().max(32),
    account: z.string().max(64).default(''),
    ip: z.string().max(64).default(''),
    params: eventParamsSchema.default({}),
    detail: z.string().max(4000).default(''),
  })
  .strict();
export type EventInput = z.input<typeof eventInputSchema>;

/** A stored event. `repeats` counts the copies that simple log mode folded into it. */
export const eventRecordSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  kind: z.string(),
  module: z.string(),
  level: z.string(),
  source: z.string(),
  account: z.string(),
  ip: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  detail: z.string(),
  repeats: z.number().int(),
});
export type EventRecord = z.infer<typeof eventRecordSchema>;

/** A filtered, newest-first page. `before` is the id of the last row of the previous page. */
export const eventQuerySchema = z
  .object({
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    module: eventModuleSchema.optional(),
    level: eventLevelSchema.optional(),
    ip: z.string().max(64).optional(),
    /**
     * Keyword: rows whose account, ip, detail or params contain `text`, whose kind is in `kinds`, or
     * whose params contain one of `params` (an administrative action whose words contain the text).
     */
    keyword: z
      .object({ text: z.string().min(1).max(100), kinds: z.array(eventKindSchema).max(500), params: z.array(z.string().min(1).max(120)).max(200).optional() })
      .strict()
      .optional(),
    before: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(1000),
  })
  .strict();
export type EventQuery = z.infer<typeof eventQuerySchema>;

export const eventPageSchema = z.object({ list: z.array(eventRecordSchema), more: z.boolean() });
export type EventPage = z.infer<typeof eventPageSchema>;

export const eventStoreStatsSchema = z.object({ events: z.number().int(), photos: z.number().int(), bytes: z.number().int(), oldest: z.number().int().nullable() });
export type EventStoreStats = z.infer<typeof eventStoreStatsSchema>;
