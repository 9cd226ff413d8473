import { z } from 'zod';
import { eventKinds, sshNotes, type FieldName } from '../event.ts';

const oneOrMany = <T extends z.ZodType>(value: T) => z.union([value, z.array(value).min(1)]);
const text = z.string().min(1);

/** Each field a filter may test, with the type its values must have, so `status: "404"` fails at load. */
const filterFields = {
  kind: oneOrMany(z.enum(eventKinds)),
  ip: oneOrMany(text),
  port: oneOrMany(z.int()),
  user: oneOrMany(z.string()),
  invalidUser: z.boolean(),
  authMethod: oneOrMany(text),
  note: oneOrMany(z.enum(sshNotes)),
  repeat: oneOrMany(z.int()),
  method: oneOrMany(text),
  path: oneOrMany(text),
  query: oneOrMany(z.string()),
  protocol: oneOrMany(text),
  status: oneOrMany(z.int().min(100).max(599)),
  bytes: oneOrMany(z.int()),
  referer: oneOrMany(text),
  userAgent: oneOrMany(text),
  host: oneOrMany(text),
} satisfies Record<FieldName, z.ZodType>;

export const fieldNames = Object.keys(filterFields) as [FieldName, ...FieldName[]];
const fieldName = z.enum(fieldNames);

export const scenarioTypes = ['count', 'distinct'] as const;

/**
 * A scenario file. `count`: more than `threshold` matching events from one group within `window`
 * seconds. `distinct`: more than `threshold` different values of the `distinct` field.
 */
export const scenarioSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by "-"'),
    description: z.strictObject({ 'zh-CN': text, 'en-US': text }),
    // Every event kind carries different fields; a filter must say which kind it is about.
    filter: z.strictObject(filterFields).partial().required({ kind: true }),
    group_by: fieldName,
    type: z.enum(scenarioTypes),
    distinct: fieldName.optional(),
    threshold: z.int().min(1).max(1_000_000),
    window: z.int().min(1).max(86_400),
    decision: z.strictObject({
      action: z.literal('block'),
      duration_minutes: z.int().min(1).max(525_600),
      reason: z.string().regex(/^[a-z0-9_]+$/, 'a message key: lower case, digits and "_"'),
    }),
    fixture: text,
  })
  .superRefine((s, ctx) => {
    if (s.type === 'distinct' && s.distinct === undefined) ctx.addIssue({ code: 'custom', path: ['distinct'], message: 'required when type is distinct' });
    if (s.type === 'count' && s.distinct !== undefined) ctx.addIssue({ code: 'custom', path: ['distinct'], message: 'only for type distinct' });
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioFilter = Scenario['filter'];

/** What the administrator's settings may change per scenario at run time. */
export const scenarioOverrideSchema = z.strictObject({
  enabled: z.boolean().optional(),
  threshold: z.int().min(1).max(1_000_000).optional(),
  window: z.int().min(1).max(86_400).optional(),
  duration_minutes: z.int().min(1).max(525_600).optional(),
});
export type ScenarioOverride = z.infer<typeof scenarioOverrideSchema>;

export const scenarioOverridesSchema = z.record(z.string(), scenarioOverrideSchema);
export type ScenarioOverrides = z.infer<typeof scenarioOverridesSchema>;
