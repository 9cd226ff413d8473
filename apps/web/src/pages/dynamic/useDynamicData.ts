import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DynamicAttack, DynamicOverview } from '@rampart/contracts';
import { useTopic } from '../../ws/hooks.ts';
import { dynamicKey, fetchConnections, fetchOverview, fetchPerformance, fetchSettings } from './api.ts';

/** Figures refresh every 30 s; attacks arrive at once over the websocket's `attack` topic. */
export const refreshMs = 30_000;
/** After a failed call (agent or console down) the page asks again sooner, so it recovers soon after the cause goes. */
export const errorRetryMs = 5_000;
const pollMs = (query: { state: { status: string } }) => (query.state.status === 'error' ? errorRetryMs : refreshMs);
const latestShown = 30;

/** A pushed attack folded into the figures the page holds: the list, today's and the total count. */
export function withPushed(overview: DynamicOverview, pushed: readonly DynamicAttack[]): DynamicOverview {
  const known = new Set(overview.latest.map((a) => a.id));
  const fresh = pushed.filter((a) => !known.has(a.id));
  if (fresh.length === 0) return overview;
  return {
    ...overview,
    latest: [...fresh, ...overview.latest].slice(0, latestShown),
    counts: { ...overview.counts, today: overview.counts.today + fresh.length, total: overview.counts.total + fresh.length },
  };
}

/** A short tone per pushed block when the attack sound is on (no audio device: silent). */
function beep(): void {
  try {
    const Context = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Context) return;
    const audio = new Context();
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
    tone.onended = () => void audio.close();
  } catch {
    // The browser refused audio (no gesture yet): the map still shows the block.
  }
}

export function useDynamicData() {
  const queryClient = useQueryClient();
  const overview = useQuery({ queryKey: [...dynamicKey, 'overview'], queryFn: fetchOverview, refetchInterval: pollMs });
  const connections = useQuery({ queryKey: [...dynamicKey, 'connections'], queryFn: fetchConnections, refetchInterval: pollMs });
  const performance = useQuery({ queryKey: [...dynamicKey, 'performance'], queryFn: fetchPerformance, refetchInterval: pollMs });
  const settings = useQuery({ queryKey: [...dynamicKey, 'settings'], queryFn: fetchSettings, refetchInterval: (query) => (query.state.status === 'error' ? errorRetryMs : false) });
  useTopic('attack', ({ list }) => {
    queryClient.setQueryData<DynamicOverview>([...dynamicKey, 'overview'], (old) => (old ? withPushed(old, list) : old));
    if (settings.data?.sound) beep();
  });
  /** Asks for every figure now (the retry button), besides the polling. */
  const retry = () => void queryClient.refetchQueries({ queryKey: dynamicKey, type: 'active' });
  return { overview, connections, performance, settings, retry };
}
