import {
  localDay,
  type AlertMethod,
  type EventInput,
  type EventKind,
  type GatewayEventRecord,
  type NoticeInput,
  type PhotoInput,
  type WebsiteAuthorEntry,
  type WebsiteInterceptEntry,
} from '@rampart/contracts';

/** What one gateway event becomes in the console: an event, maybe a snapshot, a timed-list entry, a notice. */
export interface GatewayEventEffects {
  event: EventInput;
  photo: PhotoInput | null;
  timed: { list: 'intercept'; entry: WebsiteInterceptEntry } | { list: 'author'; entry: WebsiteAuthorEntry } | null;
  notice: NoticeInput | null;
}

/** Website alert settings as they stand when the event is read (base tab). */
export interface AlertChoice {
  enabled: boolean;
  methods: readonly AlertMethod[];
}

/** The event kind of each thing the gateway reports; a block is an attack or a settings group's refusal. */
export function websiteEventKind(event: Pick<GatewayEventRecord, 'type' | 'kind'>): EventKind {
  switch (event.type) {
    case 'block':
      return event.kind === 'policy' ? 'website.policy_block' : 'website.attack';
    case 'challenge':
      return 'website.challenge';
    case 'record':
      return 'website.record';
    case 'intercept':
      return 'website.intercepted';
    case 'authorize':
      return 'website.authorized';
  }
}

const minutesOf = (entry: { created_at: number; expires_at: number }) => Math.max(1, Math.round((entry.expires_at - entry.created_at) / 60_000));

/**
 * Pure: one drained gateway event in the console's shapes. Choices:
 * - the event's source is the rule that decided (the log's source column), its params keep the raw
 *   ids (the catalogue names them in the reader's language), its detail the request line and the
 *   evidence, in numbers and raw text only, so it reads the same in both languages;
 * - a notice only for a block or an interception the gateway marked `alert` (its alert area
 *   matched), and only while the website alert is on now; one per address, rule and day while
 *   unread (as the firewall's block notices), with the website's own methods (alert-dispatcher.ts
 *   sends it by those of them the alert service has);
 * - the snapshot goes to the photo log under the same event kind.
 */
export function gatewayEventEffects(event: GatewayEventRecord, siteName: string, alert: AlertChoice): GatewayEventEffects {
  const kind = websiteEventKind(event);
  const timedEntry = event.type === 'intercept' ? event.intercept : event.type === 'authorize' ? event.author : undefined;
  // Attacks, blocked or recorded, are named by their kind; settings groups by the rule (`{rule|webrule}`).
  const rule = (event.type === 'block' || event.type === 'record') && event.kind !== 'policy' ? event.kind : event.rule;
  const ip = timedEntry?.ip ?? event.client_ip;
  const params: Record<string, string | number> = {
    ip,
    site: siteName,
    rule,
    attack: event.kind,
    method: event.method,
    url: event.target.slice(0, 1000),
    host: event.host,
    incident: event.incident_id,
  };
  if (event.area) params['area'] = event.area;
  if (timedEntry) {
    params['reason'] = timedEntry.reason;
    params['minutes'] = minutesOf(timedEntry);
  }
  const evidence = [event.location, event.name].filter(Boolean).join(' ');
  const detail = [
    `${event.method} ${event.target}`,
    event.host ? `Host: ${event.host}` : '',
    `rule ${event.rule}${evidence ? ` @ ${evidence}` : ''}${event.evidence ? `: ${event.evidence}` : ''}`,
    timedEntry?.detail ?? '',
    event.incident_id ? `incident ${event.incident_id}` : '',
  ].filter(Boolean).join('\n');

  const record: EventInput = {
    time: event.at,
    kind,
    module: 'website',
    level: event.type === 'block' || event.type === 'intercept' ? 'warning' : 'info',
    source: (event.rule || 'gateway').slice(0, 32),
    ip,
    params,
    detail: detail.slice(0, 4000),
  };

  const photo: PhotoInput | null = event.snapshot
    ? {
        time: event.at,
        site: siteName.slice(0, 255),
        ip: event.client_ip,
        method: event.method.slice(0, 16),
        url: event.target,
        headers: event.snapshot.headers,
        post_data: event.snapshot.body,
        kind,
      }
    : null;

  const timed =
    event.type === 'intercept' && event.intercept ? { list: 'intercept' as const, entry: event.intercept }
    : event.type === 'authorize' && event.author ? { list: 'author' as const, entry: event.author }
    : null;

  const alerting = event.alert && alert.enabled && (event.type === 'block' || event.type === 'intercept');
  const notice: NoticeInput | null = alerting
    ? {
        kind: 'website_attack',
        params: { ip: event.client_ip, site: siteName, method: event.method, url: event.target.slice(0, 200), rule, methods: alert.methods.join(',') },
        dedupe_key: `website_attack:${event.client_ip}:${rule}:${localDay(event.at)}`.slice(0, 128),
      }
    : null;

  return { event: record, photo, timed, notice };
}
