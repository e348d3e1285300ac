import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // hermetic relevance tests: a model installed on the developer's machine is not used unless a test points at one
    // and the write guard's key and markers go to a scratch folder, not the developer's ~/.local/state
    // (the Claude Code transcripts that hook evidence is checked against are written there too)
    env: {
      CODE_INTEL_MODEL_DIR: '/nonexistent/code-intel-test-model',
      CODE_INTEL_STATE_DIR: path.join(os.tmpdir(), 'code-intel-test-state'),
      CLAUDE_CONFIG_DIR: path.join(os.tmpdir(), 'code-intel-test-claude'),
      GEMINI_CLI_HOME: path.join(os.tmpdir(), 'code-intel-test-gemini'),
    },
  },
});
