import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AgentExecutors } from '../agent.ts';

const run = promisify(execFile);

export interface SystemExecutorOptions {
  dryReboot: boolean;
  log: (line: string) => void;
}

/**
 * The real restart and reboot. Under the `rampart start` supervisor (an IPC channel exists)
 * the supervisor restarts the product; under systemd, the rampart.target unit does.
 */
export function systemExecutors(options: SystemExecutorOptions): AgentExecutors {
  return {
    async restartSoftware() {
      if (typeof process.send === 'function') {
        options.log('software restart requested; asking the supervisor');
        process.send({ type: 'restart-software' });
        return;
      }
      options.log('software restart requested; systemctl restart rampart.target');
      await run('systemctl', ['restart', 'rampart.target']);
    },
    async rebootServer() {
      if (options.dryReboot) {
        options.log('reboot requested (dry run)');
        return;
      }
      options.log('reboot requested; systemctl reboot');
      await run('systemctl', ['reboot']);
    },
  };
}
