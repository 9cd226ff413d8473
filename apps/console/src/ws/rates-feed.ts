import type { AgentPort } from '../context.ts';
import type { Hub } from './hub.ts';

/** Polls the agent's network rates once a second while anyone watches the `rates` topic. */
export function startRatesFeed(hub: Hub, agent: AgentPort, intervalMs = 1000): () => void {
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const rates = await agent.call('host.rates', {});
      hub.publish({ act: 'rates', data: rates });
    } catch {
      // The agent is away; the dashboard says so from /home/index. Try again next tick.
    } finally {
      busy = false;
    }
  };
  const stopListening = hub.onSubscriberCount((topic, count) => {
    if (topic !== 'rates') return;
    if (count > 0 && !timer) {
      void tick();
      timer = setInterval(() => void tick(), intervalMs);
    } else if (count === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  });
  return () => {
    stopListening();
    if (timer) clearInterval(timer);
  };
}
