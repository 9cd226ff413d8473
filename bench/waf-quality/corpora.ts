/**
 * Where the third-party corpora live. They are read in place, never copied into the repository:
 * RAMPART_CORPORA, else `<repo>/../shared/corpora`, else `/work/shared/corpora`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function corporaDir(): string | null {
  const candidates = [process.env.RAMPART_CORPORA, join(repoRoot, '../shared/corpora'), '/work/shared/corpora'];
  for (const dir of candidates) if (dir && existsSync(join(dir, 'waf'))) return dir;
  return null;
}

/**
 * Parses a corpus YAML file as Go's yaml library does. gotestwaf's files use `\'` inside
 * double-quoted strings, which YAML 1.2 forbids but go-yaml reads as `'`; the escape is rewritten
 * where the parser reports it, and the file parsed again.
 */
export function readCorpusYaml(file: string): unknown {
  let text = readFileSync(file, 'utf8');
  for (let attempt = 0; attempt < 1000; attempt++) {
    const doc = parseDocument(text, { uniqueKeys: false });
    const bad = doc.errors.find((e) => e.code === 'BAD_DQ_ESCAPE');
    if (!bad) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return doc.toJS({ maxAliasCount: -1 });
    }
    const at = text.indexOf("\\'", bad.pos[0]);
    if (at < 0 || at > bad.pos[1]) throw new Error(`${file}: ${bad.message}`);
    text = text.slice(0, at) + text.slice(at + 1);
  }
  throw new Error(`${file}: too many escapes to repair`);
}
