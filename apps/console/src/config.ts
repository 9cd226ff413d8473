import { join, resolve } from 'node:path';

export interface ConsoleConfig {
  host: string;
  port: number;
  dataDir: string;
  dbPath: string;
  agentSocket: string;
  licenceUrl: string;
  webDir: string | undefined;
}

/** The console's settings, all from the environment (DESIGN.md names them). */
export function consoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const dataDir = resolve(env.RAMPART_DATA_DIR ?? 'var');
  // The port until an administrator saves one on the portal tab; the saved one wins after that
  // (and this one is the fallback when the saved one cannot be bound).
  const port = Number(env.RAMPART_PORT ?? 6688);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`RAMPART_PORT must be a port number, got ${env.RAMPART_PORT}`);
  return {
    host: env.RAMPART_HOST ?? '127.0.0.1',
    port,
    dataDir,
    dbPath: join(dataDir, 'console', 'panel.db'),
    agentSocket: env.RAMPART_AGENT_SOCKET ?? join(dataDir, 'run', 'agent.sock'),
    licenceUrl: env.RAMPART_LICENCE_URL ?? 'http://127.0.0.1:6690',
    webDir: env.RAMPART_WEB_DIR,
  };
}
