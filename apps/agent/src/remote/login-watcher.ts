import { followJournal, parseSshdJournal, parseSshdSyslog, sshdJournalMatches, tailFile, type LineParse } from '@rampart/detect';

/** An accepted SSH login as sshd wrote it. */
export interface AcceptedLogin {
  user: string;
  ip: string;
  method: string;
  /** When it was read (ms). */
  at: number;
}

export interface LoginSources {
  /** Auth log files (syslog format, or sshd -E's bare lines): the firewall's SSH brute-force sources. */
  files: readonly string[];
  /** Follow the journal too; options for tests (a journal folder), false for none. */
  journal: { directory?: string; journalctl?: string } | false;
  pollMs?: number;
}

/**
 * Reads sshd's "Accepted <method> for <user> from <ip>" lines from the same sources as the SSH
 * brute-force scenario (journald and auth log files) and hands each login on. The sources are
 * read from now on: logins from before the start are not announced again.
 */
export class LoginWatcher {
  readonly #closers: Array<() => Promise<void>> = [];

  constructor(sources: LoginSources, onLogin: (login: AcceptedLogin) => void, now: () => number, log: (line: string) => void) {
    const onError = (error: unknown) => log(`remote login watcher: ${error instanceof Error ? error.message : String(error)}`);
    const take = (result: LineParse) => {
      const parsed = result.parsed;
      if (parsed?.kind !== 'ssh_auth_success' || !parsed.ip) return;
      onLogin({ user: parsed.user ?? '', ip: parsed.ip, method: parsed.authMethod ?? '', at: now() });
    };
    for (const file of sources.files) {
      const handle = tailFile(file, (line) => take(parseSshdSyslog(line, now())), { pollMs: sources.pollMs ?? 1000, onError });
      this.#closers.push(async () => handle.close());
    }
    if (sources.journal !== false) {
      const handle = followJournal({ ...sources.journal, matches: sshdJournalMatches, onEntry: (entry) => take(parseSshdJournal(entry)), onError });
      this.#closers.push(() => handle.close());
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#closers.map((close) => close()));
  }
}
