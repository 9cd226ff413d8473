import { defineConfig } from 'vitest/config';

// One runner for the whole tree: each workspace is a project; the web app brings its own jsdom config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/console', 'apps/agent', 'apps/guard', 'apps/licence', 'apps/cli', 'apps/gateway', 'apps/web', 'tests/e2e'],
  },
});
