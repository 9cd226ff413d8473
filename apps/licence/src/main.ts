// The licence authority process: `node apps/licence/src/main.ts`. Configured by environment (see config.ts).
import type { AddressInfo } from 'node:net';
import { authorityConfigFromEnv } from './config.ts';
import { openLicenceDb } from './db.ts';
import { buildAuthority } from './authority.ts';

async function main(): Promise<void> {
  const config = authorityConfigFromEnv();
  const db = openLicenceDb(config.dbPath);
  // Logs go to stderr: stdout carries only the ready line that supervisors and tests read.
  const app = buildAuthority({ db, logger: { level: 'warn', stream: process.stderr }, releasesDir: config.releasesDir });

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(() => {
        db.close();
        process.exitCode = 0;
      })
      .catch((err: unknown) => {
        process.stderr.write(`licence authority: error while stopping on ${signal}: ${String(err)}\n`);
        process.exitCode = 1;
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  const { port } = app.server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`licence authority listening on http://${host}:${port}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`licence authority failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
