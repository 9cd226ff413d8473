import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { listedModules, type AuditProcess, type ProcessFinding, type ProcListeningSocket } from '@rampart/contracts';
import { RootFs } from '../root-fs.ts';
import { parsePasswd } from '../facts/accounts.ts';
import { isPackaged, readPackagedPaths } from './dpkg-files.ts';
import { readListeningSockets } from './proc-net.ts';
import { byLevel } from './users.ts';

/**
 * The process audit: every user-space process of /proc (kernel threads left out) with its user,
 * executable, start time, parent, mapped libraries, listening sockets and findings. Reads /proc
 * directly; the root gives the user names (passwd) and the package file lists. Reading another
 * user's exe, maps and fds needs root, which the agent is; an unreadable one reads as unknown.
 */
export interface ProcessInventoryOptions {
  /** Where passwd and the dpkg lists are read. */
  root: string;
  /** `/proc` in production; tests read this machine's too. */
  procDir?: string;
  /** All modules of each process (the detail call) instead of the first `listedModules`. */
  allModules?: boolean;
  /** Only these pids (the detail call). */
  pids?: readonly number[];
}

/** Parent programs that serve the web: a shell under one is the classic sign of a web shell. */
const webServers = /^(nginx|apache2|httpd|lighttpd|caddy|php-fpm.*|php-cgi.*|openresty|tengine|uwsgi|gunicorn.*)$/;
const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'csh', 'tcsh', 'fish', 'ash', 'busybox']);
const tempDirs = /^\/(tmp|var\/tmp|dev\/shm|run\/shm)\//;
/** PF_KTHREAD in stat's flags field (include/linux/sched.h). */
const kernelThread = 0x00200000;

interface RawProcess {
  pid: number;
  ppid: number;
  name: string;
  uid: number;
  exe: string | null;
  deleted: boolean;
  cmdline: string;
  startTicks: number;
  modules: string[];
  sockets: number[];
}

const read = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** stat: `pid (comm) state ppid …`; comm may hold spaces and parentheses, so split after the last `)`. */
export function parseStat(text: string): { name: string; ppid: number; flags: number; startTicks: number } | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  return { name: text.slice(open + 1, close), ppid: Number(rest[1]), flags: Number(rest[6]), startTicks: Number(rest[19]) };
}

/** Shared libraries mapped from files: the paths in maps that look like `*.so` or `*.so.N`. */
export function parseMapsModules(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    const slash = line.indexOf('/');
    if (slash < 0) continue;
    const file = line.slice(slash).replace(/ \(deleted\)$/, '');
    if (/\.so(\.[\d.]+)?$/.test(file)) seen.add(file);
  }
  return [...seen];
}

/** What each of a process's fds points at (`socket:[n]`, `/path (deleted)`, …); none when it ended or is not ours to read. */
export function readFdTargets(procDir: string, pid: number): { fd: number; target: string }[] {
  const dir = path.join(procDir, String(pid), 'fd');
  const targets: { fd: number; target: string }[] = [];
  try {
    for (const fd of readdirSync(dir)) {
      try {
        targets.push({ fd: Number(fd), target: readlinkSync(path.join(dir, fd)) });
      } catch {
        // The fd closed between the listing and the read.
      }
    }
  } catch {
    // The process ended, or its fds are not ours to read.
  }
  return targets;
}

function readProcess(procDir: string, pid: number): RawProcess | null {
  const dir = path.join(procDir, String(pid));
  const stat = parseStat(read(path.join(dir, 'stat')) ?? '');
  if (!stat || stat.flags & kernelThread) return null;
  const uid = Number(/^Uid:\s+(\d+)/m.exec(read(path.join(dir, 'status')) ?? '')?.[1] ?? -1);
  let exe: string | null = null;
  try {
    exe = readlinkSync(path.join(dir, 'exe'));
  } catch {
    exe = null;
  }
  const deleted = exe?.endsWith(' (deleted)') ?? false;
  if (deleted) exe = (exe as string).slice(0, -' (deleted)'.length);
  const sockets = readFdTargets(procDir, pid).flatMap((t) => {
    const target = /^socket:\[(\d+)\]$/.exec(t.target);
    return target ? [Number(target[1])] : [];
  });
  return {
    pid,
    ppid: stat.ppid,
    name: stat.name,
    uid,
    exe,
    deleted,
    cmdline: (read(path.join(dir, 'cmdline')) ?? '').replace(/\0+$/, '').replace(/\0/g, ' ').slice(0, 1000),
    startTicks: stat.startTicks,
    modules: parseMapsModules(read(path.join(dir, 'maps')) ?? ''),
    sockets,
  };
}

export function bootTimeMs(procDir: string): number {
  const btime = /^btime (\d+)$/m.exec(read(path.join(procDir, 'stat')) ?? '')?.[1];
  return Number(btime ?? 0) * 1000;
}

/** USER_HZ: 100 on every Linux architecture Debian ships (sysconf(_SC_CLK_TCK)). */
const clockTicks = 100;

export function collectProcesses(options: ProcessInventoryOptions): AuditProcess[] {
  const procDir = options.procDir ?? '/proc';
  const fs = new RootFs(options.root);
  // getpwuid(3) answers the first line with the uid: root, not a later `toor` with uid 0.
  const users = new Map<number, string>();
  for (const entry of parsePasswd(fs.read('/etc/passwd')?.text)) if (!users.has(entry.uid)) users.set(entry.uid, entry.name);
  const packaged = readPackagedPaths(fs);
  const listening = readListeningSockets(procDir);
  const boot = bootTimeMs(procDir);
  const pids = readdirSync(procDir).filter((n) => /^\d+$/.test(n)).map(Number);
  const raw = new Map<number, RawProcess>();
  for (const pid of pids) {
    const p = readProcess(procDir, pid);
    if (p) raw.set(pid, p);
  }
  const names = new Map([...raw.values()].map((p) => [p.pid, p.name]));
  // Shown by the executable's name where there is one: comm is what the program chose (node's is `MainThread`).
  const shown = (p: RawProcess) => (p.exe ? path.posix.basename(p.exe) : p.name);
  const wanted = options.pids ? options.pids.filter((pid) => raw.has(pid)) : [...raw.keys()];
  return wanted.map((pid) => {
    const p = raw.get(pid) as RawProcess;
    const parentName = names.get(p.ppid);
    const sockets = [...new Set(p.sockets)].flatMap((inode) => (listening.has(inode) ? [listening.get(inode) as ProcListeningSocket] : []));
    const owned = p.exe === null || packaged === null ? null : isPackaged(packaged, p.exe);
    return {
      pid: p.pid,
      name: shown(p),
      user: users.get(p.uid) ?? String(p.uid),
      uid: p.uid,
      path: p.exe,
      deleted: p.deleted,
      cmdline: p.cmdline,
      start_time: Math.round(boot + (p.startTicks / clockTicks) * 1000),
      parent: parentName === undefined ? null : { pid: p.ppid, name: shown(raw.get(p.ppid) as RawProcess) },
      modules: options.allModules ? p.modules : p.modules.slice(0, listedModules),
      modules_total: p.modules.length,
      listening: sockets,
      packaged: owned,
      findings: judgeProcess(fs, p, parentName, sockets, owned),
    };
  });
}

const loopback = (address: string) => address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1';

function judgeProcess(fs: RootFs, p: RawProcess, parentName: string | undefined, sockets: ProcListeningSocket[], owned: boolean | null): ProcessFinding[] {
  const findings: ProcessFinding[] = [];
  if (p.exe && p.deleted) {
    // A file at the same path again is most often a package upgrade that replaced the running binary.
    const replaced = fs.exists(p.exe);
    findings.push({ kind: 'exe_deleted', level: replaced ? 'warning' : 'danger', detail: replaced ? `${p.exe} (replaced since start)` : p.exe });
  }
  if (p.exe && tempDirs.test(p.exe)) findings.push({ kind: 'exe_in_temp', level: 'danger', detail: p.exe });
  // Hint only: self-built and vendored programs (Rampart's own node among them) are unpackaged and legitimate.
  if (owned === false && !(p.exe && tempDirs.test(p.exe))) findings.push({ kind: 'unpackaged', level: 'hint', detail: p.exe ?? '' });
  if (sockets.length > 0) {
    const open = sockets.filter((s) => !loopback(s.address));
    const detail = sockets.slice(0, 8).map((s) => `${s.protocol} ${s.address.includes(':') ? `[${s.address}]` : s.address}:${s.port}`).join(', ');
    // Reachable from the network and from a program no package vouches for: worth a look.
    findings.push({ kind: 'listening', level: open.length > 0 && owned === false ? 'warning' : 'hint', detail });
  }
  if (parentName !== undefined && webServers.test(parentName) && shells.has(p.name)) findings.push({ kind: 'web_shell', level: 'danger', detail: `${parentName} (${p.ppid}) → ${p.name}` });
  return findings.sort(byLevel);
}
