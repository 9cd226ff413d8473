import { alertMethods, localDateTime, renderNotice, translate, type AlertMethod, type AlertQueued, type AlertQueueView, type Language } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { deliver, defaultPorts, type AlertText, type DeliveryPorts } from './alert-delivery.ts';
import { alertLanguage, serverName } from './alert-settings.ts';

/** How often the console looks for new notices (and for a waiting message that is due). */
export const alertPollMs = 5000;
/** Notices read per look; a burst larger than this between two looks sends only the newest (queue of one). */
const noticePage = 50;

/** Method names in delivery-failure events: technical words that read the same in both languages. */
export const methodLabels: Record<AlertMethod, string> = { email: 'SMTP', sms: 'SMS', wechat: 'WeCom' };

export interface AlertDispatcher {
  /** A new message: goes now, or waits as the one queued message (replacing an older one). */
  submit(message: AlertQueued): Promise<void>;
  /** Sends the waiting message when its interval is up. */
  tick(): Promise<void>;
  /** Reads notices the agent raised since the last look and submits them. */
  poll(): Promise<void>;
  queue(): AlertQueueView;
  /** Drops the waiting message; true when there was one. */
  clear(): boolean;
  /** Polls and ticks every `everyMs` until the returned stop is called. */
  start(everyMs?: number): () => void;
}

/** The words of a message: the subject names the server, the body ends with where and when. */
export function alertText(ctx: ConsoleContext, message: AlertQueued): AlertText {
  const server = serverName(ctx.db);
  return { subject: `[${server}] ${message.title}`, body: `${message.content}\n\n${server} · ${localDateTime(message.at)}` };
}

export function testMessage(ctx: ConsoleContext, lang: Language, method: AlertMethod): AlertQueued {
  const methodName = translate(lang, `alert_method_${method}`);
  return { title: translate(lang, 'alert_test_subject'), content: translate(lang, 'alert_test_body', { server: serverName(ctx.db), method: methodName }), at: ctx.now() };
}

/**
 * The notification service. Choices where the spec is silent:
 * - what goes out: every notice the agent raises (notices.ts), rendered in the alert language;
 *   notices older than the first look are never sent;
 * - interval N > 0: at most one send per N minutes; while it runs, the newest message waits
 *   (queue of one) and goes when the N minutes are up; 0 sends every message at once;
 * - one send goes by every chosen method; a method that fails records an `alert.delivery_failed`
 *   event and does not stop the others;
 * - the queue and the last send time are kept in the panel database, so a restart keeps them.
 */
export function createAlertDispatcher(ctx: ConsoleContext, ports: DeliveryPorts = defaultPorts(ctx.now)): AlertDispatcher {
  const state = () => getSetting(ctx.db, 'alert_state');
  const save = (patch: Partial<ReturnType<typeof state>>) => setSetting(ctx.db, 'alert_state', { ...state(), ...patch });
  const service = () => getSetting(ctx.db, 'alerts').settings;
  const intervalMs = () => service().interval * 60_000;
  // A message may narrow the chosen methods to its module's own choice (website alerts name theirs).
  const methodsFor = (message: AlertQueued) => service().methods.filter((m) => message.methods === undefined || message.methods.includes(m));
  // One send at a time, in order: a later message never overtakes an earlier one.
  let chain: Promise<void> = Promise.resolve();

  const sendNow = (message: AlertQueued): Promise<void> => {
    save({ last_sent_at: ctx.now() });
    const run = async () => {
      const text = alertText(ctx, message);
      for (const method of methodsFor(message)) {
        try {
          await deliver(ctx.db, method, text, ports);
        } catch (error) {
          ctx.events.record({
            kind: 'alert.delivery_failed', module: 'system', level: 'warning', source: 'console',
            params: { title: message.title.slice(0, 200), method: methodLabels[method], reason: (error as Error).message.slice(0, 500) },
          });
        }
      }
    };
    chain = chain.then(run, run);
    return chain;
  };

  const due = (now: number) => {
    const last = state().last_sent_at;
    return intervalMs() === 0 || last === null || now - last >= intervalMs() || now < last;
  };

  const dispatcher: AlertDispatcher = {
    async submit(message) {
      const s = service();
      if (!s.enabled || methodsFor(message).length === 0) return;
      if (due(ctx.now())) return sendNow(message);
      save({ waiting: message });
    },
    async tick() {
      const { waiting } = state();
      if (!waiting) return;
      const s = service();
      if (!s.enabled || s.methods.length === 0) {
        // Turned off while a message waited: it is not sent later by surprise.
        save({ waiting: null });
        return;
      }
      if (!due(ctx.now())) return;
      save({ waiting: null });
      return sendNow(waiting);
    },
    async poll() {
      const { list } = await ctx.agent.call('notices.list', { offset: 0, limit: noticePage });
      const newest = list.reduce((max, n) => Math.max(max, n.id), 0);
      const { cursor } = state();
      if (cursor === null || newest < cursor) {
        // First look (or the notices were cleared): start from here, send nothing old.
        save({ cursor: newest });
        return;
      }
      const fresh = list.filter((n) => n.id > cursor).sort((a, b) => a.id - b.id);
      if (fresh.length === 0) return;
      save({ cursor: newest });
      const lang = alertLanguage(ctx.db, service());
      for (const notice of fresh) {
        const { title, content } = renderNotice(notice.kind, notice.params, lang);
        // A `methods` param (comma-separated) narrows the methods: website protection's alert settings name theirs.
        const methods = typeof notice.params['methods'] === 'string' ? alertMethods.filter((m) => (notice.params['methods'] as string).split(',').includes(m)) : undefined;
        await dispatcher.submit({ title, content, at: notice.add_time, ...(methods ? { methods } : {}) });
      }
    },
    queue() {
      const s = service();
      const { waiting, last_sent_at } = state();
      const next_at = waiting ? (last_sent_at ?? ctx.now()) + s.interval * 60_000 : null;
      return { enabled: s.enabled, interval: s.interval, waiting, last_sent_at, next_at };
    },
    clear() {
      const had = state().waiting !== null;
      save({ waiting: null });
      return had;
    },
    start(everyMs = alertPollMs) {
      let busy = false;
      const look = () => {
        if (busy) return;
        busy = true;
        void dispatcher.poll().catch(() => {}).then(() => dispatcher.tick()).catch(() => {}).finally(() => {
          busy = false;
        });
      };
      // The first look at once: it sets the starting point (nothing older is sent), so a notice
      // raised in the console's first seconds is not taken for an old one by a first look made later.
      look();
      const timer = setInterval(look, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return dispatcher;
}

const dispatchers = new WeakMap<ConsoleContext, AlertDispatcher>();

/** The dispatcher of this console (one per context, so routes and the background loop share it). */
export function alertDispatcher(ctx: ConsoleContext): AlertDispatcher {
  let d = dispatchers.get(ctx);
  if (!d) {
    d = createAlertDispatcher(ctx);
    dispatchers.set(ctx, d);
  }
  return d;
}

/** Background loop of the console (app.ts): looks for notices every few seconds. */
export function startAlerts(ctx: ConsoleContext): () => void {
  return alertDispatcher(ctx).start();
}
