import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ClockSetter } from './ntp-service.ts';

const run = promisify(execFile);

/**
 * The production clock setter: `date -u -s @<seconds.fraction>` (coreutils; needs root). A step,
 * not a slew: SNTP is for hosts without a full NTP daemon, and the page asks for the time now.
 * `dry` (RAMPART_DRY_CLOCK=1, set by the browser tests) only logs.
 */
export function systemClockSetter(options: { dry: boolean; log: (line: string) => void }): ClockSetter {
  return async (epochMs) => {
    const stamp = `@${(epochMs / 1000).toFixed(3)}`;
    if (options.dry) {
      options.log(`ntp: would set the clock to ${new Date(epochMs).toISOString()} (dry run)`);
      return;
    }
    await run('date', ['-u', '-s', stamp], { timeout: 5000 });
  };
}
