/**
 * `npm run test:package`: the pack-and-install test, on its own because it needs the built package
 * (`npm run build`) and must not run while other tests read dist/.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test-support/package-install.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
