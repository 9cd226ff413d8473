/**
 * Login-to-notice benchmark, run by hand as root:
 *   node bench/remote/login-to-notice.ts [--runs 20] [--poll 1000]
 *
 * A real agent in the host namespace, its nft bound to the test lab's server namespace, remote
 * protection on with the attacker's address authorized and login notification on. A real sshd in
 * the server namespace writes its log to a file (as to /var/log/auth.log; this machine has no
 * journald), which the agent's login watcher follows (inotify, and a poll every --poll ms, the
 * production default being 1000). For each run a key login from the attacker namespace:
 *  - upper bound: from the start of the ssh client (connection, key exchange and authentication
 *    included) until `notices.list` shows the login's notice (polled every 5 ms);
 *  - accepted: from the moment sshd's "Accepted publickey" line is in the log file (the bench reads
 *    the file every 2 ms beside the agent) until the same: the figure the goal is about;
 *  - lower bound: from the ssh client's exit (sshd logged "Accepted" before it) until the same.
 * The goal is <= 2 s from the accepted login.
 */
import { AgentClient } from '@rampart/agent-client';
import { startAgent } from '@rampart/agent';
import { createNftExecutor } from '@rampart/firewall';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAB_IP, createLab } from '../../packages/firewall/tests/support/lab.ts';
import { keyLogin, startKeySshd } from '../../apps/agent/tests/remote-sshd.ts';
import { fixed, log, main, median, numberArg, onCleanup, printTable, sleep } from '../firewall/support.ts';

const runs = numberArg('runs', 20);
const pollMs = numberArg('poll', 1000);
const server = LAB_IP.server.toAttacker.v4;

await main(async () => {
  const lab = await createLab();
  onCleanup('lab', () => lab.destroy());
  const sshd = await startKeySshd(lab, 'server', 2222);
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-remote-'));
  onCleanup('temp dir', () => rm(dir, { recursive: true, force: true }));
  const agent = await startAgent({
    socketPath: join(dir, 'agent.sock'), stateDir: join(dir, 'agent'), log: () => {},
    executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
    firewall: { nft: createNftExecutor({ netns: lab.names.server }), background: false, sensors: { journal: false } },
    remote: { sshdCommand: sshd.effectiveCommand, loginSources: { files: [sshd.logFile], journal: false, pollMs } },
  });
  onCleanup('agent', () => agent.close());
  const client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
  await client.call('module.switch', { modules: ['firewall', 'remote'], status: 1 });
  await client.call('remote.access.set', { access: { ips: [LAB_IP.attacker.v4], areas: [], windows: [], notify_login: true }, guard: null });

  const upper: number[] = [];
  const lower: number[] = [];
  const accepted: number[] = [];
  let seen = 0;
  const acceptedLines = async () => ((await readFile(sshd.logFile, 'utf8')).match(/Accepted publickey/g) ?? []).length;
  for (let i = 0; i < runs; i++) {
    const before = await acceptedLines();
    let acceptedAt = 0;
    const watcher = setInterval(() => {
      void acceptedLines().then((n) => {
        if (n > before && acceptedAt === 0) acceptedAt = Date.now();
      });
    }, 2);
    const start = Date.now();
    if (!(await keyLogin(lab, 'attacker', server, sshd))) throw new Error('the login was refused');
    const exited = Date.now();
    for (;;) {
      const page = await client.call('notices.list', { offset: 0, limit: 200 });
      const count = page.list.filter((n) => n.kind === 'remote_login').length;
      if (count > seen) {
        seen = count;
        break;
      }
      if (Date.now() - start > 10_000) throw new Error('no notice within 10 s');
      await sleep(5);
    }
    const noticed = Date.now();
    clearInterval(watcher);
    upper.push(noticed - start);
    lower.push(noticed - exited);
    accepted.push(noticed - acceptedAt);
    log(`run ${i + 1}: ${noticed - acceptedAt} ms from "Accepted", ${noticed - start} ms from client start, ${noticed - exited} ms from client exit`);
  }
  const max = (values: number[]) => Math.max(...values);
  printTable(['measure', 'median ms', 'max ms', 'goal'], [
    ['"Accepted" in the log → notice', fixed(median(accepted), 0), fixed(max(accepted), 0), '<= 2000'],
    ['client start → notice (upper bound)', fixed(median(upper), 0), fixed(max(upper), 0), '<= 2000'],
    ['client exit → notice (lower bound)', fixed(median(lower), 0), fixed(max(lower), 0), '<= 2000'],
  ]);
});
