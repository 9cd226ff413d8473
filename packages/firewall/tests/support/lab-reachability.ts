import { LAB_IP, OUTER_NAMESPACES, serverIpTowards, type LabNamespace } from './addresses.ts';
import type { Peer, ProbeResult, ProbeSpec } from './peer.ts';

/** The peers probe this port on each other; nobody listens there, so "refused" proves a round trip. */
const UNUSED_PORT = 9;
const READY_WITHIN_MS = 5_000;

/**
 * Waits until every link works both ways in both families, as ping would show (no ping binary
 * here): each end gets a RST back from the other.
 */
export async function waitUntilReachable(peer: (ns: LabNamespace) => Promise<Peer>): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    const rounds = OUTER_NAMESPACES.flatMap((outer) => [
      peer(outer).then((p) => p.probeMany(bothFamilies(serverIpTowards(outer)))),
      peer('server').then((p) => p.probeMany(bothFamilies(LAB_IP[outer]))),
    ]);
    const notYet = (await Promise.all(rounds)).flat().filter((result: ProbeResult) => result.state !== 'refused');
    if (notYet.length === 0) return;
    if (Date.now() > deadline) throw new Error(`lab links not up: ${JSON.stringify(notYet)}`);
  }
}

function bothFamilies(ip: { v4: string; v6: string }): ProbeSpec[] {
  return [ip.v4, ip.v6].map((host) => ({ proto: 'tcp', host, port: UNUSED_PORT, timeoutMs: 200 }));
}
