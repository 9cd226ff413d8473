import type { AgentPort } from '../context.ts';
import type { Hub } from './hub.ts';
import { pollWhileWatched } from './topic-poll.ts';

/**
 * The live attack map: while anyone watches the `attack` topic, polls the agent's newest attacks
 * (one small indexed read; the store writes within 100 ms) and pushes those not pushed yet, so a
 * block shows on an open map within a second.
 */
export function startAttackFeed(hub: Hub, agent: AgentPort, intervalMs = 400): () => void {
  // The newest id seen; undefined until the first poll, which only sets the mark (the page loads the list itself).
  let lastId: number | undefined;
  return pollWhileWatched(
    hub,
    'attack',
    intervalMs,
    async () => {
      const list = await agent.call('dynamic.latest', {});
      const newest = list.reduce((max, a) => Math.max(max, a.id), lastId ?? 0);
      const fresh = lastId === undefined ? [] : list.filter((a) => a.id > lastId!);
      lastId = newest;
      if (fresh.length > 0) hub.publish({ act: 'attack', data: { list: fresh } });
    },
    () => {
      lastId = undefined;
    },
  );
}
