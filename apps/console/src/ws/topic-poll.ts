import type { WsTopic } from '@rampart/contracts';
import type { Hub } from './hub.ts';

/**
 * Runs `poll` every `intervalMs` while anyone watches `topic` (at once when the first subscriber
 * comes), never two at a time; `onIdle` runs when the last subscriber leaves. A poll that throws
 * (the agent is away) is tried again at the next tick. Returns the stop function.
 */
export function pollWhileWatched(hub: Hub, topic: WsTopic, intervalMs: number, poll: () => Promise<void>, onIdle: () => void = () => {}): () => void {
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await poll();
    } catch {
      // The agent is away; the next tick tries again.
    } finally {
      busy = false;
    }
  };
  const stopListening = hub.onSubscriberCount((watched, count) => {
    if (watched !== topic) return;
    if (count > 0 && !timer) {
      void tick();
      timer = setInterval(() => void tick(), intervalMs);
    } else if (count === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
      onIdle();
    }
  });
  return () => {
    stopListening();
    if (timer) clearInterval(timer);
  };
}
