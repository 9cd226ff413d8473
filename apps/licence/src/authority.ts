import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import {
  licenceActivateRequestSchema,
  licenceStatusRequestSchema,
  type LicenceActivateResponse,
  type LicenceError,
  type LicenceStatusResponse,
} from '@rampart/contracts';
import { withTransaction, type LicenceDb } from './db.ts';
import { bindLicence, findLicence, logActivation, moveLicence, type ActivationOutcome } from './licence-store.ts';
import { decideActivation, decideStatus, errorStatus, grantOf } from './rules.ts';
import { RateLimiter, defaultRateLimit, type RateLimitOptions } from './rate-limiter.ts';
import { clientKey } from './client-key.ts';
import { registerReleases } from './releases.ts';

export interface AuthorityOptions {
  db: LicenceDb;
  /** Clock in ms since the epoch; tests move it to expire codes and reset rate-limit windows. */
  now?: () => number;
  rateLimit?: RateLimitOptions;
  /** Fastify logger settings; off by default so stdout stays clean for the ready line. */
  logger?: FastifyServerOptions['logger'];
  /** Rampart releases served at /v1/releases/ (releases.ts); absent: none. */
  releasesDir?: string;
}

/** Requests carry two short strings and a boolean; anything near this size is not a real client. */
export const authorityBodyLimit = 16 * 1024;

const activatePath = '/v1/activate';
const statusPath = '/v1/status';

function refuse(reply: FastifyReply, error: LicenceError): FastifyReply {
  return reply.code(errorStatus[error]).send({ error });
}

/** The licence authority's HTTP API, built but not listening. The caller owns (and closes) `db`. */
export function buildAuthority(options: AuthorityOptions): FastifyInstance {
  const { db } = options;
  const now = options.now ?? Date.now;
  const limiter = new RateLimiter(options.rateLimit ?? defaultRateLimit);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: authorityBodyLimit,
    // A public service: do not let slow or idle clients hold sockets open.
    requestTimeout: 10_000,
    connectionTimeout: 15_000,
  });

  const record = (ip: string, outcome: ActivationOutcome, code: string | null = null, deviceId: string | null = null): void => {
    logActivation(db, { time: now(), code, device_id: deviceId, ip, outcome });
  };

  // Counted before the body is read, so floods of junk bodies are limited too.
  app.addHook('onRequest', async (request, reply) => {
    if (!limiter.allow(clientKey(request.ip), now())) return refuse(reply, 'rate_limited');
  });

  app.post(activatePath, async (request, reply) => {
    const parsed = licenceActivateRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      record(request.ip, 'bad_request');
      return refuse(reply, 'bad_request');
    }
    const { code, device_id, confirm_move } = parsed.data;
    const at = now();
    // Decide and write under one write lock: two devices racing for the same code cannot both win.
    const result = withTransaction(db, (): { outcome: ActivationOutcome; body: LicenceActivateResponse } | { outcome: ActivationOutcome; error: LicenceError } => {
      const licence = findLicence(db, code);
      const decision = decideActivation(licence, { device_id, confirm_move }, at);
      switch (decision.kind) {
        case 'refuse':
          return { outcome: decision.error, error: decision.error };
        case 'need_confirm':
          return { outcome: 'need_confirm', body: { status: 'need_confirm', transfers_left: decision.transfers_left } };
        case 'already_bound':
        case 'bind':
        case 'move': {
          const changed =
            decision.kind === 'already_bound' ||
            (decision.kind === 'bind' ? bindLicence(db, code, device_id, at) : moveLicence(db, code, decision.from, device_id, at));
          // Under the write lock the row cannot change between read and write; this guards the invariant anyway.
          if (!changed) throw new Error(`licence ${code} changed during activation`);
          const updated = findLicence(db, code);
          if (!updated) throw new Error(`licence ${code} vanished during activation`);
          const outcome = decision.kind === 'already_bound' ? 'reactivated' : decision.kind === 'bind' ? 'activated' : 'moved';
          return { outcome, body: { status: 'activated', ...grantOf(updated, device_id) } };
        }
      }
    });
    record(request.ip, result.outcome, code, device_id);
    return 'error' in result ? refuse(reply, result.error) : reply.send(result.body);
  });

  app.post(statusPath, async (request, reply) => {
    const parsed = licenceStatusRequestSchema.safeParse(request.body);
    if (!parsed.success) return refuse(reply, 'bad_request');
    const { code, device_id } = parsed.data;
    const decision = decideStatus(findLicence(db, code), device_id, now());
    if (decision.kind === 'refuse') return refuse(reply, decision.error);
    const body: LicenceStatusResponse = { status: 'active', ...grantOf(decision.licence, device_id) };
    return reply.send(body);
  });

  if (options.releasesDir) registerReleases(app, options.releasesDir);

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    // Whatever the client sent wrong (bad JSON, too large, wrong content type, poisoned prototype) is one answer.
    if (status >= 400 && status < 500) {
      if (request.routeOptions.url === activatePath) record(request.ip, 'bad_request');
      return refuse(reply, 'bad_request');
    }
    request.log.error(error, 'licence authority request failed');
    return reply.code(500).send({ error: 'internal' });
  });

  return app;
}
