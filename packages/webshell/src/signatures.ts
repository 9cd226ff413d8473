/**
 * Stage 3, signatures: YARA-X rules. The built-in set is packages/webshell/rules/*.yar, compiled
 * once per process (compiling costs far more than a scan). Each file's header names its licence and
 * the rule-set version the console shows as the library version; all files must agree on it, so a
 * half-updated set is refused at load rather than reported under a wrong version.
 *
 * The administrator's custom library (rule text and SHA-256 hashes) is compiled the same way; bad
 * rule text comes back with the compiler's own message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { compile, type YaraX } from '@litko/yara-x';
import type { WebshellFinding, WebshellLanguage, WebshellRisk } from '@rampart/contracts';
import { webshellRiskSchema } from '@rampart/contracts';
import { evidenceAt } from './signals.ts';

export const builtinRulesDir = new URL('../rules/', import.meta.url);

export interface RuleFileHeader {
  file: string;
  licence: string;
  version: string;
  /** `// languages: php` — the file's rules are run only on files of these languages (and on unclassified files). */
  languages?: WebshellLanguage[];
}
export interface RuleSet {
  version: string;
  files: RuleFileHeader[];
  /** Every rule: what unclassified files and images get (and what `yara` runs in the bench). */
  scanner: YaraX;
  /**
   * The rules that apply to a language, compiled apart: a PHP file is not scanned for ASP's or JSP's
   * shapes (the server runs it as PHP, so those would be inert text), which saves most of the scan.
   */
  byLanguage: Partial<Record<WebshellLanguage, YaraX>>;
}

const routedLanguages: readonly WebshellLanguage[] = ['php', 'jsp', 'asp', 'aspx'];

/** `// licence: ...` and `// version: ...` in the comment block at the top of a rule file. */
export function parseRuleHeader(file: string, source: string): RuleFileHeader {
  const head = source.slice(0, 2048);
  const licence = /^\/\/\s*licen[cs]e:\s*(.+)$/im.exec(head)?.[1]?.trim();
  const version = /^\/\/\s*version:\s*(\S+)\s*$/im.exec(head)?.[1]?.trim();
  if (!licence || !version) throw new Error(`rule file ${file}: the header must name its licence and version`);
  const listed = /^\/\/\s*languages:\s*(.+)$/im.exec(head)?.[1]?.trim().toLowerCase().split(/[\s,]+/);
  const unknown = listed?.filter((name) => !routedLanguages.includes(name as WebshellLanguage));
  if (unknown?.length) throw new Error(`rule file ${file}: unknown language ${unknown.join(', ')}`);
  return { file, licence, version, ...(listed ? { languages: listed as WebshellLanguage[] } : {}) };
}

export function loadRuleSet(dir: URL | string = builtinRulesDir): RuleSet {
  const names = readdirSync(dir).filter((name) => name.endsWith('.yar')).sort();
  if (names.length === 0) throw new Error('no rule files');
  const files: RuleFileHeader[] = [];
  const sources: string[] = [];
  for (const name of names) {
    const source = readFileSync(new URL(name, typeof dir === 'string' ? `file://${dir.replace(/\/?$/, '/')}` : dir), 'utf8');
    files.push(parseRuleHeader(name, source));
    sources.push(source);
  }
  const versions = new Set(files.map((file) => file.version));
  if (versions.size !== 1) throw new Error(`rule files disagree on the version: ${[...versions].join(', ')}`);
  const byLanguage: Partial<Record<WebshellLanguage, YaraX>> = {};
  for (const language of routedLanguages) {
    const own = sources.filter((_, index) => files[index]?.languages?.includes(language) ?? true);
    if (own.length > 0) byLanguage[language] = compile(own.join('\n'));
  }
  return { version: files[0]?.version ?? '', files, scanner: compile(sources.join('\n')), byLanguage };
}

let cached: RuleSet | undefined;
/** The built-in rule set, compiled on first use and kept for the life of the process. */
export function builtinRuleSet(): RuleSet {
  cached ??= loadRuleSet();
  return cached;
}

/** Loads and compiles the built-in rule files again (the cloud library update); a set that fails to load throws and the one in use stays. */
export function reloadBuiltinRuleSet(dir: URL | string = builtinRulesDir): RuleSet {
  cached = loadRuleSet(dir);
  return cached;
}

export type CustomRules = { ok: true; scanner: YaraX; ruleCount: number } | { ok: false; error: string };

/** Compiles an administrator's rule text; on failure, the compiler's message (what the console shows). */
export function compileCustomRules(text: string): CustomRules {
  try {
    const scanner = compile(text, { enableIncludes: false });
    return { ok: true, scanner, ruleCount: (text.match(/^\s*(?:private\s+|global\s+)*rule\s+\w+/gm) ?? []).length };
  } catch (error) {
    return { ok: false, error: String((error as Error).message) };
  }
}

const sha256 = /^[0-9a-f]{64}$/;
/**
 * The custom hash list: one SHA-256 per line, either case (kept lowercase, as scans report them), a
 * `# comment` after it or on a line of its own left out, blank lines skipped; anything else is
 * refused with its line number.
 */
export function parseHashList(lines: readonly string[]): { ok: true; hashes: Set<string> } | { ok: false; error: string } {
  const hashes = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const value = line.replace(/#.*$/, '').trim().toLowerCase();
    if (value === '') continue;
    if (!sha256.test(value)) return { ok: false, error: `line ${index + 1}: not a SHA-256 hash` };
    hashes.add(value);
  }
  return { ok: true, hashes };
}

function riskOfMeta(meta: object, fallback: WebshellRisk): WebshellRisk {
  const parsed = webshellRiskSchema.safeParse((meta as Record<string, unknown>).risk);
  return parsed.success ? parsed.data : fallback;
}

/** Runs one compiled set over the bytes; one finding per matching rule, at its first match. */
export function signatureFindings(scanner: YaraX, bytes: Buffer, source: 'signature' | 'custom_rule'): WebshellFinding[] {
  return scanner.scan(bytes).map((match) => {
    const first = match.matches.reduce<{ offset: number; length: number } | undefined>(
      (best, m) => (!best || m.offset < best.offset ? m : best), undefined) ?? { offset: 0, length: 0 };
    return {
      source,
      reason: source,
      rule: match.ruleIdentifier.slice(0, 128),
      // A custom rule is the administrator saying "this is a shell" unless its meta says otherwise.
      risk: riskOfMeta(match.meta, source === 'custom_rule' ? 'high' : 'medium'),
      evidence: evidenceAt(bytes, first.offset, first.length),
      offset: first.offset,
      length: first.length,
    };
  });
}
