import { chmodSync, chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ensureTrialLicence, openLicenceDb } from '@rampart/licence';
import { isRegistered } from '@rampart/console';
import { Child } from '../supervisor/child.ts';
import {
  canRunAs, canWriteAs, chownTree, dataPaths, ensureServiceUser, keepOwnership, resolveDataDir, serviceUserName, type ServiceUser,
} from '../supervisor/service-user.ts';

const repo = resolve(import.meta.dirname, '../../../..');
const script = (app: string) => join(repo, 'apps', app, 'src', 'main.ts');

/**
 * Is the console registered yet? Read-only, so root creates no database files the console then
 * cannot write; a missing or unmigrated database means no.
 */
function consoleRegistered(dbPath: string): boolean {
  try {
    const db = new DatabaseSync(dbPath, { readOnly: true });
    try {
      return isRegistered(db, Date.now());
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Said at stop, as root: what keeps enforcing in the kernel without the product, and how to end it. */
const stoppedNote =
  '[rampart] stopped. By design the firewall (nftables table inet rampart, with remote-login protection) and, on the ' +
  "BPF LSM backend, the guard's pinned programs stay in the kernel and keep enforcing the last rules. To remove them deliberately: " +
  '`npx rampart firewall off` and `apps/guard/build/rampart-guard --unload`.\n';

/**
 * `npm start`: the whole product on this machine. As root, the agent runs as root and the console
 * and the local licence authority run as the unprivileged `rampart` user. Not as root, everything
 * runs as the current user and the agent says plainly that kernel protection needs root.
 */
export async function run(_args: string[]): Promise<number> {
  const isRoot = process.getuid?.() === 0;
  const dataDir = resolveDataDir();
  const paths = dataPaths(dataDir);
  for (const dir of [dataDir, paths.console, paths.agent, paths.licence, paths.run]) mkdirSync(dir, { recursive: true });

  let user: ServiceUser | undefined;
  if (isRoot) {
    user = ensureServiceUser();
    if (!canRunAs(user, process.execPath, script('console'))) {
      process.stderr.write(
        `The ${serviceUserName} user cannot read ${repo}. Put the checkout where other users can read it ` +
          `(for example /opt/rampart), or allow it with: chmod o+x on each parent folder.\n`,
      );
      return 1;
    }
    chownTree([paths.console, paths.licence], user);
    // The console and the licence authority write their folders as the service user: a data folder
    // it cannot reach (under a private home, say) would otherwise only show as a child that exited.
    for (const dir of [paths.console, paths.licence]) {
      if (!canWriteAs(user, process.execPath, dir)) {
        process.stderr.write(
          `The ${serviceUserName} user cannot write ${dir} (the data folder is ${dataDir}, from RAMPART_DATA_DIR or ./var). ` +
            `Choose a data folder it can reach (for example /var/lib/rampart), or allow it with: chmod o+x on each parent folder of ${dataDir}.\n`,
        );
        return 1;
      }
    }
    // The socket folder: root owns it, the console's group may enter it.
    chownSync(paths.run, 0, user.gid);
    chmodSync(paths.run, 0o750);
    chmodSync(paths.agent, 0o700);
    // Account hashes and licence records are nobody else's business.
    chmodSync(paths.console, 0o700);
    chmodSync(paths.licence, 0o700);
  }
  const asService = user ? { uid: user.uid, gid: user.gid } : {};
  const baseEnv = { ...process.env, RAMPART_DATA_DIR: dataDir, RAMPART_AGENT_SOCKET: paths.agentSocket };

  const children: Child[] = [];
  const stopAll = async () => {
    for (const c of [...children].reverse()) await c.stop();
  };

  try {
    let licenceUrl = process.env.RAMPART_LICENCE_URL;
    // The authority and the agent need nothing of each other: they start side by side, and only
    // the console waits for the authority's address.
    let licenceReady: Promise<unknown> = Promise.resolve();
    if (!licenceUrl) {
      const trial = keepOwnership(paths.licenceDb, () => {
        const db = openLicenceDb(paths.licenceDb);
        try {
          return ensureTrialLicence(db, { days: 30, transfers: 1 });
        } finally {
          db.close();
        }
      });
      if (user) chownTree([paths.licenceDb], user);
      const authority = new Child({
        name: 'licence', script: script('licence'), ready: /listening on (http:\/\/\S+)/, ...asService,
        env: { ...baseEnv, RAMPART_LICENCE_DB: paths.licenceDb, RAMPART_LICENCE_PORT: process.env.RAMPART_LICENCE_PORT ?? '6690' },
      }, process.execPath);
      children.push(authority);
      licenceReady = authority.start().then((match) => {
        licenceUrl = match[1]!;
      });
      // Awaited below; a failure meanwhile must not count as an unhandled rejection.
      licenceReady.catch(() => {});
      if (trial.created || !consoleRegistered(paths.consoleDb)) {
        process.stdout.write(`\nTrial licence key: ${trial.code}  (30 days; enter it on the registration page)\n\n`);
      }
    }

    const restartSoftware = async () => {
      process.stdout.write('[rampart] restarting the software\n');
      // Console down first and up last, so the page that polls for it finds the agent already
      // answering (the other order showed "the protection service is not connected" on a slow host).
      await consoleChild.stop();
      await agentChild.restart();
      await consoleChild.start();
    };
    const agentChild = new Child({
      name: 'agent', script: script('agent'), ready: /agent listening on/, ipc: true,
      env: { ...baseEnv, ...(user ? { RAMPART_SOCKET_GROUP: serviceUserName } : {}) },
      onMessage: (m) => {
        if ((m as { type?: string })?.type === 'restart-software') void restartSoftware();
      },
    }, process.execPath);
    children.push(agentChild);
    await Promise.all([agentChild.start(), licenceReady]);

    // The website gateway (issue 6). As root it always runs (with no site it listens nowhere), so a
    // site the console adds is served after the console writes the file and asks for a reload over
    // the admin socket (group-accessible to the console's user); the console owns the folder of the
    // file. Without root it starts only when a file exists. Its primary stays root to bind ports
    // 80/443; its workers, which parse the traffic, run as the service user. A refused file must
    // not stop the rest of the product.
    const gatewayConfig = process.env.RAMPART_GATEWAY_CONFIG ?? join(dataDir, 'gateway', 'gateway.json');
    if (user && !process.env.RAMPART_GATEWAY_CONFIG) {
      mkdirSync(dirname(gatewayConfig), { recursive: true });
      if (!existsSync(gatewayConfig)) writeFileSync(gatewayConfig, '{"sites":[]}\n', { mode: 0o640 });
      chownTree([dirname(gatewayConfig), gatewayConfig], user);
    }
    if (existsSync(gatewayConfig)) {
      const gatewayChild = new Child({
        name: 'gateway', script: script('gateway'), ready: /^\{"ready"/,
        // Primary only (workers set their own): measured 2 cores, wrk via 60k addresses: RSS 107 vs 115 MiB idle, peak 117-121 vs 123-134, same req/s.
        nodeOptions: ['--max-semi-space-size=1'],
        env: {
          ...baseEnv, RAMPART_GATEWAY_CONFIG: gatewayConfig, RAMPART_GATEWAY_ADMIN_SOCKET: join(paths.run, 'gateway.sock'),
          ...(user ? { RAMPART_GATEWAY_UID: String(user.uid), RAMPART_GATEWAY_GID: String(user.gid), RAMPART_GATEWAY_ADMIN_GID: String(user.gid) } : {}),
        },
      }, process.execPath);
      children.push(gatewayChild);
      await gatewayChild.start().catch((err: Error) => process.stderr.write(`[gateway] not started: ${err.message}\n`));
    }

    const consoleChild = new Child({
      name: 'console', script: script('console'), ready: /console listening on (https?:\/\/\S+)/, ...asService,
      env: { ...baseEnv, RAMPART_LICENCE_URL: licenceUrl },
    }, process.execPath);
    children.push(consoleChild);
    const consoleUrl = (await consoleChild.start())[1]!;
    process.stdout.write(`\nRampart console: ${consoleUrl}/\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    await stopAll();
    return 1;
  }

  return new Promise<number>((resolveExit) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stopAll().then(() => {
        if (isRoot) process.stdout.write(stoppedNote);
        resolveExit(0);
      }));
    }
  });
}
