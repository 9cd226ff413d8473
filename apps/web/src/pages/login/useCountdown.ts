import { useEffect, useState } from 'react';

const secondsLeft = (until: number | null) => (until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000)));

/** Seconds left until `until` (ms), ticking once a second; 0 once passed or when `until` is null. */
export function useCountdown(until: number | null): number {
  const [seconds, setSeconds] = useState(() => secondsLeft(until));
  useEffect(() => {
    setSeconds(secondsLeft(until));
    if (until === null) return undefined;
    const timer = setInterval(() => {
      const now = secondsLeft(until);
      setSeconds(now);
      if (now === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}
