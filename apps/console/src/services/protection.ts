import type { ProtectionMode, ProtectionState } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';

export interface ProtectionStatus {
  mode: ProtectionMode;
  minutes_left: number | null;
}

/*
 * System protection belongs to the agent (it keeps working, and its timer resumes protection,
 * while the console is down); the console asks it and remembers the last answer for a moment
 * when the agent is away.
 */
const lastKnown = new WeakMap<ConsoleContext, ProtectionState>();

/** The agent's protection state, or null while the agent is away. */
export async function readProtection(ctx: ConsoleContext): Promise<ProtectionState | null> {
  try {
    const state = await ctx.agent.call('protection.get', {});
    lastKnown.set(ctx, state);
    return state;
  } catch {
    return null;
  }
}

/** Protection for the dashboard. With the agent away: the last state seen (the dashboard says the agent is away beside it). */
export async function protectionStatus(ctx: ConsoleContext): Promise<ProtectionStatus> {
  const state = (await readProtection(ctx)) ?? lastKnown.get(ctx) ?? null;
  if (!state) return { mode: 'on', minutes_left: null };
  if (state.mode === 'temp_off' && state.until !== null && state.until <= ctx.now()) return { mode: 'on', minutes_left: null };
  return { mode: state.mode, minutes_left: state.minutes_left };
}

/** Sets the mode on the agent, which records the event (and, for a temporary disable, the notice). Throws when the agent is away. */
export async function setProtection(
  ctx: ConsoleContext, mode: ProtectionMode, minutes: number | undefined, actor: { account: string; ip?: string },
): Promise<ProtectionState> {
  const state = await ctx.agent.call('protection.set', { mode, ...(minutes !== undefined ? { minutes } : {}), account: actor.account, ip: actor.ip ?? '' });
  lastKnown.set(ctx, state);
  if (mode === 'temp_off') void ctx.noticeFeed.refresh();
  // The website gateway inspects nothing while protection is paused: it learns it now (services/policy-signal.ts).
  ctx.policy.changed();
  return state;
}

/** Turns protection off for `minutes`; it comes back by itself when the time is up. */
export async function pauseProtection(ctx: ConsoleContext, minutes: number, account: string): Promise<void> {
  await setProtection(ctx, 'temp_off', minutes, { account });
}

/** Turns protection back on now. */
export async function resumeProtection(ctx: ConsoleContext, account: string): Promise<void> {
  await setProtection(ctx, 'on', undefined, { account });
}
