import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** For a test file: `cleanups` run after each test, last first; `tempDir()` makes a folder that goes with them. */
export function useCleanups(): { cleanups: (() => Promise<void> | void)[]; tempDir: () => Promise<string> } {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-detect-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  return { cleanups, tempDir };
}
