/*
 * Builds the signed manifest of a Rampart release, for the vendor. The licence authority serves
 * every `*.release.json` in its releases folder (RAMPART_RELEASES_DIR) with the package beside it;
 * an installation verifies size, SHA-256 and signature against the vendor key its administrator
 * pinned (home page → update → settings). No key ships with Rampart.
 *
 *   node_modules/.bin/node scripts/release-manifest.ts keygen <key.json>
 *       writes a new ed25519 key pair (keep it private) and prints the public key to pin
 *   node_modules/.bin/node scripts/release-manifest.ts sign <key.json> <package file> --version 1.2.0
 *       --notes-zh TEXT --notes-en TEXT [--date ISO]
 *       writes <package file>.release.json beside the package; copy both into the releases folder
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { releaseManifestSchema } from '@rampart/contracts';
import { generateFeedKeys, keyIdOf } from '../apps/agent/src/cloud/bundle.ts';
import { signRelease } from '../apps/agent/src/release/release-sign.ts';
import { option, required } from './cli-args.ts';


function main(args: string[]): void {
  const [command, ...rest] = args;
  if (command === 'keygen' && rest[0]) {
    const keys = generateFeedKeys();
    writeFileSync(rest[0], `${JSON.stringify(keys, null, 1)}\n`, { mode: 0o600 });
    process.stdout.write(`public key (the administrator pins this): ${keys.publicKey}\nkey id: ${keyIdOf(keys.publicKey)}\n`);
    return;
  }
  if (command === 'sign' && rest[0] && rest[1]) {
    const keys = JSON.parse(readFileSync(rest[0], 'utf8')) as { publicKey: string; privateKey: string };
    const bytes = readFileSync(rest[1]);
    const release = signRelease(
      { version: required(rest, 'version'), date: option(rest, 'date') ?? new Date().toISOString(), notes: { 'zh-CN': required(rest, 'notes-zh'), 'en-US': required(rest, 'notes-en') }, file: path.basename(rest[1]) },
      bytes,
      keys,
    );
    // The same checks an installation makes on the manifest's shape: a bad version or file name fails here, not there.
    releaseManifestSchema.parse(release.manifest);
    const out = `${rest[1]}.release.json`;
    writeFileSync(out, `${JSON.stringify(release, null, 1)}\n`);
    process.stdout.write(`${out}: version ${release.manifest.version}, ${release.manifest.size} bytes, sha256 ${release.manifest.sha256}, key ${release.signature.key_id}\n`);
    return;
  }
  process.stderr.write('usage: release-manifest.ts keygen <key.json> | sign <key.json> <package> --version V --notes-zh TEXT --notes-en TEXT [--date ISO]\n');
  process.exitCode = 2;
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`release-manifest: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
