import type { WsServerMessage, WsTopic } from '@rampart/contracts';

export interface HubClient {
  /** Sends one message; the websocket route wires this to the socket. */
  send(message: WsServerMessage): void;
  close(): void;
  userId: number;
  tokenHash: string;
}

/** Topic subscriptions of connected websocket clients; publishing fans out to subscribers. */
export class Hub {
  private readonly topics = new Map<WsTopic, Set<HubClient>>();
  private readonly clients = new Set<HubClient>();
  private readonly listeners = new Set<(topic: WsTopic, count: number) => void>();

  add(client: HubClient): void {
    this.clients.add(client);
  }

  remove(client: HubClient): void {
    this.clients.delete(client);
    for (const topic of this.topics.keys()) this.unsubscribe(client, topic);
  }

  subscribe(client: HubClient, topic: WsTopic): void {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    if (set.has(client)) return;
    set.add(client);
    this.emitCount(topic);
  }

  unsubscribe(client: HubClient, topic: WsTopic): void {
    if (this.topics.get(topic)?.delete(client)) this.emitCount(topic);
  }

  subscribers(topic: WsTopic): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  publish(message: WsServerMessage): void {
    const set = this.topics.get(message.act as WsTopic);
    if (!set) return;
    for (const client of set) client.send(message);
  }

  /** The sessions (token hashes) with a websocket open now: their browsers are running the console. */
  connectedTokens(): Set<string> {
    return new Set([...this.clients].map((client) => client.tokenHash));
  }

  /** Ends the sockets of a session (sign-out) or of a user (password change). */
  closeWhere(match: (client: HubClient) => boolean): void {
    for (const client of [...this.clients]) if (match(client)) client.close();
  }

  /** Lets feeds start and stop with their first and last subscriber. */
  onSubscriberCount(listener: (topic: WsTopic, count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emitCount(topic: WsTopic): void {
    const count = this.subscribers(topic);
    for (const l of this.listeners) l(topic, count);
  }
}
