import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import type { GatewayConfig, GatewayTimedCommand, WebsiteGatewayReport } from '@rampart/contracts';

/** Where the gateway's file and admin socket are (start.ts: `<data>/gateway/gateway.json`, `<data>/run/gateway.sock`). */
export interface GatewayPaths {
  configFile: string;
  adminSocket: string;
}

/**
 * Defaults as the CLI lays the data directory out; `beside` (the panel database's folder) stands in
 * when the console runs without RAMPART_DATA_DIR (tests, a development checkout).
 */
export function defaultGatewayPaths(beside: string): GatewayPaths {
  const dataDir = process.env.RAMPART_DATA_DIR;
  const root = dataDir ?? beside;
  return {
    configFile: process.env.RAMPART_GATEWAY_CONFIG ?? join(root, 'gateway', 'gateway.json'),
    adminSocket: process.env.RAMPART_GATEWAY_ADMIN_SOCKET ?? join(root, 'run', 'gateway.sock'),
  };
}

/**
 * Writes the file atomically (a temporary file in the same folder, flushed, then renamed): the
 * gateway reads it at any moment (start, SIGHUP) and must never see half of it. Mode 0640: it holds
 * TLS private keys in clear, which the gateway needs to serve HTTPS.
 */
export function writeGatewayConfig(file: string, config: GatewayConfig): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o750 });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o640);
  try {
    writeSync(fd, JSON.stringify(config, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** What one admin command came back with. */
export type GatewayAnswer =
  | { state: 'answer'; value: unknown }
  /** No socket, or nobody on it: the gateway is not running. */
  | { state: 'not_running' }
  | { state: 'unreachable'; reason: string }
  /** It answered nothing in time, or something that is not one JSON line. */
  | { state: 'unreadable'; reason: string };

/**
 * One admin command over the gateway's socket (apps/gateway/src/admin-socket.ts): one line out,
 * one JSON line back. The console does not depend on the gateway package; the protocol is one
 * line each way. `maxBytes` bounds what is buffered of the answer.
 */
export function askGateway(socketPath: string, line: string, options: { timeoutMs: number; maxBytes: number }): Promise<GatewayAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (answer: GatewayAnswer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(options.timeoutMs, () => finish({ state: 'unreadable', reason: 'no answer from the gateway' }));
    socket.on('connect', () => socket.write(`${line}\n`));
    socket.on('data', (chunk: Buffer) => {
      const nl = chunk.indexOf(0x0a);
      chunks.push(nl < 0 ? chunk : chunk.subarray(0, nl));
      size += chunk.length;
      if (nl < 0) return size > options.maxBytes ? finish({ state: 'unreadable', reason: 'unreadable answer' }) : undefined;
      try {
        finish({ state: 'answer', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        finish({ state: 'unreadable', reason: 'unreadable answer' });
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') finish({ state: 'not_running' });
      // EACCES: the socket belongs to another account (the gateway makes it 0600); the file is
      // written, the gateway takes it on its next start or SIGHUP — the user is told, not misled.
      else finish({ state: 'unreachable', reason: error.code === 'EACCES' ? 'permission denied on the admin socket' : error.message });
    });
  });
}

const reloadTimeoutMs = 30_000;

/**
 * Asks a running gateway to read the file again (`reload`). No socket, or nobody on it: the
 * gateway is not running and reads the file when it starts.
 */
export async function reloadGateway(socketPath: string): Promise<WebsiteGatewayReport> {
  const answer = await askGateway(socketPath, 'reload', { timeoutMs: reloadTimeoutMs, maxBytes: 65_536 });
  if (answer.state === 'not_running') return { state: 'not_running' };
  if (answer.state === 'unreachable') return { state: 'unreachable', reason: answer.reason };
  if (answer.state === 'unreadable') return { state: 'refused', reason: answer.reason };
  const value = answer.value as { ok?: unknown; reason?: unknown } | null;
  return value?.ok === true ? { state: 'reloaded' } : { state: 'refused', reason: typeof value?.reason === 'string' ? value.reason : 'refused' };
}

/** How a `timed` change reached the running gateway. */
export type TimedDelivery = { state: 'sent' } | { state: 'not_running' } | { state: 'refused' | 'unreachable'; reason: string };

/*
 * The admin socket takes a `timed` line of at most 4 MiB (admin-socket.ts maxTimedLine): a change
 * is cut into commands of at most 1 MiB each, so the largest removal (10,000 addresses) or an
 * addition with long remarks goes as a few lines instead of being refused whole.
 */
const timedLineBytes = 1024 * 1024;

/** Cuts one change into commands whose lines stay under `timedLineBytes`. */
export function timedCommandLines(command: GatewayTimedCommand, maxBytes = timedLineBytes): string[] {
  const items: unknown[] = command.op === 'add' ? command.entries : command.ips;
  const lines: string[] = [];
  let batch: unknown[] = [];
  const line = (part: unknown[]) => `timed ${JSON.stringify(command.op === 'add' ? { ...command, entries: part } : { ...command, ips: part })}`;
  // Sizes add up item by item (the JSON of an array is its items, commas and the brackets).
  const overhead = Buffer.byteLength(line([]));
  let size = overhead;
  for (const item of items) {
    const bytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (batch.length > 0 && size + bytes > maxBytes) {
      lines.push(line(batch));
      batch = [];
      size = overhead;
    }
    batch.push(item);
    size += bytes;
  }
  if (batch.length > 0) lines.push(line(batch));
  return lines;
}

/**
 * Sends a change of a timed list to the running gateway (`timed <json>`), applied there at once
 * without a reload. Not running: nothing to do, it reads the lists from its file when it starts.
 */
export async function sendTimedCommand(socketPath: string, command: GatewayTimedCommand): Promise<TimedDelivery> {
  for (const line of timedCommandLines(command)) {
    const answer = await askGateway(socketPath, line, { timeoutMs: 5000, maxBytes: 65_536 });
    if (answer.state === 'not_running') return answer;
    if (answer.state === 'unreachable') return answer;
    if (answer.state === 'unreadable') return { state: 'refused', reason: answer.reason };
    const value = answer.value as { ok?: unknown; reason?: unknown } | null;
    if (value?.ok !== true) return { state: 'refused', reason: typeof value?.reason === 'string' ? value.reason : 'refused' };
  }
  return { state: 'sent' };
}

/** Answers of `events` are at most 1000 events, each with a snapshot of at most ~1 MB: bounded well above what a full drain takes. */
const drainMaxBytes = 256 * 1024 * 1024;

/** Drains the gateway's buffered events (`events`): the raw answer, checked by the caller. */
export function drainGatewayEvents(socketPath: string): Promise<GatewayAnswer> {
  return askGateway(socketPath, 'events', { timeoutMs: 10_000, maxBytes: drainMaxBytes });
}
