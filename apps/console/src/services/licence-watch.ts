import { localDay } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getRegistration } from '../db/registration.ts';

const day = 24 * 60 * 60 * 1000;
/** A notice is raised when the licence has this many days or fewer left. */
export const licenceWarnDays = 7;

/**
 * Raises the "licence about to expire" notice once per day while the licence has a week or less
 * left (the notice's dedupe key holds the day, so an unread one is not repeated).
 */
export async function checkLicenceExpiry(ctx: ConsoleContext): Promise<boolean> {
  const registration = getRegistration(ctx.db);
  if (!registration || registration.valid !== 1) return false;
  const now = ctx.now();
  const left = registration.expires_at - now;
  if (left <= 0 || left > licenceWarnDays * day) return false;
  const days = Math.ceil(left / day);
  try {
    const { id } = await ctx.agent.call('notices.raise', {
      kind: 'licence_expiring',
      params: { days, date: localDay(registration.expires_at) },
      dedupe_key: `licence_expiring:${localDay(now)}`,
    });
    if (id !== null) await ctx.noticeFeed.refresh();
    return id !== null;
  } catch {
    return false;
  }
}

export function startLicenceWatch(ctx: ConsoleContext, intervalMs = 60 * 60 * 1000): () => void {
  void checkLicenceExpiry(ctx);
  const timer = setInterval(() => void checkLicenceExpiry(ctx), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
