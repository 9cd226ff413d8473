import { z } from 'zod';
import type { DynamicAttack } from './dynamic.ts';

export const wsTopics = ['chat', 'rates', 'notice', 'attack'] as const;
export const wsTopicSchema = z.enum(wsTopics);
export type WsTopic = z.infer<typeof wsTopicSchema>;

/** What a client sends: subscribe or unsubscribe a topic, or post a chat line to every subscriber. */
export const wsClientMessageSchema = z.discriminatedUnion('act', [
  z.object({ act: z.literal('sub'), data: wsTopicSchema }),
  z.object({ act: z.literal('unsub'), data: wsTopicSchema }),
  z.object({ act: z.literal('chat'), data: z.object({ text: z.string().trim().min(1).max(500) }) }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

/** What the server pushes: `act` names the topic. */
export const chatMessageSchema = z.object({ from: z.string(), text: z.string(), at: z.number() });
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type WsServerMessage =
  | { act: 'chat'; data: ChatMessage }
  | { act: 'rates'; data: { rx: number; tx: number; at: number } }
  | { act: 'notice'; data: { unread: number } }
  /** New attacks since the last push, newest first (situational awareness). */
  | { act: 'attack'; data: { list: DynamicAttack[] } }
  | { act: 'error'; data: { msg: string } };
