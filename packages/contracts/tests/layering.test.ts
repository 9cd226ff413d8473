import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The repository's lint (eslint.layering.js) holds the layering of DESIGN.md; each case is a file a newcomer might write. */
const repo = path.join(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repo });

async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = value;\n`, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint', () => {
  it.each([
    ['packages/contracts/src/x.ts', "import { value } from '@rampart/sqlite';", 'contracts depends on no other package'],
    ['packages/contracts/src/x.ts', "import { value } from 'node:path';", 'no Node or DOM dependencies'],
    ['packages/contracts/src/x.ts', "import { value } from 'fs';", 'no Node or DOM dependencies'],
    ['packages/waf/src/x.ts', "import { value } from '@rampart/gateway';", 'An engine never imports an app'],
    ['packages/waf/src/x.ts', "import { value } from '../../../apps/agent/src/main.ts';", 'Import the package by name'],
    ['packages/waf/src/x.ts', "import { value } from '@rampart/webshell/src/classify.ts';", "Import only what the package's src/index.ts names"],
    ['apps/web/src/x.ts', "import { value } from '@rampart/waf';", 'apps/web imports only @rampart/contracts'],
    ['apps/console/src/x.ts', "import { value } from '@rampart/agent';", 'An app never imports another app'],
    ['apps/gateway/src/x.ts', "import { value } from '@rampart/console';", 'An app never imports another app'],
    ['apps/cli/src/x.ts', "import { value } from '@rampart/web';", 'Layering'],
  ])('%s: %s is refused', async (file, code, reason) => {
    const errors = await layeringErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(reason);
  });

  it.each([
    ['packages/events/src/x.ts', "import { value } from '@rampart/sqlite';"],
    ['packages/waf/src/x.ts', "import { value } from './local.ts';"],
    ['apps/web/src/x.ts', "import { value } from '@rampart/contracts';"],
    ['apps/agent/src/x.ts', "import { value } from '@rampart/firewall';"],
    ['apps/cli/src/x.ts', "import { value } from '@rampart/console';"],
    ['packages/contracts/src/x.ts', "import { value } from './audit.ts';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await layeringErrors(file, code)).toEqual([]);
  });
});
