// The licence authority's public surface.
export { openLicenceDb, withTransaction, type LicenceDb } from './db.ts';
export {
  issueLicence,
  ensureTrialLicence,
  maxLicenceDays,
  maxLicenceTransfers,
  type IssueLicenceOptions,
  type IssuedLicence,
  type TrialLicenceOptions,
} from './issue.ts';
export {
  findLicence,
  listLicences,
  readActivationLog,
  type LicenceRecord,
  type ActivationLogEntry,
  type ActivationOutcome,
} from './licence-store.ts';
export { buildAuthority, authorityBodyLimit, type AuthorityOptions } from './authority.ts';
export { defaultRateLimit, type RateLimitOptions } from './rate-limiter.ts';
export {
  authorityConfigFromEnv,
  licenceDbPathFromEnv,
  defaultLicenceDbPath,
  defaultLicenceHost,
  defaultLicencePort,
  type AuthorityConfig,
} from './config.ts';
