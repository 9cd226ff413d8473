import type { AgentMethod, AgentParams, AgentResult } from '@rampart/contracts';
import type { Db } from './db/database.ts';
import type { LicenceClient } from './services/licence-client.ts';
import type { Hub } from './ws/hub.ts';

/** The agent as the console sees it: a validated call over the local socket. */
export interface AgentPort {
  call<M extends AgentMethod>(method: M, params: AgentParams<M>): Promise<AgentResult<M>>;
}

/** Everything a route needs, built once per console and handed to each route module. */
export interface ConsoleContext {
  db: Db;
  agent: AgentPort;
  licence: LicenceClient;
  hub: Hub;
  deviceId: () => string;
  now: () => number;
}
