import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { scanFile } from '../src/index.ts';

const dirs: string[] = [];
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'webshell-test-'));
  dirs.push(dir);
  return dir;
}

/** Writes files (name → content) into a fresh temp dir and returns it. */
export function writeTree(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

export async function scanOne(name: string, content: string | Buffer, timeBudgetMs = 5000) {
  const dir = writeTree({ [name]: content });
  return scanFile(join(dir, name), { sizeLimitKb: 4096, timeBudgetMs });
}
