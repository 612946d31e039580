/**
 * The Node.js binary the end-to-end tests run Atomic with: `ATOMIC_TEST_NODE` (a path; `.ci/run`
 * sets it to the pinned Node 22 and 24 runtimes of scripts/node-runtime.mjs), else the Node that
 * runs vitest. Everything a test starts as "the agent" (the CLI, the typed client's child, the
 * SDK in a compiled project, the Python client's command) goes through it; tools the tests use
 * themselves (tsc, writer scripts) stay on vitest's own Node.
 */
import { execFileSync } from "node:child_process";

export const NODE = process.env.ATOMIC_TEST_NODE || process.execPath;

let version: string | undefined;

/** `process.version` as the agent's Node reports it (`v22.23.5`), asked once per test worker (NODE never changes). */
export function agentNodeVersion(): string {
  if (NODE === process.execPath) return process.version;
  return (version ??= execFileSync(NODE, ["-p", "process.version"], { encoding: "utf8" }).trim());
}
