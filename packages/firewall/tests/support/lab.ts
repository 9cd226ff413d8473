import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { isIPv6 } from 'node:net';
import { linkOfAddress, type LabNamespace } from './addresses.ts';
import { waitUntilReachable } from './lab-reachability.ts';
import { ROLES, buildTopology } from './lab-topology.ts';
import { newLabNames } from './lab-names.ts';
import { forget, removeNamespace, sweepDeadRuns } from './netns-cleanup.ts';
import { PEER_SCRIPT, connectPeer, type Peer } from './peer.ts';
import { run, runOrThrow, type RunOptions, type RunResult } from './run.ts';

export { LAB_IP, type LabNamespace } from './addresses.ts';
export { canUseNetns } from './netns-available.ts';

/**
 * Three network namespaces, attacker and third each linked to server by its own veth pair:
 *
 *   attacker 10.77.1.2 fd77:1::2 ── 10.77.1.1 fd77:1::1  server  10.77.2.1 fd77:2::1 ── 10.77.2.2 fd77:2::2 third
 *
 * Server does not forward. Nothing links the lab to the host's interfaces, so no test packet leaves it.
 */
export interface Lab {
  /** The real namespace names (unique per run), e.g. for `ip netns exec` by hand. */
  readonly names: Record<LabNamespace, string>;
  /** The veth end in `ns` that faces `towards` (one of the two is server), e.g. for nft `iifname`. */
  ifname(ns: LabNamespace, towards: LabNamespace): string;
  /** Runs a command inside the namespace to completion; a non-zero exit is returned, not thrown. */
  exec(ns: LabNamespace, argv: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Starts a long-running command inside the namespace; `destroy` kills it. stdio: pipe, pipe, inherit. */
  spawn(ns: LabNamespace, argv: readonly string[], options?: { stdio?: StdioOptions }): ChildProcess;
  /** Adds an address (CIDR) on the namespace's veth of the matching link, e.g. ('attacker', '10.77.1.3/24'). */
  addAddress(ns: LabNamespace, cidr: string): Promise<void>;
  /** The namespace's peer process (started on first use, then shared). */
  peer(ns: LabNamespace): Promise<Peer>;
  /** Runs at `destroy`, after the processes are gone (last registered first), e.g. to remove a temp dir. */
  onDestroy(cleanup: () => Promise<void> | void): void;
  /** Kills every process in the namespaces and deletes them (and so the veths). Safe to call twice. */
  destroy(): Promise<void>;
}

/** Builds a lab and waits until all its links answer; on any failure it is torn down again. */
export async function createLab(): Promise<Lab> {
  sweepDeadRuns();
  const names = newLabNames();
  const { namespaces } = names;
  const children = new Set<ChildProcess>();
  const peers = new Map<LabNamespace, Promise<Peer>>();
  const cleanups: (() => Promise<void> | void)[] = [];
  let destroyed = false;

  const lab: Lab = {
    names: namespaces,
    ifname(ns, towards) {
      if ((ns === 'server') === (towards === 'server')) throw new Error(`no link between ${ns} and ${towards}`);
      return names.vethName(ns, towards);
    },
    exec: (ns, argv, options) => run(['ip', 'netns', 'exec', namespaces[ns], ...argv], options),
    spawn(ns, argv, options = {}) {
      if (destroyed) throw new Error('lab already destroyed');
      const child = spawn('ip', ['netns', 'exec', namespaces[ns], ...argv], {
        stdio: options.stdio ?? ['pipe', 'pipe', 'inherit'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    async addAddress(ns, cidr) {
      const link = linkOfAddress(cidr);
      if (ns !== 'server' && ns !== link) throw new Error(`${cidr} is not on ${ns}'s link`);
      const dev = ns === 'server' ? names.vethName('server', link) : names.vethName(ns, 'server');
      const argv = ['ip', '-n', namespaces[ns], 'address', 'add', cidr, 'dev', dev];
      await runOrThrow(isIPv6(cidr.split('/')[0]!) ? [...argv, 'nodad'] : argv, `adding ${cidr}`);
    },
    peer(ns) {
      let peer = peers.get(ns);
      if (!peer) {
        peer = connectPeer(lab.spawn(ns, [process.execPath, PEER_SCRIPT]), ns);
        peers.set(ns, peer);
        peer.catch(() => peers.delete(ns));
      }
      return peer;
    },
    onDestroy: (cleanup) => void cleanups.push(cleanup),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const child of children) child.kill('SIGKILL');
      for (const role of ROLES) {
        removeNamespace(namespaces[role]);
        forget(namespaces[role]);
      }
      await allExited(children, 2_000);
      while (cleanups.length) await cleanups.pop()!();
    },
  };

  try {
    await buildTopology(names);
    await waitUntilReachable(lab.peer);
  } catch (error) {
    await lab.destroy();
    throw error;
  }
  return lab;
}

/** Our own children are reaped by Node, so waiting for their 'exit' means no zombie is left. */
function allExited(children: Set<ChildProcess>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  return new Promise((resolve) => {
    const check = () => (children.size === 0 || Date.now() > deadline ? resolve() : setTimeout(check, 10));
    check();
  });
}
