import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'gateway', include: ['tests/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
});
