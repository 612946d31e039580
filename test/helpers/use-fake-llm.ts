/**
 * The fake LLM of a test file, with its lifecycle: started before the file's tests (or before
 * each test with `perTest`, so nothing scripted for one test can answer another's request),
 * closed after them, its recorded requests and unused scripted replies cleared after each test
 * (a reply one test scripted but never used would answer the next test's request). Returns a `FakeLlm` that
 * forwards to the server running at the time, so a file can hold it in a `const`.
 *
 * Register it before the file's own after-hooks: those run first (vitest runs after-hooks in
 * reverse order), so clients are closed before the server they talk to.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startFakeLlm, type FakeLlm } from "../fake-llm/server.js";

export interface UseFakeLlmOptions {
  /** A fresh server for every test instead of one per file. */
  perTest?: boolean;
}

export function useFakeLlm(options: UseFakeLlmOptions = {}): FakeLlm {
  let server: FakeLlm | undefined;
  const current = (): FakeLlm => {
    if (!server) throw new Error("The fake LLM is not running: use it inside a test or hook.");
    return server;
  };
  const start = async () => {
    server = await startFakeLlm();
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    await running?.close();
  };
  if (options.perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
    afterEach(() => {
      if (!server) return;
      server.requests.length = 0;
      server.discardPending();
    });
  }
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    set requests(requests) {
      current().requests = requests;
    },
    script: (...replies) => current().script(...replies),
    setDefault: (reply) => current().setDefault(reply),
    listModels: (models) => current().listModels(models),
    pending: () => current().pending(),
    discardPending: () => current().discardPending(),
    waitForRequests: (count, timeoutMs) => current().waitForRequests(count, timeoutMs),
    waitForDisconnect: (index, timeoutMs) => current().waitForDisconnect(index, timeoutMs),
    close: () => stop(),
  };
}
