import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { EventInput, PhotoInput } from '@rampart/contracts';
import { openEventStore, type EventStore, type EventStoreOptions } from '../src/index.ts';

const dirs: string[] = [];
const stores: EventStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) {
    try {
      store.close();
    } catch {
      // closed by the test
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempPath(name = 'events.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-events-'));
  dirs.push(dir);
  return join(dir, name);
}

/** Opens a store in a fresh temp dir (closed after the test); the clock is fixed unless given. */
export function openTemp(options: EventStoreOptions = {}, path = tempPath()): { store: EventStore; path: string } {
  const store = openEventStore(path, { now: () => T0, ...options });
  stores.push(store);
  return { store, path };
}

/** Noon, 15 January 2025, local time. */
export const T0 = new Date(2025, 0, 15, 12).getTime();
export const hour = 3_600_000;
export const day = 24 * hour;

export function ev(over: Partial<EventInput> = {}): EventInput {
  return { kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'panel', ip: '10.0.0.1', time: T0, ...over };
}

/** An admin action: never folded. */
export function admin(over: Partial<EventInput> = {}): EventInput {
  return ev({ kind: 'panel.action', account: 'admin', params: { action: 'save', result: 'ok' }, ...over });
}

export function photo(over: Partial<PhotoInput> = {}): PhotoInput {
  return { ip: '10.0.0.1', method: 'GET', url: '/index.php?id=1', time: T0, ...over };
}
