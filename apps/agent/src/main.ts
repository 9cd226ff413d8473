import process from 'node:process';
import { hostApt, recordedExecutor, systemExecutor } from '@rampart/audit';
import { startAgent, type RunningAgent } from './agent.ts';
import { agentConfigFromEnv } from './config/agent-config.ts';
import { effectiveUid } from './host/kernel-status.ts';
import { systemExecutors } from './power/system-executors.ts';
import { systemClockSetter } from './time/system-clock.ts';

/** The agent process: settings from the environment (see config/agent-config.ts). */
const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

let agent: RunningAgent | undefined;
let stopSignal: string | undefined;

function stop(signal: string): void {
  if (stopSignal) return;
  stopSignal = signal;
  log(`agent stopping (${signal})`);
  // Still starting: main() sees stopSignal and closes as soon as the socket exists.
  if (!agent) return;
  agent.close().then(
    () => process.exit(0),
    (error: unknown) => {
      log(`agent stop failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

// Installed before anything is announced, so a signal sent on "listening" is never the default kill.
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

/** `/` and the real commands; a fixture root gets no commands at all (they would read the host). */
function auditTarget(root: string | undefined) {
  if (!root) return { root: '/', executor: systemExecutor('/') };
  log(`audit root: ${root} (RAMPART_AUDIT_ROOT; commands are not run)`);
  return { root, executor: recordedExecutor({}) };
}

/**
 * The host's apt, or under a fixture audit root none, or the sandbox apt whose apt.conf a browser
 * test built (it points every apt and dpkg directory into a temp dir, so the host's packages are never touched).
 */
function patchTarget(root: string | undefined, aptConfig: string | undefined) {
  if (!root) return { patch: { apt: hostApt } };
  if (!aptConfig) return {};
  log(`patch apt: ${aptConfig} (RAMPART_AUDIT_APT_CONFIG)`);
  return { patch: { apt: { options: [], root, env: { APT_CONFIG: aptConfig } } } };
}

async function main(): Promise<void> {
  const config = await agentConfigFromEnv(process.env, process.cwd());
  if (effectiveUid() !== 0) {
    log('rampart agent is not running as root: kernel protection is unavailable (host information still served)');
  }
  agent = await startAgent({
    socketPath: config.socketPath,
    stateDir: config.stateDir,
    socketGroupId: config.socketGroupId,
    // RAMPART_DRY_CLOCK=1 (browser tests): NTP syncs fetch the time but never set the host clock.
    executors: { ...systemExecutors({ dryReboot: config.dryReboot, log }), setClock: systemClockSetter({ dry: process.env.RAMPART_DRY_CLOCK === '1', log }) },
    // The security audit reads this host (`/`). RAMPART_AUDIT_ROOT (browser tests only) points it at
    // a fixture root the test wrote, so the product's own audit and reinforcement never touch the host.
    audit: auditTarget(process.env.RAMPART_AUDIT_ROOT),
    // Patches: this host's apt with its own defaults; none under a fixture audit root (browser tests
    // must not run apt-get update or install on the host) unless RAMPART_AUDIT_APT_CONFIG names a
    // sandbox apt.conf (browser tests only, honoured only with RAMPART_AUDIT_ROOT).
    ...patchTarget(process.env.RAMPART_AUDIT_ROOT, process.env.RAMPART_AUDIT_APT_CONFIG),
    log,
  });
  log(`agent listening on ${agent.socketPath}`);
  if (stopSignal) {
    await agent.close();
    process.exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`rampart agent failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
