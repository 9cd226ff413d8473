import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { feedback } from '../api/feedback.ts';
import { getToken } from '../storage/token.ts';
import { RealtimeSocket, socketUrl } from './socket.ts';

const RealtimeContext = createContext<RealtimeSocket | null>(null);

/** Opens the websocket for the signed-in layout and shows chat messages as info notifications. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const [socket] = useState(() => new RealtimeSocket(() => socketUrl(), getToken));
  useEffect(() => {
    socket.start();
    const offChat = socket.subscribe('chat', (m) => feedback().notifyInfo({ title: m.from, description: m.text }));
    return () => {
      offChat();
      socket.stop();
    };
  }, [socket]);
  return <RealtimeContext.Provider value={socket}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeSocket | null {
  return useContext(RealtimeContext);
}
