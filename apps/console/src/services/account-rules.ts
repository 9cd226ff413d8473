import type { MessageKey, RoleId } from '@rampart/contracts';

export interface AccountState {
  id: number;
  role: RoleId;
  status: 0 | 1;
}

/** What a change leaves of an account: its role and status afterwards, or nothing (deleted). */
export type AccountOutcome = { role: RoleId; status: 0 | 1 } | 'deleted';

const enabledAdmin = (a: { role: RoleId; status: 0 | 1 }) => a.role === 'admin' && a.status === 1;

/**
 * Why a change would lock administrators out, or null when it may go ahead:
 * - nobody deletes or disables the account they are signed in with, or takes its admin role away;
 * - the last enabled administrator is never deleted, disabled or demoted.
 * The second rule also covers what the first cannot see (a change made while another
 * administrator is the only enabled one, the CLI, future roles with system rights).
 */
export function lockOutProblem(callerId: number, target: AccountState, outcome: AccountOutcome, enabledAdmins: number): MessageKey | null {
  if (target.id === callerId) {
    if (outcome === 'deleted') return 'user_self_delete';
    if (outcome.status === 0 && target.status === 1) return 'user_self_disable';
    if (target.role === 'admin' && outcome.role !== 'admin') return 'user_self_demote';
  }
  const staysEnabledAdmin = outcome !== 'deleted' && enabledAdmin(outcome);
  if (enabledAdmin(target) && !staysEnabledAdmin && enabledAdmins <= 1) return 'user_last_admin';
  return null;
}
