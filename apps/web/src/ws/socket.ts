import type { ChatMessage, DynamicAttack, NetRates, WsTopic } from '@rampart/contracts';

/** What the server pushes per topic (`{act: topic, data}`). */
export interface TopicPayloads {
  chat: ChatMessage;
  rates: NetRates;
  notice: { unread: number };
  attack: { list: DynamicAttack[] };
}

type Listener<T> = (data: T) => void;

/** Reconnect delays: 1 s, doubling, at most 30 s — quick after a console restart, gentle when it stays down. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt);
}

/** The websocket on the page's own host; the console serves /ws beside the app. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/**
 * One websocket per signed-in page. The token travels as the subprotocol (browsers cannot set headers
 * on a websocket). Topics are subscribed while someone listens and re-subscribed after a reconnect.
 */
export class RealtimeSocket {
  private ws: WebSocket | null = null;
  private open = false;
  private stopped = true;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Map<WsTopic, Set<Listener<never>>>();
  private readonly statusListeners = new Set<(open: boolean) => void>();

  private readonly url: () => string;
  private readonly token: () => string | null;

  constructor(url: () => string, token: () => string | null) {
    this.url = url;
    this.token = token;
  }

  get connected(): boolean {
    return this.open;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.setOpen(false);
  }

  subscribe<K extends WsTopic>(topic: K, listener: Listener<TopicPayloads[K]>): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    const first = set.size === 0;
    set.add(listener as Listener<never>);
    if (first) this.send({ act: 'sub', data: topic });
    return () => {
      set.delete(listener as Listener<never>);
      if (set.size === 0) this.send({ act: 'unsub', data: topic });
    };
  }

  onStatus(listener: (open: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private send(message: { act: 'sub' | 'unsub'; data: WsTopic }): void {
    if (this.open && this.ws) this.ws.send(JSON.stringify(message));
  }

  private setOpen(open: boolean): void {
    if (this.open === open) return;
    this.open = open;
    this.statusListeners.forEach((l) => l(open));
  }

  private connect(): void {
    const token = this.token();
    if (!token || this.stopped) return;
    const ws = new WebSocket(this.url(), [token]);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.setOpen(true);
      for (const [topic, set] of this.listeners) if (set.size > 0) this.send({ act: 'sub', data: topic });
    };
    ws.onmessage = (event: MessageEvent) => this.dispatch(event.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.setOpen(false);
      if (!this.stopped) this.retryTimer = setTimeout(() => this.connect(), backoffMs(this.attempts++));
    };
  }

  private dispatch(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: { act?: unknown; data?: unknown };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return; // not ours; ignore rather than break the page
    }
    const set = typeof message.act === 'string' ? this.listeners.get(message.act as WsTopic) : undefined;
    set?.forEach((l) => (l as Listener<unknown>)(message.data));
  }
}
