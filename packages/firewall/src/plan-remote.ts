import { parseAddressEntry, type RemoteWindow } from '@rampart/contracts';
import type { AreaResolver } from './desired-state.ts';
import { addrType, chains, families, remoteAreaSetName, tableName } from './layout.ts';
import { addressField, drop, family, jump, match, meta, payload, rangeElement, returnVerdict, setRef, type NftCommand, type NftExpr } from './nft-json.ts';
import { rangesOf } from './ranges.ts';
import { hourRange, utcWindowPieces } from './remote-time.ts';

/* Remote-login protection: sshd's ports accept only the authorized sources inside the windows. */

/** Remote protection as the planner needs it (absent or null: off, no chain). */
export interface PlannedRemote {
  /** sshd's listening ports (`sshd -T`). */
  ports: readonly number[];
  /** Authorized sources: addresses (`*` for all) and areas (countries, provinces; common areas expanded). */
  ips: readonly string[];
  areas: readonly string[];
  /** Local-time windows; none means at any time. */
  windows: readonly RemoteWindow[];
  /** The server's UTC offset (minutes east) when planned: the windows are converted with it. */
  utcOffsetMinutes: number;
}

const rule = (expr: NftExpr[], comment?: string): NftCommand => ({
  add: { rule: { family, table: tableName, chain: chains.remote, ...(comment ? { comment } : {}), expr } },
});

export function remoteActive(remote: PlannedRemote | null | undefined): remote is PlannedRemote {
  return remote !== null && remote !== undefined && remote.ports.length > 0;
}

/** The jump from the input chain, placed right after the super whitelist (which is never cut). */
export function planRemoteJump(remote: PlannedRemote): NftCommand {
  return {
    add: {
      rule: {
        family,
        table: tableName,
        chain: chains.input,
        comment: 'remote login',
        expr: [match(meta('l4proto'), 'tcp'), match(payload('tcp', 'dport'), { set: [...remote.ports] }), jump(chains.remote)],
      },
    },
  };
}

/** The area sets of the authorized areas, declared and filled (none when `*` authorizes everyone). */
export function remoteAreaSets(remote: PlannedRemote, areas: AreaResolver): Array<{ name: string; fam: 4 | 6; commands: NftCommand[] }> {
  if (remote.areas.length === 0 || remote.ips.some((ip) => ip.trim() === '*')) return [];
  const resolved = areas.ranges(remote.areas);
  const out: Array<{ name: string; fam: 4 | 6; commands: NftCommand[] }> = [];
  for (const fam of families) {
    const merged = rangesOf((fam === 4 ? resolved.v4 : resolved.v6).filter((text) => parseAddressEntry(text) !== null));
    const elements = (fam === 4 ? merged.v4 : merged.v6).map((range) => rangeElement(range, fam));
    if (elements.length === 0) continue;
    const name = remoteAreaSetName(fam);
    out.push({
      name,
      fam,
      commands: [
        { add: { set: { family, table: tableName, name, type: addrType(fam), flags: ['interval'] } } },
        { add: { element: { family, table: tableName, name, elem: elements } } },
      ],
    });
  }
  return out;
}

/**
 * The remote chain: running sessions go on (a window's end refuses new logins, it does not cut
 * a session), then each authorized source × window piece returns to the input chain (so the
 * blacklist and interception list still apply), and everything else is dropped.
 */
export function planRemoteChain(remote: PlannedRemote, sets: ReadonlyArray<{ name: string; fam: 4 | 6 }>): NftCommand[] {
  const commands: NftCommand[] = [rule([match({ ct: { key: 'state' } }, ['established', 'related'], 'in'), returnVerdict])];
  const sources: NftExpr[][] = [];
  const addresses = rangesOf([...remote.ips]);
  if (addresses.any) sources.push([]);
  else {
    for (const fam of families) {
      const ranges = fam === 4 ? addresses.v4 : addresses.v6;
      if (ranges.length > 0) sources.push([match(addressField(fam, 'saddr'), { set: ranges.map((r) => rangeElement(r, fam)) })]);
    }
    for (const set of sets) sources.push([match(addressField(set.fam, 'saddr'), setRef(set.name))]);
  }
  const pieces = utcWindowPieces(remote.windows, remote.utcOffsetMinutes);
  const times: NftExpr[][] =
    remote.windows.length === 0
      ? [[]]
      : pieces.map((piece) => [match(meta('day'), { set: piece.days }), match(meta('hour'), { range: hourRange(piece) })]);
  for (const source of sources) for (const time of times) commands.push(rule([...source, ...time, returnVerdict], 'remote authorized'));
  commands.push(rule([drop], 'remote not authorized'));
  return commands;
}


