import { createHash } from 'node:crypto';
import { moduleKeys, type EventInput, type GuardDenial, type GuardNetDenial, type ModuleKey, type NoticeInput } from '@rampart/contracts';

/*
 * Denials reported by the helper, as event-store records. A process looping on a denied write
 * would otherwise fill the store: each rule may record `limit` events per window; the rest are
 * counted and recorded once, as one summary event, when the window ends.
 */

export interface DenialRecorderOptions {
  sink: (input: EventInput) => void;
  /** Raises the notice of a denial whose rule has notification on (sent by the alert methods). */
  notice?: (input: NoticeInput) => void;
  now?: () => number;
  /** Events per rule per window. Default 20. */
  limit?: number;
  /** Default 10 s. */
  windowMs?: number;
  /** Timers that write the summary at a window's end; tests turn them off and call flush(). */
  timers?: boolean;
}

interface Window {
  start: number;
  recorded: number;
  suppressed: number;
  timer: NodeJS.Timeout | null;
}

/** Tools that add users or groups; a denial of one of them on an account file is a refused user creation. */
const userCreators = new Set(['useradd', 'adduser', 'newusers', 'groupadd', 'addgroup']);

/** The guard module a slot belongs to: its rule key's prefix (`account:passwd` → account); tamper and naming slots → tamper. */
export function denialModule(rule: string): ModuleKey {
  const prefix = rule.slice(0, Math.max(0, rule.indexOf(':')));
  return (moduleKeys as readonly string[]).includes(prefix) ? (prefix as ModuleKey) : 'tamper';
}

/**
 * The kind of an account-file denial. Reading: a user is being created when a user tool
 * (useradd, busybox adduser, ...) is denied, or when the file is being replaced (delete or rename:
 * useradd writes `passwd+` and renames it over `/etc/passwd`; the kernel reports the rename over the
 * protected inode as its delete). Any other write, rename or time change is a file denial.
 */
function accountKind(denial: GuardDenial): string {
  const tool = (denial.exe.split('/').pop() ?? '') || denial.comm;
  if (userCreators.has(tool) || userCreators.has(denial.comm) || denial.op === 'd') return 'account.user_create_denied';
  return 'account.file_denied';
}

function kindOf(denial: GuardDenial): string {
  if (denialModule(denial.rule) === 'account') return accountKind(denial);
  // Process protection: its start rules deny x on the executable itself; everything else is a file rule.
  if (denialModule(denial.rule) === 'process') return denial.op === 'x' && denial.rule.endsWith(':start') ? 'process.start_denied' : 'process.file_denied';
  return denial.rule.startsWith('name:') ? 'tamper.name_denied' : 'tamper.denied';
}

/** The process a denial names: its executable's path, else its command name (a kernel thread, an exe gone). */
function processOf(denial: { exe: string; comm: string }): string {
  return (denial.exe || denial.comm).slice(0, 1000);
}

/** A notice's dedupe key: the notice kind and a hash of the parts that make two denials one notice while unread. */
function dedupeKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)}`;
}

/** The event of one denial. Naming rules (`name:<id>`) and other modules' rules (`account:<id>`) get their own kinds. */
export function denialEvent(denial: GuardDenial): EventInput {
  return {
    time: denial.time > 0 ? denial.time : undefined,
    kind: kindOf(denial),
    module: denialModule(denial.rule),
    level: 'warning',
    source: 'guard',
    params: {
      op: denial.op,
      path: denial.path.slice(0, 1000),
      process: processOf(denial),
      pid: denial.pid,
      uid: denial.uid,
      rule: denial.rule,
      repeats: denial.repeats,
    },
  };
}

/**
 * The notice of a denial. Deduplicated per rule, operation and process while unread: an
 * administrator learns that nginx was denied writes under rule 3 once, not once per write.
 */
export function denialNotice(denial: GuardDenial): NoticeInput {
  const process = processOf(denial);
  return {
    kind: 'guard_denied',
    params: { module: denialModule(denial.rule), op: denial.op, path: denial.path.slice(0, 1000), process, pid: denial.pid, rule: denial.rule },
    dedupe_key: dedupeKey('guard_denied', denial.rule, denial.op, process),
  };
}

/** The event of a network denial of process protection (rule `process:<id>`). */
export function netDenialEvent(denial: GuardNetDenial): EventInput {
  return {
    time: denial.time > 0 ? denial.time : undefined,
    kind: 'process.net_denied',
    module: 'process',
    level: 'warning',
    source: 'guard',
    params: {
      proto: denial.proto,
      peer: denial.peer.slice(0, 100),
      port: denial.port,
      process: processOf(denial),
      pid: denial.pid,
      uid: denial.uid,
      rule: denial.rule,
      repeats: denial.repeats,
    },
  };
}

/**
 * The notice of a network denial. Deduplicated per rule, protocol and process while unread, not per
 * peer: a process that tries a hundred addresses is one thing for the administrator to look at.
 */
export function netDenialNotice(denial: GuardNetDenial): NoticeInput {
  const process = processOf(denial);
  return {
    kind: 'process_net_denied',
    params: { proto: denial.proto, peer: denial.peer.slice(0, 100), port: denial.port, process, pid: denial.pid, rule: denial.rule },
    dedupe_key: dedupeKey('process_net_denied', denial.rule, denial.proto, process),
  };
}

export class DenialRecorder {
  readonly #options: DenialRecorderOptions;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();

  constructor(options: DenialRecorderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  record(denial: GuardDenial): void {
    if (denial.notify) this.#options.notice?.(denialNotice(denial));
    this.#admit(denial.rule, denial.repeats, () => denialEvent(denial));
  }

  /** A network denial: the same budget per rule (a process looping on connect() cannot flood the store). */
  recordNet(denial: GuardNetDenial, notify: boolean): void {
    if (notify) this.#options.notice?.(netDenialNotice(denial));
    this.#admit(denial.rule, denial.repeats, () => netDenialEvent(denial));
  }

  /** Records the event while the rule's window has budget left; counts it for the window's summary otherwise. */
  #admit(rule: string, repeats: number, event: () => EventInput): void {
    const now = this.#now();
    const windowMs = this.#options.windowMs ?? 10_000;
    let window = this.#windows.get(rule);
    if (window && now - window.start >= windowMs) {
      this.#close(rule, window);
      window = undefined;
    }
    if (!window) {
      window = { start: now, recorded: 0, suppressed: 0, timer: null };
      this.#windows.set(rule, window);
    }
    if (window.recorded < (this.#options.limit ?? 20)) {
      window.recorded += 1;
      this.#options.sink(event());
      return;
    }
    window.suppressed += repeats;
    if (!window.timer && this.#options.timers !== false) {
      const open = window;
      open.timer = setTimeout(() => this.#close(rule, open), Math.max(0, open.start + windowMs - now));
      open.timer.unref();
    }
  }

  /** Writes the summaries of windows that have ended (or of all, with `all`: at close). */
  flush(all = false): void {
    const windowMs = this.#options.windowMs ?? 10_000;
    const now = this.#now();
    for (const [rule, window] of [...this.#windows]) if (all || now - window.start >= windowMs) this.#close(rule, window);
  }

  #close(rule: string, window: Window): void {
    if (window.timer) clearTimeout(window.timer);
    if (this.#windows.get(rule) === window) this.#windows.delete(rule);
    if (window.suppressed === 0) return;
    const module = denialModule(rule);
    this.#options.sink({
      kind: `${module}.denials_suppressed`,
      module,
      level: 'warning',
      source: 'guard',
      params: { rule, count: window.suppressed, seconds: Math.round((this.#options.windowMs ?? 10_000) / 1000) },
    });
  }
}
