import { encodePanelChanges, eventModules, isSecretField, isSecretSchema, type EventModule, type PanelChange, type PanelValue } from '@rampart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { auditSpecs, type AuditBefore, type AuditSpec } from './audit-actions.ts';

const modules: ReadonlySet<string> = new Set(eventModules);
const prefix = '/magapi';

function moduleOf(request: FastifyRequest): EventModule {
  const access = request.routeOptions.config.access;
  const key = access?.kind === 'permission' ? access.key : undefined;
  return key && modules.has(key) ? (key as EventModule) : 'system';
}

/** ok when the envelope says success or warning; failed when it refuses (code 2); refused for an HTTP error. */
function resultOf(status: number, payload: unknown): 'ok' | 'failed' | 'refused' {
  if (status >= 400) return 'refused';
  const head = typeof payload === 'string' ? payload.slice(0, 12) : '';
  return /^\{"code":[01][,}]/.test(head) ? 'ok' : 'failed';
}

/** The table's key of a route: method and URL without the API prefix. */
export function routeKey(method: string, url: string): string {
  return `${method} ${url.startsWith(prefix) ? url.slice(prefix.length) : url}`;
}

export function auditSpecOf(method: string, url: string): AuditSpec | null | undefined {
  return auditSpecs[routeKey(method, url)];
}

type Schema = { _zod?: { def?: Record<string, unknown> } };

/**
 * Paths of the fields a body schema marks secret (secretField in contracts), `*` standing for any
 * array index: walked once per route through objects, arrays, unions and the optional / default /
 * nullable / pipe wrappers.
 */
export function secretPathsOf(schema: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 12) return;
    if (isSecretSchema(node)) {
      found.add(path);
      return;
    }
    const def = (node as Schema)._zod?.def;
    if (!def) return;
    const join = (name: string) => (path ? `${path}.${name}` : name);
    switch (def['type']) {
      case 'object':
        for (const [name, child] of Object.entries((def['shape'] as Record<string, unknown>) ?? {})) walk(child, join(name), depth + 1);
        return;
      case 'array':
        walk(def['element'], join('*'), depth + 1);
        return;
      case 'union':
        for (const option of (def['options'] as unknown[]) ?? []) walk(option, path, depth + 1);
        return;
      case 'pipe':
        walk(def['in'], path, depth + 1);
        walk(def['out'], path, depth + 1);
        return;
      default:
        if (def['innerType']) walk(def['innerType'], path, depth + 1);
    }
  };
  walk(schema, '', 0);
  return found;
}

const plain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/**
 * A body (or query, or earlier state) as a flat list of [path, value]: nested objects by dotted
 * path, a list of plain values joined into one text, a list of objects by index.
 */
function flatten(value: unknown, path = '', out = new Map<string, PanelValue>()): Map<string, PanelValue> {
  if (plain(value)) {
    for (const [name, child] of Object.entries(value)) flatten(child, path ? `${path}.${name}` : name, out);
  } else if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    value.forEach((item, i) => flatten(item, `${path}.${i}`, out));
  } else if (Array.isArray(value)) {
    out.set(path, value.map(String).join(', '));
  } else if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out.set(path, value);
  }
  return out;
}

const stamps: ReadonlySet<string> = new Set(['t', '_']);

/**
 * The changes one call made, as stored: each given field with its value; a field the state before
 * held too, old → new (left out when equal); blank ones of a new object left out; a secret (by field name or by the body schema) only as
 * "changed", and not at all when left blank (blank keeps the stored one). Never a secret's value.
 */
export function changesOf(spec: AuditSpec, body: unknown, queryValues: unknown, before: AuditBefore, secretPaths: ReadonlySet<string>): PanelChange[] {
  const skip = new Set([...(spec.omit ?? []), ...(spec.target ? [spec.target] : [])]);
  const old = before.state === undefined ? undefined : flatten(before.state);
  const fields = [...flatten(plain(queryValues) ? queryValues : {}), ...flatten(plain(body) ? body : {})];
  const changes: PanelChange[] = [];
  for (const [path, value] of fields) {
    const parts = path.split('.');
    if (skip.has(parts[0]!) || skip.has(path) || stamps.has(path)) continue;
    const pattern = parts.map((part) => (/^\d+$/.test(part) ? '*' : part)).join('.');
    if (secretPaths.has(pattern) || parts.some(isSecretField)) {
      if (value !== '' && value !== null) changes.push([path]);
      continue;
    }
    if (old?.has(path)) {
      const was = old.get(path) ?? null;
      if (was !== value) changes.push([path, was, value]);
      continue;
    }
    // A blank field of a new object (no remark, no areas) says nothing.
    if (value !== '') changes.push([path, value]);
  }
  return changes;
}

const befores = new WeakMap<FastifyRequest, AuditBefore>();

/** Routes that say `audit: false` (they record a more telling event of their own), by route key: a test reads it. */
export const selfRecordingRoutes = new Set<string>();

function targetOf(spec: AuditSpec, request: FastifyRequest, before: AuditBefore): string {
  if (before.target !== undefined) return before.target;
  if (!spec.target) return '';
  const body = plain(request.body) ? request.body : {};
  const value = body[spec.target] ?? (request.query as Record<string, unknown> | undefined)?.[spec.target];
  return value === undefined || value === null ? '' : String(value).slice(0, 200);
}

/**
 * Records every state-changing call of a signed-in account in the event store as `panel.action`:
 * who, from where, the action's catalogue key, the object it was about and the fields it changed,
 * and how it ended: data, not words, so the log shows it in the reader's language
 * (packages/contracts/src/panel-actions.ts). What each route records is declared in
 * audit-actions.ts; a route missing there still records, as "changed <module> settings". Routes that
 * record a more telling event of their own (sign-out, module switch) say `audit: false`.
 */
export function installAuditTrail(app: FastifyInstance, ctx: ConsoleContext): void {
  const secretsByRoute = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body;
    for (const method of [route.method].flat()) {
      secretsByRoute.set(routeKey(method, route.url), secretPathsOf(body));
      if (route.config?.audit === false) selfRecordingRoutes.add(routeKey(method, route.url));
    }
  });

  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.user) return;
    const spec = auditSpecOf(request.method, request.routeOptions.url ?? '');
    if (!spec?.before || request.routeOptions.config.audit === false) return;
    try {
      befores.set(request, await spec.before(ctx, request));
    } catch {
      // Nothing to compare with (the agent is down): the fields are recorded with their new values.
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.user) return payload;
    if (request.routeOptions.config.audit === false) return payload;
    // Input the schema refused changed nothing and is not an action; a refused permission (403) is kept.
    if (reply.statusCode === 400 || reply.statusCode === 413 || reply.statusCode === 429) return payload;
    const url = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const spec = auditSpecOf(request.method, url);
    if (spec === null) return payload;
    const result = resultOf(reply.statusCode, payload);
    if (spec?.ownEventWhenDone && result === 'ok') return payload;
    const module = moduleOf(request);
    const params: Record<string, string> = { account: request.user.username, module, result };
    if (spec) {
      const before = befores.get(request) ?? {};
      const target = targetOf(spec, request, before);
      const changes = changesOf(spec, request.body, request.query, before, secretsByRoute.get(routeKey(request.method, url)) ?? new Set());
      params['action'] = spec.action;
      if (target) params['target'] = target;
      if (changes.length > 0) params['changes'] = encodePanelChanges(changes);
    } else {
      // Not in the table: the call is kept as data; the log reads it as "changed <module> settings".
      params['action'] = routeKey(request.method, url).slice(0, 200);
    }
    ctx.events.record({
      kind: 'panel.action',
      module,
      level: result === 'ok' ? 'info' : 'warning',
      source: 'console',
      account: request.user.username,
      ip: request.ip,
      params,
    });
    return payload;
  });
}
