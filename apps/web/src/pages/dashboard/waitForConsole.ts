import { fetchGlobal } from '../../api/endpoints.ts';

/** Spec, sections 4 and 9: after a restart the client polls up to 20 times at 1 s intervals. */
export const restartPollTries = 20;
export const restartPollIntervalMs = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves true as soon as the console answers GET /global again, false after every try failed. */
export async function waitForConsole(
  probe: () => Promise<unknown> = () => fetchGlobal({ quiet: true }),
  tries = restartPollTries,
  intervalMs = restartPollIntervalMs,
): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    await sleep(intervalMs);
    try {
      await probe();
      return true;
    } catch {
      // still down; try again
    }
  }
  return false;
}
