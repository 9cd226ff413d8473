import { z } from 'zod';
import { reinforceEffectSchema } from './audit.ts';
import { auditResultRowSchema, auditRunSchema } from './audit-api.ts';
import { languageSchema } from './i18n.ts';
import { positiveIntParam, stampParam } from './query-params.ts';

/*
 * The exported report of a finished security audit (issue 23): one document, in the reader's
 * language, that the console builds from the agent's audit calls and renders as JSON (this shape),
 * a self-contained HTML page or a PDF. Machine values (level, outcome, category, evidence) stay
 * as they are; texts meant for a person (titles, advice, section names) are in `language`.
 * Sections are data so more audit tabs (users, processes, patches) can add theirs: a `findings`
 * section lists checks with advice and evidence, a `table` section any rows under named columns.
 */

/** Raised when the document's shape changes in a way a reader of the JSON must know about. */
export const auditReportVersion = 1;

/** A check's result with its texts in the report's language. */
export const auditReportFindingSchema = auditResultRowSchema.extend({
  /** Its fix is applied now (in the reinforcement journal): fixed since the run found it. */
  fixed: z.boolean(),
  title: z.string(),
  advice: z.string(),
});
export type AuditReportFinding = z.infer<typeof auditReportFindingSchema>;

const sectionHead = {
  /** Stable id (`failed`, `reinforced`, ...), also the HTML anchor. */
  id: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  title: z.string(),
  /** What the section says when it has nothing. */
  empty: z.string(),
};

export const auditReportSectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('findings'), ...sectionHead, findings: z.array(auditReportFindingSchema) }),
  z.object({
    kind: z.literal('table'),
    ...sectionHead,
    columns: z.array(z.object({ key: z.string(), label: z.string() })),
    rows: z.array(z.record(z.string(), z.string())),
  }),
]);
export type AuditReportSection = z.infer<typeof auditReportSectionSchema>;

export const auditReportSchema = z.object({
  format: z.literal('rampart-audit-report'),
  version: z.literal(auditReportVersion),
  language: languageSchema,
  /** Epoch milliseconds. */
  generated_at: z.number().int(),
  host: z.string(),
  title: z.string(),
  run: auditRunSchema.extend({ status: z.literal('finished'), score: z.number().int(), finished_at: z.number().int() }),
  /** What the reinforcement journal holds now: applied fixes, with when and what they need to take effect. */
  reinforced: z.array(z.object({ id: z.string(), title: z.string(), applied_at: z.number().int().nullable(), effect: reinforceEffectSchema.nullable(), service: z.string().nullable() })),
  sections: z.array(auditReportSectionSchema),
});
export type AuditReport = z.infer<typeof auditReportSchema>;

export const auditReportFormats = ['html', 'pdf', 'json'] as const;
export type AuditReportFormat = (typeof auditReportFormats)[number];
/** The query's short language names. */
export const auditReportLangs = { zh: 'zh-CN', en: 'en-US' } as const;

/** `GET /audit/report`: no run_id is the latest finished run; no lang is the caller's language. */
export const auditReportQuerySchema = z
  .object({
    run_id: positiveIntParam('audit_report_run_invalid').optional(),
    format: z.enum(auditReportFormats, { message: 'audit_report_format_invalid' }).default('html'),
    lang: z.enum(['zh', 'en'], { message: 'audit_report_lang_invalid' }).optional(),
    ...stampParam,
  })
  .strict();
