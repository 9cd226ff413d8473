import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultModuleFlags, moduleKeys, type ModuleFlags, type ModuleKey } from '@rampart/contracts';
import { writeFileAtomic } from './atomic-write.ts';

/**
 * Reads a flags file leniently: every known key with a 0/1 value is kept, anything else falls
 * back to the default (0). Returns the problems found so the caller can log them.
 */
export function flagsFromJson(text: string): { flags: ModuleFlags; problems: string[] } {
  const flags = defaultModuleFlags();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { flags, problems: [`not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { flags, problems: ['not a JSON object'] };
  }
  const problems: string[] = [];
  const record = parsed as Record<string, unknown>;
  for (const key of moduleKeys) {
    const value = record[key];
    if (value === 0 || value === 1) flags[key] = value;
    else if (value !== undefined) problems.push(`${key}: ${JSON.stringify(value)} is not 0 or 1`);
  }
  return { flags, problems };
}

/** The persisted ON/OFF flag of every module, in <stateDir>/modules.json. */
export class ModuleStore {
  readonly file: string;
  readonly #log: (line: string) => void;
  #flags: ModuleFlags = defaultModuleFlags();
  /** Switches run one after another so two writers never race on the file. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(stateDir: string, log: (line: string) => void) {
    this.file = path.join(stateDir, 'modules.json');
    this.#log = log;
  }

  async load(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const { flags, problems } = flagsFromJson(text);
    if (problems.length) this.#log(`modules: ${this.file}: ${problems.join('; ')}; using defaults for those modules`);
    this.#flags = flags;
  }

  list(): ModuleFlags {
    return { ...this.#flags };
  }

  switch(modules: readonly ModuleKey[], status: 0 | 1): Promise<ModuleFlags> {
    const run = async (): Promise<ModuleFlags> => {
      const next = { ...this.#flags };
      for (const key of modules) next[key] = status;
      await writeFileAtomic(this.file, JSON.stringify(next, null, 2) + '\n');
      // Memory follows the disk: a failed write leaves the old flags in force.
      this.#flags = next;
      return { ...next };
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
