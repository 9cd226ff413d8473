/** `--name value` options of the repository's scripts. */
export function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

export function required(args: string[], name: string): string {
  const value = option(args, name);
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}
