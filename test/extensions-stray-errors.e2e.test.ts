/**
 * An extension's stray failure (a rejection it never handled, a throw from its own timer) is its
 * `extension_error`, with the line it came from, and the agent goes on: the answer is written and
 * the session keeps its entries (lib/stray-errors, plugins/extensions/stray-errors.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, runCli, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) client.child.kill("SIGKILL");
});

function extension(body: string): string {
  const file = join(tempDir("atomic-ext-"), "stray.ts");
  writeFileSync(file, `export default function (pi: any) {\n  pi.on("agent_start", () => {\n    ${body}\n  });\n}\n`);
  return file;
}

describe("an extension's stray failures", () => {
  it("a rejection it never handled: extension_error with its line; the run ends and the session is written", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "stray", [textTurn("Still here.")]);
    const file = extension('Promise.reject(new Error("forgotten rejection"));');
    const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "stray", "-e", file] });
    clients.push(client);
    await client.ok({ type: "prompt", message: "hi" });
    await client.waitForEvent("agent_end");
    const error = client.records.find((record) => record.type === "extension_error");
    expect(error).toMatchObject({ extensionPath: file, event: "unhandled_rejection", error: "forgotten rejection" });
    expect(client.stderr).toContain(`[${file}] unhandled_rejection failed: forgotten rejection (at ${file}:3:20)`);
    const { sessionFile } = await client.ok({ type: "get_state" });
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect(readFileSync(sessionFile as string, "utf8")).toContain("Still here.");
  });

  it("a throw from its timer: reported on stderr with its line; print mode answers and exits 0", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "stray", [textTurn("Still here.")]);
    const file = extension('setTimeout(() => { throw new Error("thrown later"); }, 1);');
    const run = await runCli(["-p", "--provider", "replay", "--model", "stray", "--no-session", "-e", file, "hi"], { agentDir, cwd: tempDir("atomic-cwd-") });
    expect(run).toMatchObject({ code: 0, stdout: "Still here.\n" });
    expect(run.stderr).toContain(`[${file}] uncaught_exception failed: thrown later (at ${file}:3:`);
  });
});
