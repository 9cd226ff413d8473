import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { NetRates } from '@rampart/contracts';
import { fetchPerformance } from '../../api/endpoints.ts';
import { useSocketOpen, useTopic } from '../../ws/hooks.ts';

export const ratesPollMs = 5000;

function newest(...candidates: (NetRates | null | undefined)[]): NetRates | null {
  return candidates.reduce<NetRates | null>((best, r) => (r && (!best || r.at >= best.at) ? r : best), null);
}

/** Network rates: pushed over the 'rates' topic; polled every 5 s only while the socket is down. */
export function useLiveRates(initial: NetRates | null, enabled: boolean): NetRates | null {
  const [pushed, setPushed] = useState<NetRates | null>(null);
  const open = useSocketOpen();
  useTopic('rates', setPushed);
  const polled = useQuery({
    queryKey: ['home', 'performance'],
    queryFn: fetchPerformance,
    enabled: enabled && !open,
    refetchInterval: ratesPollMs,
  });
  return newest(initial, pushed, enabled && !open ? polled.data : null);
}
