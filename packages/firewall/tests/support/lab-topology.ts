import { LAB_IP, OUTER_NAMESPACES, serverIpTowards, type LabNamespace } from './addresses.ts';
import type { LabNames } from './lab-names.ts';
import { track } from './netns-cleanup.ts';
import { runOrThrow } from './run.ts';

export const ROLES: readonly LabNamespace[] = ['server', 'attacker', 'third'];

/** Creates the three namespaces, the two veth pairs and every address; tracked for cleanup before they exist. */
export async function buildTopology({ namespaces, vethName }: LabNames): Promise<void> {
  for (const role of ROLES) track(namespaces[role]);
  await Promise.all(ROLES.map((role) => runOrThrow(['ip', 'netns', 'add', namespaces[role]], 'ip netns add')));

  // No duplicate address detection: addresses (link-local ones too) are usable at once, not after ~1 s.
  const noDad = ['sysctl', '-qw', 'net.ipv6.conf.all.accept_dad=0', 'net.ipv6.conf.default.accept_dad=0'];
  await Promise.all(ROLES.map((role) => runOrThrow(['ip', 'netns', 'exec', namespaces[role], ...noDad], 'disabling IPv6 DAD')));

  // Each pair is created straight inside its two namespaces: it never appears among the host's interfaces.
  const pairs = OUTER_NAMESPACES.map(
    (outer) =>
      `link add ${vethName('server', outer)} netns ${namespaces.server} ` +
      `type veth peer name ${vethName(outer, 'server')} netns ${namespaces[outer]}\n`,
  );
  await runOrThrow(['ip', '-batch', '-'], 'creating veth pairs', { input: pairs.join('') });

  await Promise.all(
    ROLES.map((role) =>
      runOrThrow(['ip', '-n', namespaces[role], '-batch', '-'], `addressing ${role}`, { input: addressing(role, vethName) }),
    ),
  );
}

/** `ip -batch` lines for one namespace: lo up, then each veth end with its two addresses, up. */
function addressing(role: LabNamespace, vethName: LabNames['vethName']): string {
  const ends =
    role === 'server'
      ? OUTER_NAMESPACES.map((outer) => ({ dev: vethName('server', outer), ...serverIpTowards(outer) }))
      : [{ dev: vethName(role, 'server'), ...LAB_IP[role] }];
  const lines = ['link set lo up'];
  for (const { dev, v4, v6 } of ends) {
    // nodad is IPv6-only (ip warns on IPv4); the sysctls above already cover the link-local addresses.
    lines.push(`address add ${v4}/24 dev ${dev}`, `address add ${v6}/64 dev ${dev} nodad`, `link set ${dev} up`);
  }
  return `${lines.join('\n')}\n`;
}
