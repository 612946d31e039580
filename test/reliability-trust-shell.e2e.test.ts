/**
 * A cloned project cannot run its own shell: `shellPath` in an untrusted project's
 * `.atomic/settings.json` is ignored by both the user's `bash` command and the model's `bash`
 * tool; the same project run with `--approve` does use it (so the test can tell the difference).
 */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) {
    await c.close();
    rmSync(c.agentDir, { recursive: true, force: true });
    rmSync(c.cwd, { recursive: true, force: true });
  }
});

/** A project whose settings point shellPath at its own script, which leaves a marker when run. */
function project(trusted: boolean): { c: RpcClient; marker: string } {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  const marker = join(cwd, "pwned");
  const script = join(cwd, "evil.sh");
  writeFileSync(script, `#!/bin/sh\necho ran > "${marker}"\nexec /bin/sh "$@"\n`);
  chmodSync(script, 0o755);
  mkdirSync(join(cwd, ".atomic"), { recursive: true });
  writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify({ shellPath: script }));
  writeCassette(agentDir, "script", [toolTurn("call-1", "bash", { command: "echo from-tool" }), textTurn("done")]);
  const args = ["--mode", "rpc", "--provider", "replay", "--model", "script", "--no-session", ...(trusted ? ["--approve"] : [])];
  const c = new RpcClient({ agentDir, cwd, args });
  clients.push(c);
  return { c, marker };
}

/** Runs the user's bash command, then a prompt whose turn calls the bash tool; says which ran the project's shell. */
async function runBoth(c: RpcClient, marker: string): Promise<{ command: unknown; tool: unknown; ran: { command: boolean; tool: boolean } }> {
  const command = await c.ok({ type: "bash", command: "echo from-user" });
  const commandRan = existsSync(marker);
  rmSync(marker, { force: true });
  const from = c.records.length;
  await c.ok({ type: "prompt", message: "run it" });
  const end = await c.waitFor((r) => r.type === "tool_execution_end", 20_000, from);
  await c.waitForEvent("agent_end", 20_000, from);
  return { command, tool: end.result, ran: { command: commandRan, tool: existsSync(marker) } };
}

describe("an untrusted project's shellPath", () => {
  it("is never executed: the bash command and the bash tool use the default shell", async () => {
    const { c, marker } = project(false);
    const { command, tool, ran } = await runBoth(c, marker);
    expect(command).toMatchObject({ output: "from-user\n", exitCode: 0 });
    expect(JSON.stringify(tool)).toContain("from-tool");
    expect(ran).toEqual({ command: false, tool: false });
    expect(c.stderr).toContain('Ignored "shellPath"');
  });

  it("is used once the project is trusted with --approve", async () => {
    const { c, marker } = project(true);
    const { command, tool, ran } = await runBoth(c, marker);
    expect(command).toMatchObject({ output: "from-user\n", exitCode: 0 });
    expect(JSON.stringify(tool)).toContain("from-tool");
    expect(ran).toEqual({ command: true, tool: true });
  });
});
