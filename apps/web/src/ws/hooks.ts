import { useEffect, useRef, useState } from 'react';
import type { WsTopic } from '@rampart/contracts';
import { useRealtime } from './RealtimeProvider.tsx';
import type { TopicPayloads } from './socket.ts';

/** Calls `handler` for every push on `topic` while the component is mounted. */
export function useTopic<K extends WsTopic>(topic: K, handler: (data: TopicPayloads[K]) => void): void {
  const socket = useRealtime();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => socket?.subscribe(topic, (d) => latest.current(d)), [socket, topic]);
}

/** Whether the websocket is open now (false outside the provider). */
export function useSocketOpen(): boolean {
  const socket = useRealtime();
  const [open, setOpen] = useState(() => socket?.connected ?? false);
  useEffect(() => {
    if (!socket) return;
    setOpen(socket.connected);
    return socket.onStatus(setOpen);
  }, [socket]);
  return open;
}
