import { AgentClient } from '@rampart/agent-client';
import { buildConsole } from './app.ts';
import { consoleConfig } from './config.ts';
import { startPanelListener } from './portal/listener.ts';

// The console process. It refuses to run as root: whatever needs privilege goes through the agent.
if (process.getuid?.() === 0 && process.env.RAMPART_ALLOW_ROOT_CONSOLE !== '1') {
  process.stderr.write('console: refusing to run as root; `npm start` starts it as the unprivileged `rampart` user\n');
  process.exit(1);
}

const config = consoleConfig();
const agent = new AgentClient(config.agentSocket, { timeoutMs: 5000 });
const built = await buildConsole({
  db: config.dbPath, agent, licenceUrl: config.licenceUrl, webDir: config.webDir, logger: process.env.RAMPART_LOG === '1',
});
const { app, ctx, close } = built;
// Our own listener in front of the app, so the portal tab can move it (port, HTTPS) without the
// process dying; the port saved there wins over RAMPART_PORT.
const listener = await startPanelListener(app, ctx, { host: config.host, envPort: config.port });
process.stdout.write(`console listening on ${listener.url()}\n`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void listener.close().then(close).finally(() => {
      agent.close();
      process.exit(0);
    });
  });
}
