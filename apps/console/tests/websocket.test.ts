import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHarness, type Harness } from './support/harness.ts';

let h: Harness;
let url: string;
let token: string;
const open: WebSocket[] = [];

beforeEach(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(h.app.server.address() as { port: number }).port}/ws`;
});
afterEach(async () => {
  for (const ws of open) ws.terminate();
  await h.close();
});

function connect(t: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, t ? [t] : []);
    open.push(ws);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function next(ws: WebSocket, act: string): Promise<{ act: string; data: Record<string, unknown> }> {
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData) => {
      const m = JSON.parse(raw.toString());
      if (m.act === act) {
        ws.off('message', onMessage);
        resolve(m);
      }
    };
    ws.on('message', onMessage);
  });
}

describe('websocket /ws', () => {
  it('refuses a connection without a valid token', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect('A'.repeat(43))).rejects.toThrow('HTTP 401');
  });

  it('accepts the token as subprotocol and streams live rates to subscribers', async () => {
    const ws = await connect(token);
    expect(ws.protocol).toBe(token);
    ws.send(JSON.stringify({ act: 'sub', data: 'rates' }));
    const m = await next(ws, 'rates');
    expect(m.data.rx).toBeGreaterThanOrEqual(0);
    expect(m.data.tx).toBeGreaterThanOrEqual(0);
  });

  it('keeps the notice badge live: the count on subscribing, then each change, whoever raised it', async () => {
    const ws = await connect(token);
    const first = next(ws, 'notice');
    ws.send(JSON.stringify({ act: 'sub', data: 'notice' }));
    expect((await first).data).toEqual({ unread: 0 });
    // The agent raises a notice on its own (as a detection would): the poll picks it up.
    const raised = next(ws, 'notice');
    await h.agentClient.call('notices.raise', { kind: 'attack', params: { module: 'firewall', summary: 'port scan from 192.0.2.1' } });
    expect((await raised).data).toEqual({ unread: 1 });
    // A change made through the console is pushed at once.
    const read = next(ws, 'notice');
    await h.app.inject({ method: 'POST', url: '/magapi/log/notice/readed?ids=all', headers: { authorization: `Bearer ${token}` } });
    expect((await read).data).toEqual({ unread: 0 });
  });

  it('broadcasts chat to every subscriber, and answers bad messages without dropping the socket', async () => {
    const a = await connect(token);
    const b = await connect(await h.login('admin', (await registeredPassword())));
    for (const ws of [a, b]) ws.send(JSON.stringify({ act: 'sub', data: 'chat' }));
    await new Promise((r) => setTimeout(r, 50));
    a.send('not json');
    expect((await next(a, 'error')).data.msg).toBeTruthy();
    a.send(JSON.stringify({ act: 'chat', data: { text: 'maintenance at 22:00' } }));
    const got = await next(b, 'chat');
    expect(got.data).toMatchObject({ from: 'admin', text: 'maintenance at 22:00' });
  });

  it('does not give rates to a role without the home page, and closes sockets on logout', async () => {
    const auditor = await h.addUser('auditor');
    const ws = await connect(auditor.token);
    ws.send(JSON.stringify({ act: 'sub', data: 'rates' }));
    expect((await next(ws, 'error')).data.msg).toBeTruthy();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await h.app.inject({ method: 'POST', url: '/magapi/logout', headers: { authorization: `Bearer ${auditor.token}` } });
    expect(await closed).toBe(4001);
  });
});

let password: string | undefined;
async function registeredPassword(): Promise<string> {
  // The admin's password was returned once at registration; reset it to a known one for a second session.
  if (!password) {
    password = 'Second123';
    const { hashPassword } = await import('../src/security/passwords.ts');
    h.console.ctx.db.prepare("UPDATE users SET password_hash = ? WHERE username = 'admin'").run(await hashPassword(password));
  }
  return password;
}
