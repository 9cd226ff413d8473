import { can, translate, wsClientMessageSchema, type PermissionKey, type WsServerMessage, type WsTopic } from '@rampart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { sessionAccess } from '../http/access.ts';
import type { HubClient } from './hub.ts';

/** What a role must hold to receive a topic. */
const topicPermission: Record<WsTopic, PermissionKey | null> = { chat: null, rates: 'home', notice: 'log', attack: 'dynamic' };

export function registerWebsocket(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get('/ws', { websocket: true, config: { access: sessionAccess } }, (socket, request) => {
    const user = request.user!;
    const client: HubClient = {
      userId: user.id,
      tokenHash: user.tokenHash,
      send: (message: WsServerMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
      close: () => socket.close(4001, 'session ended'),
    };
    ctx.hub.add(client);
    socket.on('close', () => ctx.hub.remove(client));
    socket.on('error', () => ctx.hub.remove(client));
    socket.on('message', (raw, isBinary) => {
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(raw.toString());
      } catch {
        parsed = undefined;
      }
      const message = wsClientMessageSchema.safeParse(parsed);
      if (!message.success) return client.send({ act: 'error', data: { msg: translate(request.lang, 'bad_request') } });
      const m = message.data;
      if (m.act === 'chat') {
        ctx.hub.publish({ act: 'chat', data: { from: user.username, text: m.data.text, at: ctx.now() } });
        return;
      }
      const needed = topicPermission[m.data];
      if (needed && !can(user.permissions, needed, 'get')) return client.send({ act: 'error', data: { msg: translate(request.lang, 'no_permission') } });
      if (m.act === 'unsub') return ctx.hub.unsubscribe(client, m.data);
      ctx.hub.subscribe(client, m.data);
      if (m.data === 'notice') {
        // The new subscriber gets the count at once; the agent being away just means no push yet.
        ctx.agent.call('notices.unread', {}).then((result) => client.send({ act: 'notice', data: result }), () => {});
      }
    });
  });
}
