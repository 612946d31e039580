/**
 * Context files and the system prompt over the built CLI: AGENTS.md / CLAUDE.md from the agent
 * dir and from the root down to the cwd land under # Project Context, between the tool list and
 * the date/cwd footer, and are re-read for every prompt.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeLog, promptAndSettle, startAgent } from "./helpers/agent-harness.js";
import { tempDir, textTurn, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("context files", () => {
  it("adds the agent dir's and the project's files in order, and picks up edits on the next prompt", async () => {
    const agentDir = tempDir("atomic-agent-");
    const project = tempDir("atomic-project-");
    const cwd = join(project, "app");
    mkdirSync(cwd);
    writeFileSync(join(agentDir, "AGENTS.md"), "GLOBAL: be brief");
    writeFileSync(join(project, "CLAUDE.md"), "PROJECT: use pnpm");
    writeFileSync(join(cwd, "CLAUDE.md"), "APP-CLAUDE: ignored");
    writeFileSync(join(cwd, "AGENTS.md"), "APP: run the tests");
    client = startAgent({ agentDir, cwd, turns: [textTurn("one")] });

    await promptAndSettle(client, "first");
    writeFileSync(join(cwd, "AGENTS.md"), "APP: edited");
    await promptAndSettle(client, "second");

    const [first, second] = (await probeLog(client)).systemPrompts;
    expect(first).toBeDefined();
    const order = [
      "You are Atomic",
      "Available tools:\n",
      "# Project Context",
      `<context_file path="${join(agentDir, "AGENTS.md")}">\nGLOBAL: be brief\n</context_file>`,
      `<context_file path="${join(project, "CLAUDE.md")}">\nPROJECT: use pnpm\n</context_file>`,
      `<context_file path="${join(cwd, "AGENTS.md")}">\nAPP: run the tests\n</context_file>`,
      `Current date: ${new Date().toISOString().slice(0, 10)}\nCurrent working directory: ${cwd}`,
    ];
    const positions = order.map((part) => first!.indexOf(part));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(first).not.toContain("APP-CLAUDE");
    expect(second).toContain("APP: edited");
    expect(second).not.toContain("APP: run the tests");
  });
});

describe("preferences", () => {
  it("keeps steering/follow-up mode and auto-retry across a restart with the same agent dir", async () => {
    const agentDir = tempDir("atomic-agent-");
    client = startAgent({ agentDir, turns: [textTurn("x")] });
    for (const command of [
      { type: "set_steering_mode", mode: "all" },
      { type: "set_follow_up_mode", mode: "all" },
      { type: "set_auto_retry", enabled: false },
    ]) {
      expect((await client.request(command)).success).toBe(true);
    }
    await client.close();
    // startAgent rewrites settings.json with the probe plugin; the saved keys must survive a reload.
    const saved = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
    expect(saved).toMatchObject({ steeringMode: "all", followUpMode: "all", retry: { enabled: false } });
    client = startAgent({ agentDir, turns: [textTurn("x")], settings: saved });
    expect((await client.request({ type: "get_state" })).data).toMatchObject({ steeringMode: "all", followUpMode: "all" });
  });
});
