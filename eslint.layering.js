import { builtinModules } from 'node:module';

/*
 * Layering (DESIGN.md "Packages"): contracts ← engines ← apps, and apps/web imports only contracts.
 * Each rule is `no-restricted-imports` on the import's text, per folder; a later block would replace
 * an earlier one for the same file, so every source file falls in exactly one block below.
 */
const apps = { agent: 'agent', cli: 'cli', console: 'console', gateway: 'gateway', guard: 'guard-helper', licence: 'licence', web: 'web' };
const appPackages = Object.values(apps).map((name) => `@rampart/${name}`);
const why = 'Layering (DESIGN.md): contracts ← engines ← apps; apps/web imports only @rampart/contracts; no app imports another (the cli launcher aside).';

// A relative import that climbs into apps/ or packages/ reaches past its own package's public surface.
const noClimbing = { regex: '^\\.\\.?/(?:.*/)?(?:apps|packages)/', message: `${why} Import the package by name, from its src/index.ts.` };
const noDeepImports = { regex: '^@rampart/[^/]+/', message: `${why} Import only what the package's src/index.ts names.` };
const forbid = (names, message = why) => ({ group: names.flatMap((name) => [name, `${name}/**`]), message });
const rule = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [noClimbing, noDeepImports, ...patterns] }] });

export const layering = [
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: rule(
      forbid(['@rampart/*'], `${why} contracts depends on no other package.`),
      forbid(['node:*', ...builtinModules], `${why} contracts has no Node or DOM dependencies (the browser imports it).`),
    ),
  },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/contracts/**'],
    rules: rule(forbid(appPackages, `${why} An engine never imports an app.`)),
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: rule({ group: ['@rampart/*', '!@rampart/contracts'], message: why }),
  },
  ...Object.entries(apps).filter(([folder]) => folder !== 'web' && folder !== 'cli').map(([folder, name]) => ({
    files: [`apps/${folder}/src/**/*.ts`],
    rules: rule(forbid(appPackages.filter((other) => other !== `@rampart/${name}`), `${why} An app never imports another app.`)),
  })),
  {
    // The launcher starts the other apps in one process tree, so it alone may import them; never the web app.
    files: ['apps/cli/src/**/*.ts'],
    rules: rule(forbid(['@rampart/web'])),
  },
];
