import type { AgentMethod, AgentParams, AgentResult } from '@rampart/contracts';
import type { Db } from './db/database.ts';
import type { LicenceClient } from './services/licence-client.ts';
import type { Hub } from './ws/hub.ts';
import type { EventSink } from './services/event-sink.ts';
import type { DownloadJobs } from './services/download-jobs.ts';
import type { NoticeFeed } from './ws/notice-feed.ts';
import type { PolicySignal } from './services/policy-signal.ts';

/** The agent as the console sees it: a validated call over the local socket. */
export interface AgentPort {
  call<M extends AgentMethod>(method: M, params: AgentParams<M>, options?: { timeoutMs?: number }): Promise<AgentResult<M>>;
}

/** Everything a route needs, built once per console and handed to each route module. */
export interface ConsoleContext {
  db: Db;
  agent: AgentPort;
  licence: LicenceClient;
  hub: Hub;
  deviceId: () => string;
  now: () => number;
  /** Administrative actions and sign-ins, on their way to the agent's event store. */
  events: EventSink;
  /** Packed event-log downloads. */
  downloads: DownloadJobs;
  /** Pushes the unread-notice count to the header badges. */
  noticeFeed: NoticeFeed;
  /** Tells the website gateway that a policy it carries changed outside the website routes (services/policy-signal.ts). */
  policy: PolicySignal;
}
