import type { LabNamespace } from './addresses.ts';
import type { Lab } from './lab.ts';
import { assertSucceeded } from './run.ts';

/** `nft -j list ruleset`: a flat list of objects such as `{ table: {...} }`, `{ rule: {...} }` (libnftables-json(5)). */
export interface NftJson {
  nftables: Record<string, unknown>[];
}

/** Loads a ruleset inside the namespace: text goes to `nft -f -`, an object to `nft -j -f -`. Throws with nft's error. */
export async function nft(lab: Lab, ns: LabNamespace, script: string | NftJson | object): Promise<void> {
  const json = typeof script !== 'string';
  const argv = json ? ['nft', '-j', '-f', '-'] : ['nft', '-f', '-'];
  const input = json ? JSON.stringify(script) : script;
  assertSucceeded(await lab.exec(ns, argv, { input }), `nft in ${ns}`);
}

export async function listRuleset(lab: Lab, ns: LabNamespace): Promise<NftJson> {
  const { stdout } = assertSucceeded(await lab.exec(ns, ['nft', '-j', 'list', 'ruleset']), `nft list ruleset in ${ns}`);
  return JSON.parse(stdout) as NftJson;
}
