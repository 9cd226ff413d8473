import { describe, expect, it, vi } from 'vitest';
import { backoffMs, RealtimeSocket, socketUrl } from '../src/ws/socket.ts';
import { FakeWebSocket, installFakeWebSocket } from './helpers/fakeWebSocket.ts';

function started() {
  installFakeWebSocket();
  const socket = new RealtimeSocket(() => 'ws://console.test/ws', () => 'tok');
  socket.start();
  return socket;
}

describe('realtime socket', () => {
  it('uses ws: or wss: on the page host', () => {
    expect(socketUrl({ protocol: 'http:', host: '10.0.0.5:6688' })).toBe('ws://10.0.0.5:6688/ws');
    expect(socketUrl({ protocol: 'https:', host: 'panel.example' })).toBe('wss://panel.example/ws');
  });

  it('sends the token as the subprotocol and subscribes topics once open', () => {
    const socket = started();
    const got: unknown[] = [];
    socket.subscribe('notice', (d) => got.push(d));
    const ws = FakeWebSocket.latest()!;
    expect(ws.protocols).toEqual(['tok']);
    expect(ws.sent).toEqual([]);
    ws.open();
    expect(ws.sent).toEqual([{ act: 'sub', data: 'notice' }]);
    ws.push({ act: 'notice', data: { unread: 7 } });
    ws.push({ act: 'rates', data: { rx: 1, tx: 1, at: 1 } });
    expect(got).toEqual([{ unread: 7 }]);
  });

  it('unsubscribes when the last listener leaves', () => {
    const socket = started();
    FakeWebSocket.latest()!.open();
    const off = socket.subscribe('rates', () => {});
    off();
    expect(FakeWebSocket.latest()!.sent).toEqual([{ act: 'sub', data: 'rates' }, { act: 'unsub', data: 'rates' }]);
  });

  it('reconnects with a growing delay and subscribes again', () => {
    vi.useFakeTimers();
    const socket = started();
    socket.subscribe('chat', () => {});
    FakeWebSocket.latest()!.drop();
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(backoffMs(0));
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest()!.drop();
    vi.advanceTimersByTime(backoffMs(0));
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(backoffMs(1) - backoffMs(0));
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.latest()!.open();
    expect(FakeWebSocket.latest()!.sent).toEqual([{ act: 'sub', data: 'chat' }]);
    expect(backoffMs(20)).toBe(30_000);
  });

  it('does not reconnect after stop()', () => {
    vi.useFakeTimers();
    const socket = started();
    socket.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
