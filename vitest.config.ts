import { configDefaults, defineConfig } from "vitest/config";
import EndToEndFirst from "./test/helpers/end-to-end-first.js";

const SOURCES = ["kernel", "lib", "plugins", "cli", "host", "sdk", "client", "test", "extensions-examples"];
const ALL_TESTS = SOURCES.map((folder) => `${folder}/**/*.test.ts`);
const END_TO_END = SOURCES.map((folder) => `${folder}/**/*.e2e.test.ts`);

/** What both projects share (a project does not inherit the root's test options unless told to). */
const SHARED = {
  // Timeouts only catch hangs: a saturated machine may take several times as long as an idle one.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  setupFiles: ["test/setup.ts"],
  // Tests must pass in any order: files and the tests within them run shuffled, every run.
  sequence: { shuffle: true },
};

export default defineConfig({
  test: {
    pool: "forks",
    // Most files spend their time waiting on the CLI processes they spawn: three files at a time
    // keep two cores busy (vitest's default on 2 cores is one). ATOMIC_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.ATOMIC_TEST_WORKERS) || 3,
    ...SHARED,
    // Files shuffled, end-to-end ones first (test/helpers/end-to-end-first.ts).
    sequence: { ...SHARED.sequence, sequencer: EndToEndFirst },
    // One temp root per run (at the root only: a project inheriting it would nest a root of its
    // own inside): what a test leaves behind is reported, then removed.
    globalSetup: ["test/helpers/temp-root.ts"],
    projects: [
      {
        // A worker runs many of these files in turn without a fresh process and module graph for
        // each: a fresh one cost more than most of these files' own tests (~0.65 s of CPU a file).
        // Each file still cleans up after itself (test/setup.ts).
        test: { ...SHARED, name: "unit", include: ALL_TESTS, exclude: [...configDefaults.exclude, ...END_TO_END], isolate: false },
      },
      // The end-to-end files share workers the same way (~1.1 s of CPU saved a file): the CLIs,
      // servers and browsers they start are child processes, stopped after each file
      // (test/helpers/temp.ts), and test/setup.ts fails a file that leaves process.env or the
      // working directory changed, before the next file could inherit it.
      { test: { ...SHARED, name: "e2e", include: END_TO_END, isolate: false } },
    ],
  },
});
