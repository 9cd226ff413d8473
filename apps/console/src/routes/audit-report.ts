import { hostname } from 'node:os';
import { auditReportLangs, auditReportQuerySchema, can, type AuditResultRow } from '@rampart/contracts';
import { buildAuditReport, finishedRun, renderReportHtml, renderReportPdf, reportFileName, ReportFontMissingError } from '@rampart/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure } from '../http/reply.ts';

const contentTypes = { html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8', pdf: 'application/pdf' } as const;
/** The agent's largest page of results. */
const page = 200;

/**
 * `GET /audit/report?run_id=&format=html|pdf|json&lang=zh|en`: a finished system audit as a file to
 * keep (permission `audit`, action `export`). The console builds it from the agent's read calls
 * (results, reinforcement items, the user and process findings saved with the run, and the patch list
 * when the caller also holds `audit_patch`): nothing privileged is new. No run_id is the latest finished run;
 * no lang is the caller's. A run that is missing or not finished, or a Chinese PDF without a CJK
 * font, is refused with a message (HTTP 200, code 2) and no file.
 */
export const auditReportRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/audit/report', { config: { access: perm('audit', 'export') }, schema: { querystring: auditReportQuerySchema } }, async (request, reply) => {
    const { run_id, format, lang } = request.query;
    const language = lang ? auditReportLangs[lang] : request.lang;
    const first = await ctx.agent.call('audit.results', { ...(run_id ? { run_id } : {}), offset: 0, limit: page });
    if (!first.run) return failure(request, run_id ? 'audit_report_no_run' : 'audit_no_run');
    const run = finishedRun(first.run);
    if (!run) return failure(request, 'audit_report_not_finished');
    const results: AuditResultRow[] = [...first.list];
    while (results.length < first.total) {
      const more = await ctx.agent.call('audit.results', { run_id: run.id, offset: results.length, limit: page });
      if (more.list.length === 0) break;
      results.push(...more.list);
    }
    const { list: reinforce } = await ctx.agent.call('audit.reinforce.items', {});
    // The account and process findings saved with the run: an old run's report shows what was true then.
    const { snapshot } = await ctx.agent.call('audit.run.inventory', { run_id: run.id });
    const inventory = snapshot ? { ...(snapshot.users ? { users: snapshot.users } : {}), ...(snapshot.processes ? { processes: snapshot.processes } : {}) } : { inventoryNotSaved: true };
    // The patch list is the `audit_patch` permission's to show: without it the report has no patch section.
    const patch = request.user && can(request.user.permissions, 'audit_patch', 'query') ? await ctx.agent.call('audit.patch.status', {}) : null;
    const report = buildAuditReport({ run, results, reinforce, ...inventory, patch, language, host: hostname(), now: ctx.now() });
    let body: string | Buffer;
    if (format === 'json') body = `${JSON.stringify(report, null, 2)}\n`;
    else if (format === 'html') body = renderReportHtml(report);
    else {
      try {
        body = await renderReportPdf(report);
      } catch (error) {
        if (error instanceof ReportFontMissingError) return failure(request, 'audit_report_no_cjk_font');
        throw error;
      }
    }
    return reply
      .type(contentTypes[format])
      .header('content-disposition', `attachment; filename="${reportFileName(run.id, run.finished_at, format)}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
};
