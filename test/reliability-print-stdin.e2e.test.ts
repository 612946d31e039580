/**
 * `atomic -p` reads piped stdin only up to 16 MiB (issue 26, item 9): past it, reading stops and
 * the run fails with a message saying what to do. Before, all of it was read into memory (3 GB
 * piped: 5.9 GB resident, then a V8 fatal error).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "./helpers/rpc-client.js";
import { registerStopper } from "./helpers/temp.js";

describe("print mode's piped stdin", () => {
  it("stops reading past 16 MiB and exits 1 with a clear message, long before the writer is done", async () => {
    const child = spawn(process.execPath, [CLI, "-p", "--provider", "replay", "--model", "demo", "--no-session", "Summarise this."], {
      cwd: tempDir("atomic-cwd-"),
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: tempDir("atomic-agent-") },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    registerStopper(() => (child.exitCode === null ? (child.kill("SIGKILL"), exited) : exited));
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.on("error", () => undefined);
    // 256 MiB offered a mebibyte at a time, as fast as the pipe takes it.
    const mib = Buffer.alloc(1024 * 1024, "log line\n");
    let written = 0;
    let done = false;
    void exited.then(() => (done = true));
    while (!done && !child.stdin.destroyed && written < 256 * mib.length) {
      written += mib.length;
      if (!child.stdin.write(mib)) await Promise.race([new Promise((resolve) => child.stdin.once("drain", resolve)), exited]);
    }
    child.stdin.end();
    expect(await exited).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe("atomic: The input piped to stdin is over 16 MiB, more than a prompt can use; pipe less, or name the file in the prompt for the model to read\n");
    expect(written).toBeLessThan(64 * mib.length);
  }, 60_000);
});
