/**
 * Tools driven by a verb: `pip install x`, `chef report nodes`, `docker run x`, `systemctl stop x`.
 * The tool's name alone is often a word ("chef", "docker", "git"), but the tool's name followed by
 * one of its own verbs, both written in lower case as a shell takes them, is how its command line
 * reads (a sentence says "the chef reported", a title "Docker Run Fails"). The verbs listed are the
 * ones that change or reveal the machine: installs, runs, service control, inventories.
 */
const verbs = new Map<string, ReadonlySet<string>>();
const add = (tools: string[], list: string[]): void => {
  for (const t of tools) verbs.set(t, new Set(list));
};
add(['pip', 'pip3', 'pipx'], ['install', 'uninstall', 'download', 'freeze', 'inject', 'run']);
add(['npm', 'pnpm', 'yarn'], ['install', 'exec', 'publish', 'uninstall', 'link']);
add(['gem'], ['install', 'uninstall']);
add(['apt-get', 'apt', 'aptitude', 'yum', 'dnf', 'zypper'], ['install', 'remove', 'purge', 'update', 'upgrade', 'download']);
add(['apk'], ['add', 'del', 'fetch']);
add(['chef'], ['report', 'exec', 'generate', 'install', 'push', 'shell-init', 'gem', 'export', 'clean-policy-revisions']);
add(['knife'], ['bootstrap', 'ssh', 'exec', 'node', 'cookbook', 'vault']);
add(['git'], ['clone', 'fetch', 'pull', 'push', 'checkout', 'reset', 'config', 'remote']);
add(['docker', 'podman'], ['run', 'exec', 'pull', 'build', 'cp', 'rm', 'rmi', 'kill', 'inspect']);
add(['kubectl'], ['exec', 'get', 'apply', 'delete', 'run', 'cp', 'logs', 'describe', 'proxy']);
add(['systemctl', 'service'], ['start', 'stop', 'restart', 'enable', 'disable', 'mask', 'kill']);
add(['cscli'], ['alerts', 'decisions', 'bouncers', 'machines', 'hub', 'collections', 'parsers', 'scenarios']);
add(['ansible-galaxy'], ['install', 'collection', 'role']);

/** A tool argument: a package, a host, a file or an option; no sentence punctuation, no capitals. */
const plainArgument = /^[a-z0-9@][\w@.:/=+-]*$/;

/**
 * `words`: the blank-separated words of the whole value. True for `tool verb [arg…]` (at most two
 * arguments: "docker run fails on mac" is a question), everything in lower case.
 */
/** Whether `word` is a tool with verbs (the cheap first test, before the value is split). */
export function hasVerbs(word: string): boolean {
  return verbs.has(word);
}

export function isSubcommandLine(words: readonly string[]): boolean {
  if (words.length < 2 || words.length > 4) return false;
  const list = verbs.get(words[0]!);
  return list !== undefined && list.has(words[1]!) && words.slice(2).every((w) => plainArgument.test(w));
}
