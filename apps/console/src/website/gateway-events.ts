import { z } from 'zod';
import { gatewayEventDrainSchema, gatewayEventSchema, type GatewayEventRecord, type PhotoInput } from '@rampart/contracts';
import { transaction } from '../db/database.ts';
import { drainGatewayEvents } from './gateway-link.ts';
import { gatewayEventEffects, type GatewayEventEffects } from './gateway-event-records.ts';
import { syncGatewayPolicy, type PolicySync } from './policy-sync.ts';
import { readWebsiteSettings } from './settings-store.ts';
import { putTimed } from './timed-store.ts';
import type { WebsiteLink } from './website-link.ts';

/** What one drain did. */
export type DrainOutcome =
  | { state: 'not_running' }
  | { state: 'unreachable' | 'invalid'; reason: string }
  | { state: 'drained'; events: number; rejected: number; dropped: number; more: boolean };

export interface GatewayPoller {
  /** Drains once and records what came. */
  drainOnce(): Promise<DrainOutcome>;
  /** Compares the gateway file with the state and rewrites / reloads (policy-sync.ts). */
  checkPolicy(options?: { timedWrites: boolean }): Promise<{ outcome: PolicySync; reason?: string }>;
  /** Runs both on timers until the returned stop is called; the stop waits for a round in flight. */
  start(): () => Promise<void>;
}

/* The envelope first, then each event: one event a newer gateway shapes differently costs that event, not the other 999. */
const envelopeSchema = gatewayEventDrainSchema.extend({ events: z.array(z.unknown()) });

/** Photos per agent call (photos.append takes 200) and bytes per call (the agent reads lines of at most 8 MiB). */
const photosPerCall = 200;
const photoBytesPerCall = 6 * 1024 * 1024;

export interface PollerOptions {
  drainMs?: number;
  /** The policy check runs every this many drains. */
  policyEvery?: number;
  /** A timed-only rewrite of the file at most every this many ms. */
  timedWriteMs?: number;
  log?: (line: string) => void;
}

/**
 * The console's side of the gateway's reports (issue 6): every second it drains `events` from the
 * admin socket and turns each into an event (agent event store, through the console's EventSink,
 * which batches and waits while the agent is away), a snapshot (photo log), an entry of its copy of
 * the interception or authorization list, and for alerts a notice the alert service sends. No
 * socket: the gateway is not running, nothing is said. Every few seconds it also runs the policy
 * check (policy-sync.ts).
 *
 * Choices: no draining while the policy check finds the agent away (the gateway keeps buffering);
 * snapshots and notices go straight to the agent, and if it goes away between two checks they are
 * logged and lost (the events themselves wait in the EventSink). A malformed answer is logged — once per
 * distinct reason every ten minutes, so a gateway of another build does not fill the log — and
 * dropped; the console keeps running.
 */
export function createGatewayPoller(link: WebsiteLink, options: PollerOptions = {}): GatewayPoller {
  const { ctx, paths } = link;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const lastLogged = new Map<string, number>();
  const quietLog = (key: string, line: string) => {
    const now = Date.now();
    if ((lastLogged.get(key) ?? -Infinity) > now - 10 * 60_000) return;
    lastLogged.set(key, now);
    log(line);
  };

  const siteNames = (): Map<string, string> =>
    new Map((ctx.db.prepare('SELECT id, name FROM website_sites').all() as { id: number; name: string }[]).map((row) => [`site-${row.id}`, row.name]));

  const sendPhotos = async (photos: PhotoInput[]) => {
    let batch: PhotoInput[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const sending = batch;
      batch = [];
      bytes = 0;
      await ctx.agent.call('photos.append', { photos: sending }).catch((error: Error) => quietLog('photos', `website: ${sending.length} snapshots not stored (agent: ${error.message})`));
    };
    for (const photo of photos) {
      // Worst case of JSON escaping is 6 bytes a character; a cheap bound, not an exact size.
      const size = ((photo.headers?.length ?? 0) + (photo.post_data?.length ?? 0) + photo.url.length) * 6 + 512;
      if (batch.length >= photosPerCall || (batch.length > 0 && bytes + size > photoBytesPerCall)) await flush();
      batch.push(photo);
      bytes += size;
    }
    await flush();
  };

  const record = async (events: GatewayEventRecord[], dropped: number) => {
    const names = siteNames();
    const alert = readWebsiteSettings(ctx.db).base.alert;
    const effects: GatewayEventEffects[] = events.map((e) => gatewayEventEffects(e, names.get(e.site_id) ?? e.site_id, alert));
    // The lists first: the intercept_list page shows an address as soon as its event is in the log.
    const timed = effects.flatMap((e) => (e.timed ? [e.timed] : []));
    if (timed.length > 0) {
      transaction(ctx.db, () => {
        for (const list of ['intercept', 'author'] as const) putTimed(ctx.db, list, timed.filter((t) => t.list === list).map((t) => t.entry), ctx.now());
      });
    }
    for (const e of effects) ctx.events.record(e.event);
    if (dropped > 0) {
      ctx.events.record({ kind: 'website.events_lost', module: 'website', level: 'warning', source: 'gateway', params: { count: dropped } });
    }
    await sendPhotos(effects.flatMap((e) => (e.photo ? [e.photo] : [])));
    for (const e of effects) {
      if (!e.notice) continue;
      await ctx.agent.call('notices.raise', e.notice).catch((error: Error) => quietLog('notices', `website: alert notice not raised (agent: ${error.message})`));
    }
  };

  const drainOnce = async (): Promise<DrainOutcome> => {
    const answer = await drainGatewayEvents(paths.adminSocket);
    if (answer.state === 'not_running') return answer;
    if (answer.state === 'unreachable') {
      quietLog(`unreachable:${answer.reason}`, `website: gateway admin socket unreachable: ${answer.reason}`);
      return answer;
    }
    if (answer.state === 'unreadable') {
      quietLog(`unreadable:${answer.reason}`, `website: gateway events ignored: ${answer.reason}`);
      return { state: 'invalid', reason: answer.reason };
    }
    const envelope = envelopeSchema.safeParse(answer.value);
    if (!envelope.success) {
      const issue = envelope.error.issues[0];
      const reason = `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`;
      quietLog(`envelope:${reason}`, `website: gateway events answer ignored (${reason}): ${JSON.stringify(answer.value).slice(0, 200)}`);
      return { state: 'invalid', reason };
    }
    const valid: GatewayEventRecord[] = [];
    let rejected = 0;
    for (const raw of envelope.data.events) {
      const parsed = gatewayEventSchema.safeParse(raw);
      if (parsed.success) valid.push(parsed.data);
      else {
        rejected++;
        const issue = parsed.error.issues[0];
        quietLog(`event:${issue?.path.join('.')}`, `website: gateway event ignored (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'})`);
      }
    }
    await record(valid, envelope.data.dropped);
    return { state: 'drained', events: valid.length, rejected, dropped: envelope.data.dropped, more: envelope.data.more };
  };

  const checkPolicy = async (check = { timedWrites: true }) => {
    const result = await syncGatewayPolicy(link, check);
    if (result.outcome === 'invalid') quietLog(`policy:${result.reason}`, `website: gateway configuration not rewritten: ${result.reason ?? ''}`);
    if (result.outcome === 'reloaded' && result.reason) quietLog(`reload:${result.reason}`, `website: gateway did not take the new policy: ${result.reason}`);
    return result;
  };

  return {
    drainOnce,
    checkPolicy,
    start() {
      const drainMs = options.drainMs ?? 1000;
      const policyEvery = options.policyEvery ?? 5;
      const timedWriteMs = options.timedWriteMs ?? 30_000;
      let ticks = 0;
      let lastTimedWrite = 0;
      // While the policy check finds the agent away, events stay in the gateway's buffer (what overflows
      // is counted there and reported later) rather than being drained into snapshots and notices that
      // could not be stored.
      let agentAway = false;
      let running: Promise<void> | null = null;
      let stopped = false;
      const tick = async () => {
        // A full buffer drains in a few rounds at once, not one round a second.
        for (let round = 0; round < 10 && !stopped && !agentAway; round++) {
          const outcome = await drainOnce();
          if (outcome.state !== 'drained' || !outcome.more) break;
        }
        if (ticks++ % policyEvery !== 0 || stopped) return;
        const timedWrites = Date.now() - lastTimedWrite >= timedWriteMs;
        const { outcome } = await checkPolicy({ timedWrites });
        agentAway = outcome === 'agent_away';
        if (outcome === 'timed_only' || outcome === 'reloaded') lastTimedWrite = Date.now();
      };
      const timer = setInterval(() => {
        if (running) return;
        running = tick()
          .catch((error: Error) => quietLog(`tick:${error.message}`, `website: gateway poller: ${error.message}`))
          .finally(() => {
            running = null;
          });
      }, drainMs);
      timer.unref();
      return async () => {
        stopped = true;
        clearInterval(timer);
        await running;
      };
    },
  };
}
