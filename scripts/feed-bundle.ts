/*
 * Builds signed threat-intel bundles for Rampart's cloud protection. Rampart ships no list: the
 * administrator chooses the lists and accepts their licences, and pins the public key in the
 * console (Cloud protection → Trusted keys).
 *
 *   node_modules/.bin/node scripts/feed-bundle.ts keygen <key.json>
 *       writes a new ed25519 key pair (keep it private) and prints the public key to pin
 *   node_modules/.bin/node scripts/feed-bundle.ts build <key.json> <out.json> --id ID --name NAME
 *       --version N --source TEXT --licence TEXT [--days 7] [--v4 file.netset] [--v6 file.netset]
 *       writes a bundle: the netsets (one IP or CIDR a line, # comments) and a signed manifest
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildBundle, generateFeedKeys, keyIdOf } from '../apps/agent/src/cloud/bundle.ts';
import { option, required } from './cli-args.ts';


function main(args: string[]): void {
  const [command, ...rest] = args;
  if (command === 'keygen' && rest[0]) {
    const keys = generateFeedKeys();
    writeFileSync(rest[0], `${JSON.stringify(keys, null, 1)}\n`, { mode: 0o600 });
    process.stdout.write(`public key (pin this in the console): ${keys.publicKey}\nkey id: ${keyIdOf(keys.publicKey)}\n`);
    return;
  }
  if (command === 'build' && rest[0] && rest[1]) {
    const keys = JSON.parse(readFileSync(rest[0], 'utf8')) as { publicKey: string; privateKey: string };
    const read = (name: string) => {
      const file = option(rest, name);
      return file ? readFileSync(file, 'utf8') : '';
    };
    const now = new Date();
    const days = Number(option(rest, 'days') ?? '7');
    const bundle = buildBundle(
      {
        feed_id: required(rest, 'id'), name: required(rest, 'name'), version: Number(required(rest, 'version')),
        date: now.toISOString(), expires: new Date(now.getTime() + days * 86_400_000).toISOString(),
        source: required(rest, 'source'), licence: required(rest, 'licence'),
      },
      { v4: read('v4'), v6: read('v6') },
      keys,
    );
    writeFileSync(rest[1], JSON.stringify(bundle));
    process.stdout.write(`wrote ${rest[1]}: ${bundle.manifest.counts.v4} IPv4 and ${bundle.manifest.counts.v6} IPv6 entries, version ${bundle.manifest.version}\n`);
    return;
  }
  process.stderr.write('usage: feed-bundle.ts keygen <key.json> | build <key.json> <out.json> --id ID --name NAME --version N --source TEXT --licence TEXT [--days 7] [--v4 FILE] [--v6 FILE]\n');
  process.exitCode = 2;
}

main(process.argv.slice(2));
