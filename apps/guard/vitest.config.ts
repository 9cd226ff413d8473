import { defineConfig } from 'vitest/config';

// The VM test boots a kernel under TCG: its hook gets minutes.
export default defineConfig({
  test: { name: 'guard-helper', include: ['tests/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 300_000 },
});
