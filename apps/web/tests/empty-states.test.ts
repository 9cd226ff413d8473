import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Every list says what it holds and what to do next while it is empty (issue 27), instead of antd's
 * bare "No data": a `<Table>` has `locale={{ emptyText: … }}` (components/EmptyHint.tsx), and the
 * shared lists get their `empty` texts. A new table without one fails here.
 */

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** The shared list components and the prop that holds their empty texts. */
const sharedLists: Record<string, string> = { PagedSelectableTable: 'empty', TimedAddressList: 'empty', CursorTable: 'empty' };

/**
 * Tables that can never be empty, by file (relative to src) and how many there are in it. Keep the
 * reason beside each: an entry here is a promise that the user never sees the table without rows.
 */
const neverEmpty: Record<string, number> = {
  // The CMS template preview is rendered only when the template gave rules (else a hint is shown).
  'pages/tamper/TemplateModal.tsx': 1,
};

interface Missing {
  file: string;
  line: number;
  tag: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.tsx') ? [full] : [];
  });
}

/** Whether `<Table … locale={{ emptyText: … }}>` (an object literal with an `emptyText` property). */
function hasEmptyText(attr: ts.JsxAttribute): boolean {
  const value = attr.initializer && ts.isJsxExpression(attr.initializer) ? attr.initializer.expression : undefined;
  return value !== undefined && ts.isObjectLiteralExpression(value) && value.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'emptyText');
}

/** The tables and shared lists of one source file that have no empty state. */
function listsWithoutEmptyState(file: string, source: string): Missing[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const missing: Missing[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) && ts.isIdentifier(node.tagName)) {
      const tag = node.tagName.text;
      const attrs = node.attributes.properties.filter(ts.isJsxAttribute);
      const named = (name: string) => attrs.find((a) => ts.isIdentifier(a.name) && a.name.text === name);
      const locale = named('locale');
      const prop = Object.hasOwn(sharedLists, tag) ? sharedLists[tag] : undefined;
      const ok = tag === 'Table' ? locale !== undefined && hasEmptyText(locale) : prop === undefined || named(prop) !== undefined;
      if (!ok) missing.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, tag });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return missing;
}

describe('the empty-state scan', () => {
  it('finds tables without locale.emptyText and shared lists without their empty texts', () => {
    const snippet = `
      export const A = () => <Table<Row> rowKey="id" dataSource={rows} />;
      export const B = () => <Table locale={{ emptyText: <EmptyHint text={t('x')} /> }} dataSource={rows} />;
      export const C = () => <Table locale={{ filterReset: t('y') }} dataSource={rows}></Table>;
      export const D = () => <PagedSelectableTable<Row> prefix="p" rows={rows} />;
      export const E = () => <CursorTable prefix="p" empty={logEmpty(t, 'event', filters)} />;
      export const F = () => <TimedAddressList prefix="p" empty={{ text: t('z') }} />;
    `;
    expect(listsWithoutEmptyState('snippet.tsx', snippet).map((m) => `${m.line} ${m.tag}`)).toEqual(['2 Table', '4 Table', '5 PagedSelectableTable']);
  });
});

describe('the web app source', () => {
  it('gives every table and shared list an empty state that says what to do next', () => {
    const files = sourceFiles(srcDir);
    const found = files.flatMap((f) => listsWithoutEmptyState(path.relative(srcDir, f).split(path.sep).join('/'), readFileSync(f, 'utf8')));
    const counts = new Map<string, number>();
    for (const m of found) counts.set(m.file, (counts.get(m.file) ?? 0) + 1);
    const unexcused = found.filter((m) => (counts.get(m.file) ?? 0) > (neverEmpty[m.file] ?? 0) || m.tag !== 'Table');
    expect(unexcused).toEqual([]);
    // The exceptions still name tables that exist (an entry left behind would excuse a new table).
    for (const [file, count] of Object.entries(neverEmpty)) expect(counts.get(file), file).toBe(count);
  });

  it('looks at the lists it is meant to (the scan would pass vacuously on a renamed component)', () => {
    const source = sourceFiles(srcDir).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const tag of ['Table', ...Object.keys(sharedLists)]) expect(source, tag).toMatch(new RegExp(`<${tag}[\\s<]`));
  });
});
