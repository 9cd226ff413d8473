import { parseArgs } from 'node:util';

/**
 * `rampart <command> [SUB] [--data-dir DIR]`: the optional sub-command (one of `subs`) and the data
 * folder, or null after writing the usage to stderr (the caller exits 2).
 */
export function subCommandArgs(args: string[], subs: readonly string[], usage: string): { sub: string | undefined; dataDir: string | undefined } | null {
  let values: { 'data-dir'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' } } }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    return null;
  }
  const [sub, ...extra] = positionals;
  if (extra.length > 0 || (sub !== undefined && !subs.includes(sub))) {
    process.stderr.write(usage);
    return null;
  }
  return { sub, dataDir: values['data-dir'] };
}
