// `rampart licence ...`: the vendor's tools for the licence database (works while the authority runs).
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  issueLicence,
  licenceDbPathFromEnv,
  listLicences,
  maxLicenceDays,
  maxLicenceTransfers,
  openLicenceDb,
  type LicenceRecord,
} from '@rampart/licence';

const usage = `usage:
  rampart licence issue --days N --transfers N [--db PATH]   issue a code; prints the code alone on stdout
  rampart licence list [--db PATH]                           one line per code: code, expiry, device, transfers left/total
  --db defaults to $RAMPART_LICENCE_DB, else ./var/licence/licence.db
`;

/** Thrown for anything the operator typed wrong: reported with the usage text, exit code 2. */
class UsageError extends Error {}

function count(name: string, raw: string | undefined, max: number): number {
  if (raw === undefined) throw new UsageError(`--${name} is required`);
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got '${raw}'`);
  return Number(raw);
}

function dbPath(flag: string | undefined): string {
  if (flag === '') throw new UsageError('--db needs a path');
  return flag ?? licenceDbPathFromEnv();
}

function issue(args: string[]): number {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: { days: { type: 'string' }, transfers: { type: 'string' }, db: { type: 'string' } },
  });
  const days = count('days', values.days, maxLicenceDays);
  const transfers = count('transfers', values.transfers, maxLicenceTransfers);
  const path = dbPath(values.db);
  const db = openLicenceDb(path);
  try {
    const issued = issueLicence(db, { days, transfers });
    process.stdout.write(`${issued.code}\n`);
    process.stderr.write(
      `product ${issued.product_id}, expires ${new Date(issued.expires_at).toISOString()}, ${transfers} transfer(s), database ${path}\n`,
    );
    return 0;
  } finally {
    db.close();
  }
}

function formatLicence(licence: LicenceRecord): string {
  const expiry = new Date(licence.expires_at).toISOString();
  return `${licence.code}  ${expiry}  ${licence.device_id ?? '-'}  ${licence.transfers_left}/${licence.transfers_total}`;
}

function list(args: string[]): number {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: { db: { type: 'string' } } });
  const path = dbPath(values.db);
  // Listing must not conjure an empty database out of a mistyped path.
  if (!existsSync(path)) {
    process.stderr.write(`rampart licence: no licence database at ${path}\n`);
    return 1;
  }
  const db = openLicenceDb(path);
  try {
    const licences = listLicences(db);
    for (const licence of licences) process.stdout.write(formatLicence(licence) + '\n');
    if (licences.length === 0) process.stderr.write(`no licences in ${path}\n`);
    return 0;
  } finally {
    db.close();
  }
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    switch (sub) {
      case 'issue':
        return issue(rest);
      case 'list':
        return list(rest);
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(usage);
        return 0;
      default:
        throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand '${sub}'`);
    }
  } catch (err) {
    // parseArgs reports unknown options and missing values with ERR_PARSE_ARGS_* codes.
    const isParseError = err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS');
    if (err instanceof UsageError || isParseError) {
      process.stderr.write(`rampart licence: ${(err as Error).message}\n${usage}`);
      return 2;
    }
    throw err;
  }
}
