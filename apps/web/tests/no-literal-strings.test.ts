import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanSource } from './helpers/literalScan.ts';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'locales' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe('the literal-string scan', () => {
  it('finds JSX text, visible props and object properties with words in them', () => {
    const snippet = `
      export const A = () => <div title="Firewall rules">Hello</div>;
      export const B = () => <Input placeholder={'请输入'} aria-label="Search" />;
      export const C = () => modal.confirm({ title: 'Sure?', okText: \`Yes\` });
      export const D = () => <p>{'inline words'}</p>;
    `;
    const texts = scanSource('snippet.tsx', snippet).map((f) => f.text);
    expect(texts).toEqual(['Firewall rules', 'Hello', '请输入', 'Search', 'Sure?', 'Yes', 'inline words']);
  });

  it('lets through translated text, numbers, punctuation and non-visible props', () => {
    const snippet = `
      export const A = () => <Result status="403" title={t('page.403')} data-testid="page-title">{' '} - 404 {count}</Result>;
      export const B = () => modal.confirm({ title: t('x'), key: 'menu', content: <b>{t('y')}</b> });
    `;
    expect(scanSource('snippet.tsx', snippet)).toEqual([]);
  });
});

describe('the web app source', () => {
  it('has no user-visible literal strings: everything goes through t()', () => {
    const files = sourceFiles(srcDir);
    expect(files.length).toBeGreaterThan(20);
    const findings = files.flatMap((f) => scanSource(path.relative(srcDir, f), readFileSync(f, 'utf8')));
    expect(findings).toEqual([]);
  });
});
