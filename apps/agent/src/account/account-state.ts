import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { accountSettingsSchema } from '@rampart/contracts';
import { writeFileAtomic } from '../modules/atomic-write.ts';

/** User protection's own state, kept in <stateDir>/account.json: what to lock and a running unlock. */
const storedSchema = z.object({
  settings: accountSettingsSchema,
  /** ms since the epoch when a timed unlock ends, or null. */
  unlocked_until: z.number().int().nullable(),
});
export type AccountState = z.infer<typeof storedSchema>;

/**
 * Default: nothing chosen to lock. Switching the module on (alone or with "all basic modules") then
 * locks nothing until the administrator ticks the account files on the page: a module switch never
 * freezes /etc/passwd by surprise (nor on a test host whose tests walk every module switch).
 */
export const defaultAccountState = (): AccountState => ({ settings: { lock_files: false, locked_groups: [] }, unlocked_until: null });

export async function loadAccountState(file: string, log: (line: string) => void): Promise<AccountState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return defaultAccountState();
  }
  const parsed = storedSchema.safeParse(JSON.parse(text));
  if (parsed.success) return parsed.data;
  log(`account: ${file} is not valid, using the defaults`);
  return defaultAccountState();
}

export async function saveAccountState(file: string, state: AccountState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(state)}\n`);
}
