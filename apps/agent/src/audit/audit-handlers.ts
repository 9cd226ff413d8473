import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { AuditService } from './audit-service.ts';
import type { InventoryMethods } from './inventory-handlers.ts';

/** The user and process tabs answer in inventory-handlers.ts, the patch tab in patch-handlers.ts. */
type AuditMethods = Exclude<Extract<keyof AgentHandlers, `audit.${string}`>, InventoryMethods | `audit.patch.${string}`>;

/**
 * Every `audit.*` call. Starting a run and applying reinforcement answer at once and go on in the
 * background (status reports progress); the console records who asked in its audit trail.
 */
export function auditHandlers(service: AuditService): Pick<AgentHandlers, AuditMethods> {
  return {
    'audit.status': async () => service.status(),
    'audit.start': async ({ account }) => service.start(account),
    'audit.results': async (query) => service.results(query),
    'audit.history': async ({ offset, limit }) => service.history(offset, limit),
    'audit.run.inventory': async ({ run_id }) => service.inventory(run_id),
    'audit.reinforce.items': async () => ({ list: service.items() }),
    'audit.reinforce.apply': async ({ checkIds }) => service.apply(checkIds),
    'audit.reinforce.revert': async ({ checkIds }) => service.revert(checkIds),
  };
}
