import type { AgentPort } from '../context.ts';
import type { Hub } from './hub.ts';
import { pollWhileWatched } from './topic-poll.ts';

/** Polls the agent's network rates once a second while anyone watches the `rates` topic (the dashboard says from /home/index when the agent is away). */
export function startRatesFeed(hub: Hub, agent: AgentPort, intervalMs = 1000): () => void {
  return pollWhileWatched(hub, 'rates', intervalMs, async () => {
    hub.publish({ act: 'rates', data: await agent.call('host.rates', {}) });
  });
}
