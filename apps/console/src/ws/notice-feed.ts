import type { AgentPort } from '../context.ts';
import type { Hub } from './hub.ts';

export interface NoticeFeed {
  /** Pushes the current unread count now (after the console changed notices). */
  refresh(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the header badge live: while anyone watches the `notice` topic, polls the agent's unread
 * count (the agent raises notices on its own, e.g. on an attack) and pushes it when it changes.
 */
export function startNoticeFeed(hub: Hub, agent: AgentPort, intervalMs = 2000): NoticeFeed {
  let timer: NodeJS.Timeout | undefined;
  let last: number | undefined;
  const poll = async (force: boolean) => {
    if (hub.subscribers('notice') === 0) return;
    try {
      const { unread } = await agent.call('notices.unread', {});
      if (force || unread !== last) hub.publish({ act: 'notice', data: { unread } });
      last = unread;
    } catch {
      // The agent is away: keep the last count; the next poll tries again.
    }
  };
  const stopListening = hub.onSubscriberCount((topic, count) => {
    if (topic !== 'notice') return;
    if (count > 0 && !timer) {
      timer = setInterval(() => void poll(false), intervalMs);
    } else if (count === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
      last = undefined;
    }
  });
  return {
    refresh: () => poll(true),
    stop: () => {
      stopListening();
      if (timer) clearInterval(timer);
    },
  };
}
