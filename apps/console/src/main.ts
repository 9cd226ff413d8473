import { AgentClient } from '@rampart/agent-client';
import { buildConsole } from './app.ts';
import { consoleConfig } from './config.ts';

// The console process. It refuses to run as root: whatever needs privilege goes through the agent.
if (process.getuid?.() === 0 && process.env.RAMPART_ALLOW_ROOT_CONSOLE !== '1') {
  process.stderr.write('console: refusing to run as root; `npm start` starts it as the unprivileged `rampart` user\n');
  process.exit(1);
}

const config = consoleConfig();
const agent = new AgentClient(config.agentSocket, { timeoutMs: 5000 });
const { app, close } = await buildConsole({
  db: config.dbPath, agent, licenceUrl: config.licenceUrl, webDir: config.webDir, logger: process.env.RAMPART_LOG === '1',
});
await app.listen({ host: config.host, port: config.port });
process.stdout.write(`console listening on http://${config.host}:${(app.server.address() as { port: number }).port}\n`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void close().finally(() => {
      agent.close();
      process.exit(0);
    });
  });
}
