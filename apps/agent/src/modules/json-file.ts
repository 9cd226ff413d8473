import { readFile } from 'node:fs/promises';
import type { z } from 'zod';

/** A state file as read: missing (first start), damaged (unreadable, not JSON, not the schema), or its value. */
export type JsonFileRead<T> = { state: 'missing' } | { state: 'damaged' } | { state: 'ok'; value: T };

/** Reads and checks one of the agent's JSON state files; the caller decides what a damaged file means. */
export async function readJsonFile<T>(file: string, schema: z.ZodType<T>, log: (line: string) => void): Promise<JsonFileRead<T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    log(`cannot read ${file}: ${(error as Error).message}`);
    return { state: 'damaged' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: 'damaged' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { state: 'ok', value: parsed.data } : { state: 'damaged' };
}
