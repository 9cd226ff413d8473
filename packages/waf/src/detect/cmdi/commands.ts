/**
 * The command dictionary. Two classes, because prose is full of command names ("cat", "sleep",
 * "echo", "curl", "time"): an `english` command needs shell-shaped arguments before it counts,
 * a `distinctive` one (whoami, wget, certutil…) is almost never a word in a sentence.
 */
export type CommandClass = 'distinctive' | 'english';

const distinctive = [
  // unix
  'wget', 'nc', 'ncat', 'netcat', 'bash', 'sh', 'zsh', 'ksh', 'csh', 'tcsh', 'dash', 'busybox', 'python', 'python2',
  'python3', 'perl', 'ruby', 'php', 'node', 'lua', 'awk', 'gawk', 'whoami', 'uname', 'ifconfig', 'netstat',
  'nslookup', 'getent', 'chmod', 'chown', 'useradd', 'usermod', 'crontab', 'base64', 'xxd', 'telnet', 'ssh', 'scp',
  'tftp', 'rm', 'mkfifo', 'mknod', 'ls', 'pwd', 'printenv', 'grep', 'egrep', 'xargs', 'killall', 'ps', 'hostname',
  'systemctl', 'sudo', 'nohup', 'socat', 'nmap', 'lynx', 'uniq', 'printf', 'passwd', 'gzip', 'unzip', 'tar', 'od',
  'ping', 'traceroute', 'wc', 'sed', 'chattr', 'openssl', 'id', 'adduser', 'iwmi', 'invoke-wmimethod',
  'gunzip', 'zcat', 'zstdcat', 'bzcat', 'xzcat', 'cpulimit', 'flock', 'rmt-tar', 'rmt-dump', 'pip3', 'uconv',
  // windows cmd
  'cmd', 'powershell', 'pwsh', 'certutil', 'bitsadmin', 'mshta', 'rundll32', 'regsvr32', 'wmic', 'netsh',
  'tasklist', 'taskkill', 'systeminfo', 'cscript', 'wscript', 'findstr', 'schtasks', 'ipconfig', 'cmd.exe',
  'powershell.exe', 'whoami.exe', 'net1', 'icacls', 'nltest', 'regedit', 'bcdboot', 'bcdedit', 'vssadmin', 'wevtutil',
  'diskpart', 'fsutil', 'takeown', 'msiexec', 'forfiles', 'cacls', 'htop', 'strace', 'ltrace', 'rmt', 'ansible-pull',
  'ansible-playbook', 'pipx', 'pip', 'npm', 'npx', 'apt-get', 'yum', 'dnf', 'apk', 'gcc', 'cc', 'make', 'git', 'docker',
  'kubectl', 'iptables', 'nft', 'mount', 'umount', 'insmod', 'modprobe', 'ip',
  // administration and debugging tools CRS 932235/932236 list (reached after a separator)
  'lastlog', 'lastlogin', 'visudo', 'ssh-copy-id', 'ssh-keygen', 'unxz', 'bsdtar',
  'aa-disable', 'ansible', 'ansible-config', 'ansible-galaxy', 'ansible-console', 'ansible-doc', 'ansible-inventory',
  'ansible-vault', 'chef-vault', 'chef-shell', 'chef-run', 'chef-client', 'cscli',
  // powershell cmdlets and aliases
  'iex', 'invoke-expression', 'invoke-webrequest', 'iwr', 'irm', 'invoke-restmethod', 'start-process',
  'get-content', 'get-childitem', 'new-object', 'add-type', 'set-content', 'out-file', 'get-process',
  // package managers and consoles CRS 932236/932340 list
  'aptitude',
];

const english = [
  'cat', 'echo', 'sleep', 'more', 'less', 'sort', 'head', 'tail', 'find', 'kill', 'touch', 'env', 'who',
  'last', 'top', 'cut', 'tr', 'dd', 'curl', 'dig', 'fetch', 'rev', 'cp', 'mv', 'mkdir', 'rmdir', 'tee', 'eval',
  'exec', 'source', 'export', 'set', 'unset', 'alias', 'cd', 'timeout', 'su', 'service', 'zip', 'file', 'ftp',
  'host', 'w', 'time', 'nice', 'perf', 'shutdown', 'watch', 'which', 'whereis', 'stat', 'diff', 'strings', 'split',
  // debuggers and editors: "(gdb) bt" prompts and "vim" in posts need shell-shaped arguments to count
  'gdb', 'vim', 'irb',
  // power control: "reboot" is a word too; a lone one counts only typed and submitted (index.ts)
  'reboot', 'poweroff',
  // text tools of coreutils: "fold", "column" are words, so they need shell-shaped arguments too
  'column', 'fold', 'comm', 'date', 'trap', 'chef', 'll',
  // windows
  'type', 'dir', 'del', 'copy', 'move', 'ren', 'rename', 'start', 'net', 'reg', 'sc', 'ver', 'call', 'erase',
];

const table = new Map<string, CommandClass>([
  ...english.map((c) => [c, 'english'] as const),
  ...distinctive.map((c) => [c, 'distinctive'] as const),
]);

/**
 * Distinctive commands whose name is no word of any language nor a product's everyday name: a lone
 * `visudo` or `ifconfig` on a submitted line is the command typed (not "python", "docker", "make").
 */
export const toolOnlyNames = new Set([
  'visudo', 'whoami', 'ifconfig', 'ipconfig', 'netstat', 'nslookup', 'getent', 'useradd', 'usermod', 'adduser', 'crontab',
  'mkfifo', 'mknod', 'printenv', 'killall', 'systemctl', 'chattr', 'systeminfo', 'tasklist', 'taskkill', 'certutil',
  'bitsadmin', 'rundll32', 'regsvr32', 'wmic', 'netsh', 'icacls', 'nltest', 'bcdedit', 'vssadmin', 'wevtutil',
  'diskpart', 'fsutil', 'takeown', 'msiexec', 'forfiles', 'lastlog', 'cscli', 'htop', 'strace', 'ltrace', 'modprobe',
  'insmod', 'iptables', 'unxz', 'bsdtar', 'zstdcat', 'bzcat', 'xzcat', 'gunzip', 'zcat', 'kubectl', 'uname',
]);

/** Standard places binaries live, for resolving /bin/cat and glob names such as /???/c?t. */
const binDirs = ['/bin/', '/usr/bin/', '/sbin/', '/usr/sbin/', '/usr/local/bin/'];

/** Wrappers no sentence starts with: `strace ifconfig` is a command line even without arguments. */
export const distinctiveWrappers = new Set(['sudo', 'nohup', 'strace', 'ltrace', 'busybox', 'stdbuf', 'setsid', 'doas']);

/** Commands that run another command given as their arguments: the wrapped one is judged. */
export const wrappers = new Set(['sudo', 'nohup', 'strace', 'ltrace', 'time', 'env', 'nice', 'xargs', 'exec', 'command', 'builtin', 'busybox', 'timeout', 'stdbuf', 'setsid', 'doas']);

/** Shell control words that may stand before the real command name. */
export const shellKeywords = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{', 'time']);

export interface ResolvedCommand {
  name: string;
  cls: CommandClass;
}

/** Resolves a command word (possibly a path, with .exe, or a glob) to a dictionary entry. */
export function resolveCommand(word: string, glob: boolean): ResolvedCommand | null {
  if (word.length === 0 || word.length > 64) return null;
  let lower = word.toLowerCase();
  // A question ending in '?' ("what?") is punctuation, not a glob.
  if (glob && /^[a-z]+\?+$/.test(lower)) {
    lower = lower.replace(/\?+$/, '');
    glob = false;
  }
  if (glob) return resolveGlob(lower);
  const slash = Math.max(lower.lastIndexOf('/'), lower.lastIndexOf('\\'));
  const base = slash >= 0 ? lower.slice(slash + 1) : lower;
  const name = base.endsWith('.exe') ? base.slice(0, -4) : base;
  // `gcc7.4`, `python3.10`: a distinctive tool with its version glued on (never a word of prose).
  const cls = table.get(name) ?? table.get(base) ?? versionedDistinctive(name);
  if (!cls) return null;
  // A bare path to a known binary (/bin/cat) is as distinctive as a rare command name.
  return { name, cls: slash >= 0 && lower.startsWith('/') ? 'distinctive' : cls };
}

function versionedDistinctive(name: string): CommandClass | undefined {
  const c = name.charCodeAt(name.length - 1);
  if (c < 48 || c > 57 || !name.includes('.')) return undefined; // ends in a digit and has a dot: cheap test first
  const stem = /^([a-z][a-z+-]*?)\d+(?:\.\d+)+$/.exec(name)?.[1];
  return stem !== undefined && table.get(stem) === 'distinctive' ? 'distinctive' : undefined;
}

function resolveGlob(pattern: string): ResolvedCommand | null {
  // '*' or '???' alone is not a command, nor is '*c' (it matches half the dictionary).
  if ((withoutBracketClasses(pattern).match(/[a-z]/g) ?? []).length < 2) return null;
  if (pattern.startsWith('*') && !pattern.includes('/')) return null;
  const candidates = pattern.startsWith('/') ? binDirs : [''];
  for (const [name] of table) {
    // Hyphenated tool names (ansible-doc, apt-get) are not what globs hide, and `a*c` would match them.
    if (name.includes('-')) continue;
    for (const dir of candidates) {
      if (globMatch(pattern, dir + name)) return { name, cls: 'distinctive' };
    }
  }
  return null;
}

/** A bracket class body: letters, ranges (a-z), negation (! or ^). */
function classMatches(body: string, ch: string): boolean {
  const negated = body.startsWith('!') || body.startsWith('^');
  const set = negated ? body.slice(1) : body;
  let found = false;
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === '-' && i + 2 < set.length) {
      if (ch >= set[i]! && ch <= set[i + 2]!) found = true;
      i += 2;
    } else if (set[i] === ch) {
      found = true;
    }
  }
  return found !== negated;
}

/**
 * `text` with every `[…]` class removed: what `text.replace(/\[[^\]]*\]/g, '')` gives, in one pass.
 * (That regex rescans to the end from each `[` that has no `]` after it: quadratic on `[[[[…`.)
 */
export function withoutBracketClasses(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    const close = text.indexOf(']', open + 1);
    // No `]` after this `[` means none after any later `[` either: nothing more is removed.
    if (close < 0) break;
    out += text.slice(from, open);
    from = close + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Linear-time glob match for '*', '?' and simple [...] classes (iterative, no backtracking blow-up). */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pc = pattern[p];
    if (pc === '[') {
      const close = pattern.indexOf(']', p + 1);
      if (close > p && classMatches(pattern.slice(p + 1, close), text[t]!)) {
        p = close + 1;
        t++;
        continue;
      }
    } else if (pc === '?' || pc === text[t]) {
      p++;
      t++;
      continue;
    } else if (pc === '*') {
      starP = p++;
      starT = t;
      continue;
    }
    if (starP < 0) return false;
    p = starP + 1;
    t = ++starT;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
