import { threadId } from 'node:worker_threads';
import type { LabNamespace } from './addresses.ts';

/** Every lab namespace name starts with this, then the creating pid: leftovers can be traced to a dead run. */
export const NAMESPACE_PREFIX = 'rampart-lab-';

const IFNAME_MAX = 15;
let labCount = 0;

export interface LabNames {
  namespaces: Record<LabNamespace, string>;
  /** veth ends: `vethName('server', 'attacker')` is server's end of the server–attacker pair. */
  vethName(ns: LabNamespace, towards: LabNamespace): string;
}

/**
 * Names unique per lab: pid (parallel test files run in separate processes), thread id (in case the
 * pool uses threads) and a counter (several labs per file).
 */
export function newLabNames(): LabNames {
  labCount += 1;
  const id = [process.pid, threadId, labCount].join('-');
  const short = [process.pid, threadId, labCount].map((n) => n.toString(36)).join('-');
  const namespaces = {
    server: `${NAMESPACE_PREFIX}${id}-server`,
    attacker: `${NAMESPACE_PREFIX}${id}-attacker`,
    third: `${NAMESPACE_PREFIX}${id}-third`,
  };
  return {
    namespaces,
    vethName(ns, towards) {
      // e.g. r2hwq8-0-1-sa: server's end towards attacker; the base-36 short id keeps it within 15 chars.
      const name = `r${short}-${ns[0]}${towards[0]}`;
      if (name.length > IFNAME_MAX) throw new Error(`interface name ${name} is longer than ${IFNAME_MAX}`);
      return name;
    },
  };
}

/** The pid that created a lab namespace, or undefined for namespaces that are not ours. */
export function creatorPid(namespace: string): number | undefined {
  if (!namespace.startsWith(NAMESPACE_PREFIX)) return undefined;
  const pid = Number.parseInt(namespace.slice(NAMESPACE_PREFIX.length), 10);
  return Number.isFinite(pid) ? pid : undefined;
}
