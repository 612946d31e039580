/**
 * For every test file: a test fails when the CLI traffic it produced or sent does not match the
 * protocol schema (see test/helpers/protocol.ts), whatever the test itself asserted; after the
 * file, the processes and folders it registered (test/helpers/temp.ts) go.
 */
import { afterAll, afterEach } from "vitest";
import { drainProtocolErrors } from "./helpers/rpc-client.js";
import { cleanUpAfterFile } from "./helpers/temp.js";

afterAll(cleanUpAfterFile);

afterEach(() => {
  const errors = drainProtocolErrors();
  if (errors.length > 0) throw new Error(`Protocol schema violations:\n- ${[...new Set(errors)].slice(0, 10).join("\n- ")}`);
});
