import { resolve } from 'node:path';

export const defaultLicenceDbPath = './var/licence/licence.db';
export const defaultLicenceHost = '127.0.0.1';
export const defaultLicencePort = 6690;

export interface AuthorityConfig {
  host: string;
  /** 0 asks the system for any free port. */
  port: number;
  dbPath: string;
  /** Rampart releases the authority serves (RAMPART_RELEASES_DIR, else ./var/licence/releases). */
  releasesDir: string;
}

type Env = Record<string, string | undefined>;

/** The licence database path: RAMPART_LICENCE_DB, else ./var/licence/licence.db under the working directory. */
export function licenceDbPathFromEnv(env: Env = process.env): string {
  return resolve(env['RAMPART_LICENCE_DB'] || defaultLicenceDbPath);
}

/** Reads RAMPART_LICENCE_HOST / _PORT / _DB; throws with a clear message on a bad port. */
export function authorityConfigFromEnv(env: Env = process.env): AuthorityConfig {
  const rawPort = env['RAMPART_LICENCE_PORT'] || String(defaultLicencePort);
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) {
    throw new RangeError(`RAMPART_LICENCE_PORT must be a port number from 0 to 65535, got '${rawPort}'`);
  }
  return { host: env['RAMPART_LICENCE_HOST'] || defaultLicenceHost, port, dbPath: licenceDbPathFromEnv(env), releasesDir: resolve(env['RAMPART_RELEASES_DIR'] || './var/licence/releases') };
}
