import { BackupError, formatMs, remoteError, type BackupStep } from './errors.ts';

/** One connection to one server, as the step runner sees it. */
export interface Remote {
  readonly protocol: 'S3' | 'FTP' | 'SFTP';
  /** Shown in messages: `host:port`, or the S3 endpoint and bucket. */
  readonly where: string;
  readonly timeoutMs: number;
  /** Tears the connection down, so that a library call stuck on it returns or is abandoned. */
  abort(): void;
  /** The step an error really belongs to (a 403 during an upload is an authentication failure) and its reason. */
  explain(err: unknown, step: BackupStep): { step: BackupStep; reason: string };
}

export interface StepControl {
  /** Bytes moved: the timer restarts, so a long transfer only fails when it stalls. */
  progress(): void;
  /** The work moved on within one library call (an SSH handshake finished and authentication began). */
  enter(step: BackupStep): void;
}

/**
 * Runs one step against `remote`. The libraries' own timeouts do not cover every phase (DNS,
 * TLS, a server that accepts and then says nothing), so each step has its own timer: when
 * `timeoutMs` pass without completion or progress, the step fails and the connection is torn down.
 */
export function runStep<T>(remote: Remote, step: BackupStep, work: (control: StepControl) => Promise<T>): Promise<T> {
  let current = step;
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    /** The first outcome wins: a library call that returns after its step timed out is ignored. */
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      return true;
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!settle()) return;
        reject(remoteError(remote.protocol, remote.where, current, `the server did not respond within ${formatMs(remote.timeoutMs)}`));
        remote.abort();
      }, remote.timeoutMs);
    };
    const control: StepControl = {
      progress: () => {
        if (!done) arm();
      },
      enter: (next) => {
        current = next;
      },
    };
    arm();
    Promise.resolve()
      .then(() => work(control))
      .then(
        (value) => {
          if (settle()) resolve(value);
        },
        (err: unknown) => {
          if (settle()) reject(toBackupError(remote, current, err));
        },
      );
  });
}

function toBackupError(remote: Remote, step: BackupStep, err: unknown): BackupError {
  if (err instanceof BackupError) return err;
  const explained = remote.explain(err, step);
  return remoteError(remote.protocol, remote.where, explained.step, explained.reason, err);
}
