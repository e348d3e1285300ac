import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // hermetic relevance tests: a model installed on the developer's machine is not used unless a test points at one
    env: { CODE_INTEL_MODEL_DIR: '/nonexistent/code-intel-test-model' },
  },
});
