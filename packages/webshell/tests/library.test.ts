import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { builtinRuleSet, compileCustomRules, loadRuleSet, parseHashList, scanFile } from '../src/index.ts';
import { tempDir, writeTree } from './support.ts';

describe('rule library', () => {
  it('loads the built-in rules with one version and a licence per file', () => {
    const set = builtinRuleSet();
    expect(set.version).toMatch(/^rampart-webshell-\d{4}\.\d{2}\.\d+$/);
    expect(set.files.length).toBeGreaterThanOrEqual(3);
    for (const file of set.files) expect(file.licence.length).toBeGreaterThan(10);
    expect(builtinRuleSet()).toBe(set); // compiled once per process
  });

  it('refuses rule files that disagree on the version or lack a header', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yar'), '// licence: ours\n// version: v1\nrule a { condition: true }\n');
    writeFileSync(join(dir, 'b.yar'), '// licence: ours\n// version: v2\nrule b { condition: true }\n');
    expect(() => loadRuleSet(dir)).toThrow(/disagree/);
    writeFileSync(join(dir, 'b.yar'), 'rule b { condition: true }\n');
    expect(() => loadRuleSet(dir)).toThrow(/licence and version/);
  });

  it('refuses bad custom rule text with the compiler message', () => {
    const bad = compileCustomRules('rule broken { strings: $a = "x" condition: $b }');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/unknown pattern `\$b`/);
    const syntax = compileCustomRules('rule { condition: }');
    expect(syntax.ok).toBe(false);
    if (!syntax.ok) expect(syntax.error).toMatch(/error/i);
  });

  it('applies custom rules and custom hashes', async () => {
    const custom = compileCustomRules('rule house_marker { meta: risk = "medium" strings: $a = "HOUSE-MARKER-42" condition: $a }');
    expect(custom.ok).toBe(true);
    if (!custom.ok) return;
    const dir = writeTree({ 'a.php': '<?php echo "HOUSE-MARKER-42";', 'b.php': '<?php echo "plain";' });
    const a = await scanFile(join(dir, 'a.php'), { sizeLimitKb: 64, timeBudgetMs: 5000, customRules: custom.scanner });
    expect(a.findings).toContainEqual(expect.objectContaining({ source: 'custom_rule', rule: 'house_marker', risk: 'medium' }));
    const clean = await scanFile(join(dir, 'b.php'), { sizeLimitKb: 64, timeBudgetMs: 5000 });
    const hashes = parseHashList([clean.sha256.toUpperCase(), '']);
    expect(hashes.ok).toBe(true);
    if (!hashes.ok) return;
    const b = await scanFile(join(dir, 'b.php'), { sizeLimitKb: 64, timeBudgetMs: 5000, customHashes: hashes.hashes });
    expect(b.risk).toBe('high');
    expect(b.findings[0]?.reason).toBe('custom_hash');
    expect(parseHashList(['abc'])).toEqual({ ok: false, error: 'line 1: not a SHA-256 hash' });
    // A comment after a hash or on its own line is left out; the hash is kept lowercase.
    expect(parseHashList([`${clean.sha256.toUpperCase()}  # known shell`, '# list of 2026-12', ''])).toEqual({ ok: true, hashes: new Set([clean.sha256]) });
    expect(parseHashList(['# only a comment', 'abc # not a hash'])).toEqual({ ok: false, error: 'line 2: not a SHA-256 hash' });
  });
});
