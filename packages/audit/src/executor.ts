import { execFile } from 'node:child_process';

/**
 * Every command-based fact (sshd -T, sysctl, ss, find, dpkg, apt-get, systemctl) and every reload
 * goes through an Executor, so tests feed recorded outputs and production runs the real commands.
 * A command that cannot start answers code 127, like a shell, instead of throwing.
 */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}
export type Executor = (command: string, args: readonly string[]) => Promise<CommandResult>;

const timeoutMs = 120_000;
const maxBuffer = 64 * 1024 * 1024;

/** Runs commands on this machine (root `/`), or inside `root` through chroot for a built Debian root. */
export function systemExecutor(root = '/'): Executor {
  return (command, args) => {
    const [file, argv] = root === '/' ? [command, [...args]] : ['chroot', [root, command, ...args]];
    return new Promise((resolve) => {
      execFile(file, argv, { timeout: timeoutMs, maxBuffer, env: { ...process.env, LC_ALL: 'C' } }, (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const code = typeof error.code === 'number' ? error.code : 127;
        resolve({ code, stdout: stdout ?? '', stderr: stderr || error.message });
      });
    });
  };
}

/** A recorded executor: `"sshd -T"` → result; anything unrecorded is "command not found". */
export function recordedExecutor(
  outputs: Record<string, Partial<CommandResult> | ((args: readonly string[]) => Partial<CommandResult>)>,
  calls: string[] = [],
): Executor {
  return async (command, args) => {
    const line = [command, ...args].join(' ');
    calls.push(line);
    const entry = outputs[line] ?? outputs[command];
    if (!entry) return { code: 127, stdout: '', stderr: `${command}: not found` };
    const result = typeof entry === 'function' ? entry(args) : entry;
    return { code: result.code ?? 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  };
}
