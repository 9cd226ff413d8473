import { defineConfig } from 'vitest/config';

// One runner for the whole tree: each workspace is a project; the web app brings its own jsdom config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/console', 'apps/agent', 'apps/guard', 'apps/licence', 'apps/cli', 'apps/gateway', 'apps/web', 'tests/e2e'],
    // Vitest's default is one worker less than the cores: a single worker on the 2-core machines
    // the suite runs on, so every file ran one after another. Most files wait on real processes,
    // sockets and the kernel rather than compute, so two files at a time (the browser project
    // still one file at a time) share the machine well.
    maxWorkers: 2,
  },
});
