import { defineConfig } from 'vitest/config';

// The product in a real browser: `npm start`'s supervisor, Debian's Chromium under Playwright.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
