import { z } from 'zod';
import { firewallChangeSchema, firewallGuardSchema } from './firewall.ts';
import { remoteAccessSchema, remoteBruteforceSchema, remoteViewSchema } from './remote.ts';

/* Agent calls and console calls of remote-login protection. The agent keeps the settings next to the firewall's. */

export const remoteAgentParams = {
  'remote.get': z.object({}).strict(),
  /** Goes through the firewall's guard: a change that cuts the administrator's own address from SSH is on probation. */
  'remote.access.set': z.object({ access: remoteAccessSchema, guard: firewallGuardSchema.nullable() }).strict(),
  'remote.bruteforce.set': z.object({ bruteforce: remoteBruteforceSchema }).strict(),
} as const;

export const remoteAgentResults = {
  'remote.get': remoteViewSchema,
  'remote.access.set': firewallChangeSchema,
  'remote.bruteforce.set': z.object({ ok: z.literal(true) }),
} as const;

/* Console bodies (`/magapi/remote/...`). */
export const remoteAccessBodySchema = remoteAccessSchema;
export const remoteBruteforceBodySchema = remoteBruteforceSchema;
