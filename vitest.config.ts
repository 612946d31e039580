import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "kernel/**/*.test.ts",
      "lib/**/*.test.ts",
      "plugins/**/*.test.ts",
      "cli/**/*.test.ts",
      "sdk/**/*.test.ts",
      "client/**/*.test.ts",
      "test/**/*.test.ts",
      "extensions-examples/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    setupFiles: ["test/setup.ts"],
    // Tests must pass in any order: files and the tests within them run shuffled, every run.
    sequence: { shuffle: true },
    // One temp root per run: what a test leaves behind is reported, then removed.
    globalSetup: ["test/helpers/temp-root.ts"],
  },
});
