/*
 * A network namespace that takes the product's nftables calls, so a browser test can switch the
 * firewall module on without touching this machine's own ruleset.
 *
 * The agent runs `nft` from its PATH (packages/firewall executor.ts); the product started with
 * `env` finds a wrapper first that runs the real nft inside the namespace, as the agent's kernel
 * tests do with `createNftExecutor({ netns })`. Deleting the namespace drops whatever it held.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FirewallNetns {
  /** Variables for `startProduct`: the wrapper's folder first on PATH. */
  env: Record<string, string>;
  /** Whether Rampart's table is in the namespace (the kernel the product writes to). */
  tableExists(): boolean;
  remove(): void;
}

export function createFirewallNetns(): FirewallNetns {
  const name = `rampart-e2e-fw-${process.pid}`;
  const nft = spawnSync('sh', ['-c', 'command -v nft'], { encoding: 'utf8' }).stdout.trim();
  if (!nft) throw new Error('nft is missing');
  const added = spawnSync('ip', ['netns', 'add', name], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`ip netns add ${name}: ${added.stderr}`);
  const bin = mkdtempSync(join(tmpdir(), 'rampart-e2e-nft-'));
  chmodSync(bin, 0o755);
  writeFileSync(join(bin, 'nft'), `#!/bin/sh\nexec ip netns exec ${name} ${nft} "$@"\n`, { mode: 0o755 });
  return {
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin'}` },
    tableExists: () => spawnSync('ip', ['netns', 'exec', name, nft, 'list', 'table', 'inet', 'rampart'], { stdio: 'ignore' }).status === 0,
    remove() {
      spawnSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
      rmSync(bin, { recursive: true, force: true });
    },
  };
}
