import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "kernel/**/*.test.ts",
      "lib/**/*.test.ts",
      "plugins/**/*.test.ts",
      "cli/**/*.test.ts",
      "host/**/*.test.ts",
      "sdk/**/*.test.ts",
      "client/**/*.test.ts",
      "test/**/*.test.ts",
      "extensions-examples/**/*.test.ts",
    ],
    // Timeouts only catch hangs: a saturated machine may take several times as long as an idle one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files spend their time waiting on the CLI processes they spawn: three files at a time
    // keep two cores busy (vitest's default on 2 cores is one). ATOMIC_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.ATOMIC_TEST_WORKERS) || 3,
    setupFiles: ["test/setup.ts"],
    // Tests must pass in any order: files and the tests within them run shuffled, every run.
    sequence: { shuffle: true },
    // One temp root per run: what a test leaves behind is reported, then removed.
    globalSetup: ["test/helpers/temp-root.ts"],
  },
});
