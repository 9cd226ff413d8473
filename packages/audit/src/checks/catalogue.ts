import type { AuditCheckInfo } from '@rampart/contracts';
import { accountChecks } from './accounts.ts';
import { bannerChecks } from './banner.ts';
import type { AuditCheck } from './check.ts';
import { cronChecks } from './cron.ts';
import { debianToolChecks } from './debian-tools.ts';
import { fileChecks } from './files.ts';
import { hashRoundsCheck } from './hash-rounds.ts';
import { kernelModuleChecks } from './kernel-modules.ts';
import { loggingChecks } from './logging.ts';
import { mountChecks } from './mounts.ts';
import { openDeletedCheck } from './open-deleted.ts';
import { packageChecks } from './packages.ts';
import { pamChecks } from './pam.ts';
import { rampartChecks } from './rampart.ts';
import { serviceChecks } from './services.ts';
import { sshChecks } from './ssh.ts';
import { sysctlChecks } from './sysctl.ts';
import { timeChecks } from './time-sync.ts';

/** Every system check, in the order the report lists them. */
export const allChecks: readonly AuditCheck[] = [
  ...sshChecks,
  ...pamChecks,
  hashRoundsCheck,
  ...accountChecks,
  ...fileChecks,
  ...sysctlChecks,
  ...kernelModuleChecks,
  ...serviceChecks,
  ...bannerChecks,
  ...cronChecks,
  ...timeChecks,
  ...loggingChecks,
  openDeletedCheck,
  ...mountChecks,
  ...packageChecks,
  ...debianToolChecks,
  ...rampartChecks,
];

export const checksById: ReadonlyMap<string, AuditCheck> = new Map(allChecks.map((c) => [c.id, c]));

/** The catalogue as the console lists it: data only, texts in both languages. */
export function describeChecks(checks: readonly AuditCheck[] = allChecks): AuditCheckInfo[] {
  return checks.map((c) => ({ id: c.id, cisSection: c.cisSection, category: c.category, level: c.level, title: c.title, advice: c.advice, fixable: c.fix !== undefined }));
}
