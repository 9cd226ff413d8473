import {
  terminalBeatSeconds, terminalGraceSeconds, terminalResumeHours, type TerminalRow, type TerminalState, type TerminalStatus,
} from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import {
  deleteTerminal, findTerminalByToken, listTerminals, updateTerminal, type TerminalRecord, type TerminalWithAccount,
} from '../db/trust-terminals.ts';
import { hashToken, tokenPattern } from '../security/tokens.ts';
import { clientAddress } from '../portal/addresses.ts';
import { portalRuntime } from '../portal/runtime.ts';

/*
 * The trust terminal's hold on its address (contracts/trust-terminal.ts says what it is and the
 * readings taken). The console keeps one row per signed-in terminal; the super-whitelist entry is the
 * agent's, added with an end a few minutes ahead and moved on by each beat, so the address stops
 * being trusted by itself (the agent's expiry and the kernel element's own timeout) when the beats
 * stop, even if the console is gone.
 */

export const graceMs = terminalGraceSeconds * 1000;
const resumeMs = terminalResumeHours * 3_600_000;

/** The trust terminal a token stands for, if its account may still sign in. */
export function liveTerminal(ctx: ConsoleContext, token: string | undefined): TerminalWithAccount | null {
  if (!token || !tokenPattern.test(token)) return null;
  const terminal = findTerminalByToken(ctx.db, hashToken(token));
  return terminal && terminal.status === 1 ? terminal : null;
}

/** Headers a proxy adds: with any of them the peer address is the proxy's, shared by whoever is behind it. */
const proxyHeaders = ['via', 'forwarded', 'x-forwarded-for', 'x-real-ip', 'x-client-ip', 'client-ip', 'true-client-ip', 'cf-connecting-ip'];

export function proxyHeadersOf(headers: Record<string, string | string[] | undefined>): string[] {
  return proxyHeaders.filter((name) => headers[name] !== undefined);
}

/** Live terminals of other accounts beating from `ip`: the address is shared. */
export function sharedWith(ctx: ConsoleContext, ip: string, userId: number): number {
  const accounts = new Set(listTerminals(ctx.db).filter((t) => t.ip === ip && t.user_id !== userId && t.lapsed_at === null).map((t) => t.user_id));
  return accounts.size;
}

export function areasOf(ctx: ConsoleContext, ip: string): string[] {
  return portalRuntime(ctx).areasOf(clientAddress(ip));
}

export function stateOf(row: Pick<TerminalRecord, 'trusted_until' | 'covered' | 'lapsed_at'>, now: number): TerminalState {
  if (row.covered) return 'covered';
  if (row.trusted_until !== null) return row.trusted_until > now ? 'trusted' : 'lapsed';
  return row.lapsed_at !== null ? 'lapsed' : 'signed_in';
}

export function statusOf(row: TerminalWithAccount, now: number): TerminalStatus {
  return {
    account: row.username, ip: clientAddress(row.ip), state: stateOf(row, now), started_at: row.started_at, last_beat: row.last_beat,
    trusted_until: row.trusted_until, keep_until: row.keep_until, beat_seconds: terminalBeatSeconds, grace_seconds: terminalGraceSeconds,
  };
}

export function rowOf(ctx: ConsoleContext, row: TerminalWithAccount, now: number): TerminalRow {
  return {
    id: row.id, account: row.username, ip: clientAddress(row.ip), areas: areasOf(ctx, row.ip), proxied: row.proxied === 1,
    state: stateOf(row, now), started_at: row.started_at, last_beat: row.last_beat, trusted_until: row.trusted_until,
    keep_until: row.keep_until, user_agent: row.user_agent,
  };
}

type EventKind = 'terminal.signed_in' | 'terminal.started' | 'terminal.beat_gap' | 'terminal.expired' | 'terminal.stopped' | 'terminal.ended';

export function recordTerminalEvent(
  ctx: ConsoleContext, kind: EventKind, row: Pick<TerminalWithAccount, 'username' | 'ip'>, level: 'info' | 'warning', extra: Record<string, string | number> = {},
): void {
  const ip = clientAddress(row.ip);
  ctx.events.record({ kind, module: 'system', level, source: 'console', account: row.username, ip, params: { account: row.username, ip, ...extra } });
}

/**
 * Holds the terminal's address until a few minutes from now (or the end the account chose, if later).
 * Returns the fields to store: an address another source lists is left alone and marks the terminal covered.
 */
export async function holdAddress(
  ctx: ConsoleContext, row: TerminalWithAccount, now: number,
): Promise<Pick<TerminalRecord, 'trusted_until' | 'covered' | 'lapsed_at'>> {
  const until = Math.max(now + graceMs, row.keep_until ?? 0);
  const held = await ctx.agent.call('trust.hold', { ip: clientAddress(row.ip), added_by: row.username, expires_at: until });
  return held.held ? { trusted_until: until, covered: 0, lapsed_at: null } : { trusted_until: null, covered: 1, lapsed_at: null };
}

/** Ends the hold on the terminal's address, unless another live terminal still holds the same address. */
export async function releaseAddress(ctx: ConsoleContext, row: TerminalWithAccount, now: number): Promise<void> {
  if (row.trusted_until === null || row.trusted_until <= now) return;
  const others = listTerminals(ctx.db).some((t) => t.id !== row.id && t.ip === row.ip && t.trusted_until !== null && t.trusted_until > now);
  if (!others) await ctx.agent.call('trust.release', { ip: clientAddress(row.ip) });
  ctx.policy.changed();
}

/**
 * Ends terminals whose account changed under them (disabled, deleted, a new password or role): each
 * address lets go of the trust it held at once, and `by` is recorded as who ended it.
 */
export async function endTerminals(ctx: ConsoleContext, rows: readonly TerminalWithAccount[], by: string): Promise<void> {
  for (const row of rows) {
    await releaseAddress(ctx, row, ctx.now()).catch(() => undefined);
    deleteTerminal(ctx.db, row.id);
    recordTerminalEvent(ctx, 'terminal.ended', row, 'info', { by });
  }
}

export function terminalsOf(ctx: ConsoleContext, userId: number): TerminalWithAccount[] {
  return listTerminals(ctx.db).filter((row) => row.user_id === userId);
}

/**
 * The minute check: a hold whose end passed (no beat for the grace time) is an expiry event — the
 * agent has already let the entry go; a terminal silent for longer than it may resume is forgotten.
 */
export function sweepTerminals(ctx: ConsoleContext, now: number): void {
  let lapsed = false;
  for (const row of listTerminals(ctx.db)) {
    if (row.trusted_until !== null && row.trusted_until <= now) {
      updateTerminal(ctx.db, row.id, { trusted_until: null, lapsed_at: now });
      recordTerminalEvent(ctx, 'terminal.expired', row, 'warning', { minutes: Math.round((now - row.last_beat) / 60_000) });
      lapsed = true;
    }
    if (now - row.last_beat > resumeMs) deleteTerminal(ctx.db, row.id);
  }
  if (lapsed) ctx.policy.changed();
}

export function startTerminalSweeper(ctx: ConsoleContext, intervalMs = 30_000): () => void {
  const timer = setInterval(() => {
    try {
      sweepTerminals(ctx, ctx.now());
    } catch {
      // A locked database or a closing console: the next round tries again.
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
