/**
 * The typed client when the agent process dies mid-run (an extension tool that exits or kills its
 * own process, on the replay model): the pending request and every wait (`promptAndWait`,
 * `waitForIdle`, `collectEvents`) reject at once with how the process ended and the tail of its
 * stderr, instead of waiting for an `agent_settled` that can never come; so do later calls.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient } from "../client/index.js";
import { CLI, toolTurn, writeCassette } from "./helpers/rpc-client.js";
import { registerStopper, tempDir } from "./helpers/temp.js";
import { NODE } from "./helpers/node.js";

const EXTENSION = resolve(import.meta.dirname, "fixtures/extensions/crash-tool.ts");

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.stop()));
});

async function started(how: "exit" | "kill" | "orphan"): Promise<{ client: RpcClient; cwd: string }> {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  writeCassette(agentDir, "crash", [toolTurn("c1", "crash", { how })]);
  const client = new RpcClient({
    cliPath: CLI,
    nodePath: NODE,
    cwd,
    env: { ATOMIC_CODING_AGENT_DIR: agentDir },
    provider: "replay",
    model: "crash",
    args: ["--no-session", "-e", EXTENSION],
  });
  clients.push(client);
  await client.start();
  return { client, cwd };
}

/** What a promise came to: its error's message, or that it resolved. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: Error) => error.message,
  );

describe("RpcClient when the agent process dies mid-run", () => {
  it("exit(1) in a tool: promptAndWait and a waitForIdle begun meanwhile reject with the exit code and stderr; later calls too", async () => {
    const { client } = await started("exit");
    const running = new Promise<void>((resolve) => {
      const off = client.onEvent((event) => event.type === "agent_start" && (off(), resolve()));
    });
    // Far longer than the test may run: only the process's end can settle these.
    const run = outcome(client.promptAndWait("crash please", undefined, 600_000));
    await running;
    const idle = outcome(client.waitForIdle(600_000));
    const collected = outcome(client.collectEvents(600_000));
    const expected = /^Agent process exited with code 1\. Stderr: [\s\S]*crash: the tool ends the agent \(exit\)$/;
    expect(await run).toMatch(expected);
    expect(await idle).toMatch(expected);
    expect(await collected).toMatch(expected);
    // After the end: a wait rejects at once, a command says the process is not running and why.
    expect(await outcome(client.waitForIdle(600_000))).toMatch(expected);
    expect(await outcome(client.getState())).toMatch(/^Agent process is not running \(it exited with code 1\)\. Stderr: [\s\S]*crash: the tool ends the agent/);
  });

  it("killed by a signal: the waits name the signal", async () => {
    const { client } = await started("kill");
    const run = outcome(client.promptAndWait("crash please", undefined, 600_000));
    expect(await run).toMatch(/^Agent process was killed by SIGKILL\. Stderr: [\s\S]*crash: the tool ends the agent \(kill\)$/);
    expect(await outcome(client.waitForIdle(600_000))).toMatch(/killed by SIGKILL/);
  });

  it("a process the agent started still holds its stdout: the waits reject anyway, not when that process ends", async () => {
    const { client, cwd } = await started("orphan");
    const pidFile = join(cwd, "orphan.pid");
    registerStopper(async () => {
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    });
    expect(await outcome(client.promptAndWait("crash please", undefined, 600_000))).toMatch(/^Agent process exited with code 1\. Stderr: [\s\S]*\(orphan\)$/);
    expect(existsSync(pidFile)).toBe(true);
    // stop() returns too, though the pipe is still held open.
    await client.stop();
    expect(await outcome(client.waitForIdle())).toBe("The client was stopped");
  });
});
