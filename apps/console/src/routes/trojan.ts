import {
  Code,
  emptyBodySchema,
  isMessageKey,
  noQuerySchema,
  translate,
  trojanAuditScanBodySchema,
  trojanDirEditBodySchema,
  trojanDirsAddBodySchema,
  trojanHandleBodySchema,
  trojanIdQuerySchema,
  trojanIdsBodySchema,
  trojanLibraryBodySchema,
  trojanListQuerySchema,
  trojanRestoreBodySchema,
  trojanResultsQuerySchema,
  trojanScanIdBodySchema,
  trojanScansQuerySchema,
  trojanSetEnabledBodySchema,
  trojanSettingsBodySchema,
  type Envelope,
  type MessageKey,
  type TrojanChange,
  type TrojanScan,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm, type Access } from '../http/access.ts';
import { ok, warning } from '../http/reply.ts';

/** Who made the change, for the agent's event log. */
const accountOf = (request: FastifyRequest) => request.user?.username ?? '';

const pageOf = (query: { keyword?: string; page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { ...(query.keyword ? { keyword: query.keyword } : {}), offset: ((query.page ?? 1) - 1) * size, limit: size };
};

/** What a refusal carries beside its words, so the page can act on it (ask to overwrite on `trojan_restore_exists`). */
export interface TrojanRefusal {
  refused: string;
  detail: string;
}

/**
 * A refusal in the caller's language (code 2, HTTP 200). `{detail}` is what the key's words cannot
 * know (the YARA compiler's message, the paths that exist); the key and detail go along as data.
 */
function refusal(request: FastifyRequest, refused: string, detail = '', params: Record<string, string | number> = {}): Envelope<TrojanRefusal> {
  const key: MessageKey = isMessageKey(refused) ? refused : 'bad_request';
  return { code: Code.error, msg: translate(request.lang, key, { detail, ...params }), data: { refused, detail }, lang: request.lang };
}

/**
 * A change's answer: refused → its words; a batch where some failed → `trojan_partly_done` (a warning
 * when something was done, a refusal with the first failure's words when nothing was); else `done`.
 */
function changeReply(request: FastifyRequest, change: TrojanChange, done: MessageKey) {
  if (change.refused) return refusal(request, change.refused, change.detail);
  const failed = Object.values(change.failed);
  if (failed.length > 0) {
    if (change.changed === 0) return refusal(request, failed[0]!, change.detail);
    return warning(request, 'trojan_partly_done', change, { count: change.changed, failed: failed.length });
  }
  return ok(request, change, done, { count: change.changed });
}

/** Switching on needs `enable`, switching off needs `disable`: decided from the validated body. */
const switchAccess: Access = {
  kind: 'permissions',
  resolve: (request) => [{ key: 'trojan', action: (request.body as { enabled: boolean }).enabled ? 'enable' : 'disable' }],
};

/** Handling a result: deleting the file needs `delete`, the other answers `edit`. */
const handleAccess = (key: 'trojan' | 'audit'): Access => ({
  kind: 'permissions',
  resolve: (request) => [{ key, action: (request.body as { action: string }).action === 'delete' ? 'delete' : 'edit' }],
});

const handledWords = { trust: 'trojan_handled', isolate: 'trojan_handled', record: 'trojan_handled', delete: 'trojan_deleted' } as const;

/**
 * Trojan (web-shell) protection (`/trojan`, permission key `trojan`) and the audit's trojan tab
 * (`/audit/trojan`, permission key `audit`). The agent owns every piece of state; these are thin,
 * schema-checked calls. Reads are `query`; adding directories `add`; settings, the library, scans,
 * handling and restoring `edit`; deleting (directories, files, isolated files) `delete`; switching
 * directories `enable` / `disable`. The audit's routes act only on audit scans and their results.
 */
export const trojanRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  /** The newest scans of the module's own kinds (full and scheduled), merged by start time. */
  const moduleScans = async (offset: number, limit: number) => {
    const [full, scheduled] = await Promise.all([
      call('trojan.scan.list', { kind: 'full', offset: 0, limit: Math.min(100, offset + limit) }),
      call('trojan.scan.list', { kind: 'scheduled', offset: 0, limit: Math.min(100, offset + limit) }),
    ]);
    const list = [...full.list, ...scheduled.list].sort((a, b) => b.started - a.started || b.id - a.id).slice(offset, offset + limit);
    return { total: full.total + scheduled.total, list };
  };
  const auditScan = async (id: number): Promise<TrojanScan | null> => {
    const scan = await call('trojan.scan.get', { id });
    return scan && scan.kind === 'audit' ? scan : null;
  };
  const latestAuditScan = async () => (await call('trojan.scan.list', { kind: 'audit', offset: 0, limit: 1 })).list[0] ?? null;
  /** The ids among `ids` that are results of audit scans, newest scans first (stops once every id is found). */
  const auditResultIds = async (ids: readonly number[]): Promise<Set<number>> => {
    const wanted = new Set(ids);
    const found = new Set<number>();
    const scans = await call('trojan.scan.list', { kind: 'audit', offset: 0, limit: 100 });
    for (const scan of scans.list) {
      for (let offset = 0; ; offset += 1000) {
        const page = await call('trojan.results.list', { scanId: scan.id, flaggedOnly: false, offset, limit: 1000 });
        for (const row of page.list) if (wanted.has(row.id)) found.add(row.id);
        if (found.size === wanted.size || page.list.length < 1000) break;
      }
      if (found.size === wanted.size) break;
    }
    return found;
  };

  // The module's status line, settings and library.
  app.get('/trojan/status', { config: { access: perm('trojan', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('trojan.status', {})));
  app.get('/trojan/settings', { config: { access: perm('trojan', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('trojan.settings.get', {})));
  app.post('/trojan/settings', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: trojanSettingsBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.settings.set', { settings: request.body.settings, account: accountOf(request) }), 'saved'));
  app.get('/trojan/library', { config: { access: perm('trojan', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('trojan.library.get', {})));
  app.post('/trojan/library', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: trojanLibraryBodySchema } }, async (request) => {
    const change = await call('trojan.library.set', { library: request.body.library, account: accountOf(request) });
    // The website gateway's upload scan uses the library too: it learns the change now (services/policy-signal.ts).
    if (!change.refused) ctx.policy.changed();
    return changeReply(request, change, 'saved');
  });

  // Protected directories.
  app.get('/trojan/dirs', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanListQuerySchema } }, async (request) =>
    ok(request, await call('trojan.dirs.list', pageOf(request.query))));
  app.get('/trojan/dirs/discover', { config: { access: perm('trojan', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('trojan.dirs.discover', {})));
  app.post('/trojan/dirs/add', { config: { access: perm('trojan', 'add') }, schema: { querystring: noQuerySchema, body: trojanDirsAddBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.dirs.add', { dirs: request.body.dirs, account: accountOf(request) }), 'saved'));
  app.post('/trojan/dirs/edit', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: trojanDirEditBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.dirs.edit', { id: request.body.id, remark: request.body.remark, account: accountOf(request) }), 'saved'));
  app.post('/trojan/dirs/enable', { config: { access: switchAccess }, schema: { querystring: noQuerySchema, body: trojanSetEnabledBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.dirs.set_enabled', { ids: request.body.ids, enabled: request.body.enabled, account: accountOf(request) }), 'saved'));
  app.post('/trojan/dirs/delete', { config: { access: perm('trojan', 'delete') }, schema: { querystring: noQuerySchema, body: trojanIdsBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.dirs.delete', { ids: request.body.ids, account: accountOf(request) }), 'notices_deleted'));

  // Full scans of the enabled directories, their progress and results.
  // No body at all (like /audit/start): a scan is started by the call itself, and `{}` is not a request to start one.
  app.post('/trojan/scan/start', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const started = await call('trojan.scan.start', { kind: 'full', account: accountOf(request) });
    return started.refused ? refusal(request, started.refused) : ok(request, started.scan, 'trojan_scan_started');
  });
  app.post('/trojan/scan/cancel', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: trojanScanIdBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.scan.cancel', { id: request.body.id, account: accountOf(request) }), 'trojan_scan_cancelled'));
  app.get('/trojan/scan', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanIdQuerySchema } }, async (request) => {
    const scan = await call('trojan.scan.get', { id: request.query.id });
    return scan ? ok(request, scan) : refusal(request, 'trojan_scan_not_found');
  });
  app.get('/trojan/scans', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanScansQuerySchema } }, async (request) => {
    const { offset, limit } = pageOf(request.query);
    return ok(request, await moduleScans(offset, limit));
  });
  app.get('/trojan/results', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanResultsQuerySchema } }, async (request) => {
    const { scan, watch, flagged } = request.query;
    // A scan's results when one is named, else what the real-time watch found.
    const which = scan !== undefined && watch !== '1' ? { scanId: scan } : { watch: true };
    return ok(request, await call('trojan.results.list', { ...which, flaggedOnly: flagged !== '0', ...pageOf(request.query) }));
  });
  app.post('/trojan/results/handle', { config: { access: handleAccess('trojan') }, schema: { querystring: noQuerySchema, body: trojanHandleBodySchema } }, async (request) => {
    const { ids, action } = request.body;
    return changeReply(request, await call('trojan.results.handle', { ids, action, account: accountOf(request) }), handledWords[action]);
  });

  // Isolated files.
  app.get('/trojan/isolate', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanListQuerySchema } }, async (request) =>
    ok(request, await call('trojan.isolate.list', pageOf(request.query))));
  app.get('/trojan/isolate/source', { config: { access: perm('trojan', 'query') }, schema: { querystring: trojanIdQuerySchema } }, async (request) => {
    const source = await call('trojan.isolate.source', { id: request.query.id });
    return source ? ok(request, source) : refusal(request, 'trojan_isolated_not_found');
  });
  app.post('/trojan/isolate/restore', { config: { access: perm('trojan', 'edit') }, schema: { querystring: noQuerySchema, body: trojanRestoreBodySchema } }, async (request) => {
    const { ids, overwrite } = request.body;
    return changeReply(request, await call('trojan.isolate.restore', { ids, overwrite, account: accountOf(request) }), 'trojan_restored');
  });
  app.post('/trojan/isolate/delete', { config: { access: perm('trojan', 'delete') }, schema: { querystring: noQuerySchema, body: trojanIdsBodySchema } }, async (request) =>
    changeReply(request, await call('trojan.isolate.delete', { ids: request.body.ids, account: accountOf(request) }), 'trojan_deleted'));

  // The audit's trojan tab: one-off scans of chosen paths.
  app.post('/audit/trojan/scan', { config: { access: perm('audit', 'edit') }, schema: { querystring: noQuerySchema, body: trojanAuditScanBodySchema } }, async (request) => {
    const started = await call('trojan.scan.start', { kind: 'audit', paths: request.body.paths, account: accountOf(request) });
    return started.refused ? refusal(request, started.refused) : ok(request, started.scan, 'trojan_scan_started');
  });
  /** The latest audit scan (null before the first). */
  app.get('/audit/trojan/scan', { config: { access: perm('audit', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await latestAuditScan()));
  app.post('/audit/trojan/cancel', { config: { access: perm('audit', 'edit') }, schema: { querystring: noQuerySchema, body: trojanScanIdBodySchema } }, async (request) => {
    if (!(await auditScan(request.body.id))) return refusal(request, 'trojan_scan_not_found');
    return changeReply(request, await call('trojan.scan.cancel', { id: request.body.id, account: accountOf(request) }), 'trojan_scan_cancelled');
  });
  /** Results of an audit scan: the one named, else the latest. The watch's results are not the audit's. */
  app.get('/audit/trojan/results', { config: { access: perm('audit', 'query') }, schema: { querystring: trojanResultsQuerySchema } }, async (request) => {
    const { scan: id, watch, flagged } = request.query;
    if (watch === '1') return refusal(request, 'trojan_scan_not_found');
    const scan = id === undefined ? await latestAuditScan() : await auditScan(id);
    if (!scan) return id === undefined ? ok(request, { total: 0, list: [] }) : refusal(request, 'trojan_scan_not_found');
    return ok(request, await call('trojan.results.list', { scanId: scan.id, flaggedOnly: flagged !== '0', ...pageOf(request.query) }));
  });
  app.post('/audit/trojan/handle', { config: { access: handleAccess('audit') }, schema: { querystring: noQuerySchema, body: trojanHandleBodySchema } }, async (request) => {
    const { ids, action } = request.body;
    const audit = await auditResultIds(ids);
    if (ids.some((id) => !audit.has(id))) return refusal(request, 'trojan_result_not_found');
    return changeReply(request, await call('trojan.results.handle', { ids, action, account: accountOf(request) }), handledWords[action]);
  });
};
