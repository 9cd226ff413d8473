import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gidFromGroupFile } from './group-file.ts';

export interface AgentConfig {
  socketPath: string;
  stateDir: string;
  socketGroupId: number | undefined;
  dryReboot: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The agent's settings from its environment:
 *   RAMPART_DATA_DIR      data root (default ./var); agent state lives in <data>/agent
 *   RAMPART_AGENT_SOCKET  socket path (default <data>/run/agent.sock)
 *   RAMPART_SOCKET_GROUP  group allowed to connect (a name from /etc/group, or a numeric gid)
 *   RAMPART_DRY_REBOOT=1  server.reboot only logs instead of rebooting
 */
export async function agentConfigFromEnv(env: Env, cwd: string, groupFile = '/etc/group'): Promise<AgentConfig> {
  const dataDir = path.resolve(cwd, env.RAMPART_DATA_DIR || 'var');
  const socketPath = path.resolve(cwd, env.RAMPART_AGENT_SOCKET || path.join(dataDir, 'run', 'agent.sock'));
  const group = env.RAMPART_SOCKET_GROUP?.trim();
  let socketGroupId: number | undefined;
  if (group) {
    socketGroupId = /^\d+$/.test(group) ? Number(group) : gidFromGroupFile(await readFile(groupFile, 'utf8'), group);
    if (socketGroupId === undefined) throw new Error(`RAMPART_SOCKET_GROUP: no group named "${group}" in ${groupFile}`);
  }
  return { socketPath, stateDir: path.join(dataDir, 'agent'), socketGroupId, dryReboot: env.RAMPART_DRY_REBOOT === '1' };
}
