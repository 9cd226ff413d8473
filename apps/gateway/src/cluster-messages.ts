import type { GatewayConfig, GatewayEventRecord, GatewayTimedLists, WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import type { GeoIpOptions } from '@rampart/geoip';
import type { GatewayEvent } from './inspector.ts';

/*
 * What the primary and its workers say to each other over node:cluster IPC. The shared policy state
 * (timed lists, CC / 404 counts, events) travels as a few kinds of batched messages so that no
 * request waits for IPC: a worker reports its counts and events every `syncEveryMs`, the primary
 * answers with "over" marks and relays timed-list changes to every worker.
 */

export type CountKind = 'cc' | 'not_found';
export type TimedListName = 'intercepted' | 'authorized';

/** [kind, site id, ip, requests since the last report, the threshold the caller used]. */
export type CountReport = [kind: CountKind, siteId: string, ip: string, n: number, perMinute: number];
/** [kind, site id, ip, over until (ms)]: the cluster-wide count is above the threshold until then. */
export type OverMark = [kind: CountKind, siteId: string, ip: string, until: number];

export type TimedChange =
  | { op: 'add'; list: 'intercepted'; entries: WebsiteInterceptEntry[] }
  | { op: 'add'; list: 'authorized'; entries: WebsiteAuthorEntry[] }
  | { op: 'remove'; list: TimedListName; ips: string[] };

export interface WorkerStart {
  type: 'config';
  /** `policy.timed` here is the primary's merged copy (the file's lists plus runtime changes). */
  config: GatewayConfig;
  inspectorModule?: string;
  exposeWorker: boolean;
  /**
   * Send the per-request notice of every decision (`{ type: 'event' }`)? Only when the primary has
   * an onEvent (stdout event lines): otherwise a flood would cost one IPC message per blocked request
   * that the primary throws away (the console gets events from the batched `sync`). Absent = yes.
   */
  notices?: boolean;
  /** The timed lists as they are now (also in `config.policy.timed` when there is a policy). */
  timed?: GatewayTimedLists;
  /** Geo-IP sources and the parsed-table cache the primary prepared (geo-areas.ts). */
  geo?: GeoIpOptions;
  /** DNS servers for the fake-spider check ('127.0.0.1:5353'); default: the system's. */
  dnsServers?: string[];
}

export type ToWorker =
  | WorkerStart
  | { type: 'drain'; graceMs: number }
  /** The answer to `listeners-closed`: no connection is on its way to this worker any more. */
  | { type: 'released' }
  | { type: 'timed'; change: TimedChange }
  | { type: 'over'; marks: OverMark[] }
  | { type: 'count-reset'; kind: CountKind; siteId: string; ip: string }
  | { type: 'spider'; ip: string; spider: string; verdict: 'genuine' | 'fake'; until: number };

export type FromWorker =
  | { type: 'ready'; addresses: Record<string, { address: string; port: number }> }
  | { type: 'failed'; reason: string }
  /** Sent after the worker closed its listeners, before it exits: asks for `released` (worker-main.ts). */
  | { type: 'listeners-closed' }
  /** The proxy's own block/record notice (inspector.ts), kept on stdout as before. */
  | { type: 'event'; event: GatewayEvent }
  | { type: 'log'; message: string }
  /** Batched: counts since the last sync, policy events, and how many events the worker had to drop. */
  | { type: 'sync'; counts: CountReport[]; events: GatewayEventRecord[]; dropped: number }
  | { type: 'timed'; change: TimedChange }
  | { type: 'count-reset'; kind: CountKind; siteId: string; ip: string }
  | { type: 'spider'; ip: string; spider: string; verdict: 'genuine' | 'fake'; until: number };

/** How often a worker reports counts and events (the lag of cluster-wide CC counts). */
export const syncEveryMs = 200;
