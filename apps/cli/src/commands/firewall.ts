import { existsSync } from 'node:fs';
import { AgentClient } from '@rampart/agent-client';
import { ModuleStore } from '@rampart/agent';
import { createNftExecutor, planRemoval, tableName } from '@rampart/firewall';
import { subCommandArgs } from './sub-command.ts';
import { dataPaths, resolveDataDir } from '../supervisor/service-user.ts';

const usage = `usage:
  rampart firewall [--data-dir DIR]
      says whether Rampart's nftables table (inet ${tableName}) is in the kernel and whether the
      firewall module is on
  rampart firewall off [--data-dir DIR]
      switches the firewall module off and removes the table from the kernel: through the running
      agent when it answers, otherwise directly (the module stays off at the next start, until it is
      switched on in the console)
`;

/**
 * The firewall's table stays in the kernel when Rampart stops, by design (a stopped or crashed
 * agent must not open the server). This is the deliberate way to take it out. Remote-login
 * protection's chain lives in the same table and goes with it.
 */
export async function run(args: string[]): Promise<number> {
  const parsed = subCommandArgs(args, ['off'], usage);
  if (!parsed) return 2;
  const { sub } = parsed;
  if (process.getuid?.() !== 0) {
    process.stderr.write('The firewall is in the kernel: run this as root.\n');
    return 1;
  }
  const paths = dataPaths(resolveDataDir(parsed.dataDir));
  const store = new ModuleStore(paths.agent, () => {});
  await store.load();

  if (sub === undefined) {
    const inKernel = await tableInKernel();
    process.stdout.write(`table inet ${tableName}: ${inKernel ? 'in the kernel' : 'not in the kernel'}\nfirewall module: ${store.list().firewall === 1 ? 'on' : 'off'}\n`);
    return 0;
  }

  // The running agent owns the table: asking it keeps its state and the kernel in step.
  if (existsSync(paths.agentSocket)) {
    const client = new AgentClient(paths.agentSocket, { timeoutMs: 20_000 });
    try {
      await client.call('module.switch', { modules: ['firewall'], status: 0 });
      process.stdout.write(`The running agent switched the firewall module off and removed table inet ${tableName}.\n`);
      return 0;
    } catch {
      // Not answering (a socket left by a stopped agent): do it here.
    } finally {
      client.close();
    }
  }
  await store.switch(['firewall'], 0);
  try {
    await createNftExecutor().apply(planRemoval());
  } catch (err) {
    process.stderr.write(`Removing table inet ${tableName} failed: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`Table inet ${tableName} removed and the firewall module switched off (Rampart is not running; it stays off at the next start).\n`);
  return 0;
}

async function tableInKernel(): Promise<boolean> {
  try {
    await createNftExecutor().read(['list', 'table', 'inet', tableName]);
    return true;
  } catch {
    return false;
  }
}
