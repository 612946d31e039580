/**
 * For every test file: a test fails when the CLI traffic it produced or sent does not match the
 * protocol schema (see test/helpers/protocol.ts), whatever the test itself asserted; after the
 * file, the processes and folders it registered (test/helpers/temp.ts) go, and the file fails
 * if it left the environment or the working directory changed (see below).
 */
import { afterAll, afterEach } from "vitest";
import { drainProtocolErrors } from "./helpers/rpc-client.js";
import { cleanUpAfterFile } from "./helpers/temp.js";

// A worker runs many files in turn (neither project is isolated): a variable or a working directory
// one file changed would reach the next file's tests and every CLI they spawn (which inherit both).
// This module runs again before each file, so these are the file's starting state. Registered
// first, the check runs after every other after-hook of the file, the cleanup's included.
const envAtStart = { ...process.env };
const cwdAtStart = process.cwd();
afterAll(() => {
  const changed = new Set([...Object.keys(envAtStart), ...Object.keys(process.env)].filter((name) => process.env[name] !== envAtStart[name]));
  for (const name of changed) {
    if (envAtStart[name] === undefined) delete process.env[name];
    else process.env[name] = envAtStart[name];
  }
  const moved = process.cwd() !== cwdAtStart;
  if (moved) process.chdir(cwdAtStart);
  const problems = [
    ...(changed.size > 0 ? [`changed process.env (${[...changed].sort().join(", ")})`] : []),
    ...(moved ? [`left the working directory in another folder than ${cwdAtStart}`] : []),
  ];
  // Restored first, so only this file fails, not the ones the worker runs after it.
  if (problems.length > 0) throw new Error(`This test file ${problems.join(" and ")} without restoring it: restore it in the file's own hooks.`);
});

afterAll(cleanUpAfterFile);

afterEach(() => {
  const errors = drainProtocolErrors();
  if (errors.length > 0) throw new Error(`Protocol schema violations:\n- ${[...new Set(errors)].slice(0, 10).join("\n- ")}`);
});
