/**
 * Work that waits for something that cannot happen (a promise nobody settles, and nothing else
 * left running): the process must not end in silence with exit code 0 and the run half done.
 * An extension's load is skipped and the agent goes on; a tool's call fails and the run goes on;
 * anything else ends the process with exit code 1 and a line that says why (lib/stall, the
 * launcher's last check).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";

function setup(extension: string, turns: object[][] = [textTurn("Hello there.")]) {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  const file = join(tempDir("atomic-ext-"), "ext.ts");
  writeFileSync(file, extension);
  writeCassette(agentDir, "stall", turns);
  return { agentDir, cwd, args: ["-p", "--provider", "replay", "--model", "stall", "--no-session", "-e", file, "hi"] };
}

describe("work that can never finish", () => {
  it("an extension whose factory awaits session_start (which comes after loading) is skipped; the agent answers", async () => {
    const { agentDir, cwd, args } = setup('export default async function (pi: any) {\n  await new Promise<void>((resolve) => pi.on("session_start", () => resolve()));\n}\n');
    const run = await runCli(args, { agentDir, cwd });
    expect(run).toMatchObject({ code: 0, stdout: "Hello there.\n" });
    expect(run.stderr).toMatch(/ext\.ts never finished loading: its factory waits for something that cannot happen .* It is skipped\./);
  });

  it("a tool awaiting a promise nobody settles fails its call; the run goes on", async () => {
    const { agentDir, cwd, args } = setup(
      'export default function (pi: any) {\n  pi.registerTool({ name: "wait_forever", label: "Wait", description: "waits", parameters: { type: "object", properties: {} }, execute: () => new Promise(() => {}) });\n}\n',
      [toolTurn("call_1", "wait_forever", {}), textTurn("After the tool.")],
    );
    const run = await runCli([...args.slice(0, -1), "--mode", "json", "hi"], { agentDir, cwd });
    expect(run.code).toBe(0);
    const end = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; isError?: boolean; result?: { content: { text: string }[] } })
      .find((record) => record.type === "tool_execution_end");
    expect(end).toMatchObject({
      isError: true,
      result: { content: [{ text: "Tool wait_forever never finished: it waits for something that cannot happen (nothing else was left running to wake it)" }] },
    });
    expect(run.stdout).toContain("After the tool.");
  });

  it("anything else (a hook handler that never settles) ends the process with exit code 1 and says why", async () => {
    const { agentDir, cwd, args } = setup('export default function (pi: any) {\n  pi.on("agent_start", () => new Promise(() => {}));\n}\n');
    const run = await runCli(args, { agentDir, cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("atomic: stopped before finishing: what it was doing waits for something that cannot happen");
  });
});
