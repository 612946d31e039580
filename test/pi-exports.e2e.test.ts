/**
 * pi 1.6's exports an extension uses beyond its API object, over the built CLI and the fake LLM:
 * model lookups by Atomic's `--model` rules, a stored credential, the project trust check, and
 * LLM summaries (a branch's and a conversation's) through the running agent's provider.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, useExtensionAgents, userTexts } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/pi-exports-probe.ts");
const compactor = resolve(import.meta.dirname, "fixtures/extensions/pi-compact-summary.ts");
const TS = "2026-01-01T00:00:00.000Z";

/** A session file of `count` messages (`m-<i>`, each with a `detail <i>:` line), the odd ones answers of fake-openai/fake-1. */
function writeSession(path: string, count: number): string {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines = [JSON.stringify({ type: "session", version: 3, id: "0195f0d0-0000-7000-8000-000000000002", timestamp: TS, cwd: dirname(path) })];
  for (let i = 0; i < count; i++) {
    const text = `m-${i}\ndetail ${i}: ${"lorem ipsum ".repeat(20)}`;
    const message =
      i % 2 === 0
        ? { role: "user", content: text, timestamp: i }
        : { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "fake-openai", model: "fake-1", usage, stopReason: "stop", timestamp: i };
    lines.push(JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: TS, message }));
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

const report = async (client: RpcClient, command: string, from: number) =>
  JSON.parse(String((await notified(client, new RegExp(`^${command} `), from)).message).slice(command.length + 1)) as Record<string, unknown>;

describe("pi 1.6 exports used by an extension", () => {
  it("resolves models, reads a stored credential and checks the project's trust-requiring files", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ "probe-provider": { type: "api_key", key: "probe-key" } }));
    const cwd = tempDir("atomic-project-");
    mkdirSync(join(cwd, ".atomic", "prompts"), { recursive: true });
    const client = await startExtensionAgent(fake, { extensions: [probe], agentDir, cwd });
    clients.push(client);
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/lookups" });
    expect(await report(client, "lookups", from)).toEqual({
      found: "fake-anthropic/fake-1",
      unknown: 'Unknown provider "no-such-provider". Run atomic --list-models to see the providers and models.',
      scope: expect.arrayContaining(["fake-openai/fake-1"]),
      diagnostics: ["no-match"],
      credential: { type: "api_key", key: "probe-key" },
      elsewhere: null,
      trust: true,
      runtime: expect.any(String),
      available: true,
      registry: "fake-1",
      refused: "ModelRuntime.login() is not available in Atomic: run `atomic login <provider>` (or the `login` RPC command)",
    });
  });

  it("summarises the abandoned branch and the conversation through the agent's provider", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe] });
    clients.push(client);
    fake.script({ text: "first answer" }, { text: "second answer" });
    await promptSettled(client, "first question");
    await promptSettled(client, "second question");
    fake.script({ text: "## Goal\nBranch work" }, { text: "## Goal\nWhole talk" });
    const before = fake.requests.length;
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/summaries" });
    const result = await report(client, "summaries", from);
    // The branch from the first question's entry: its answer, then the second exchange.
    expect(result.abandoned).toBe(3);
    expect(result.branchSummary).toMatch(/^The user left the conversation[\s\S]*## Goal\nBranch work$/);
    expect(result.summary).toBe("## Goal\nWhole talk");
    const [branchRequest, summaryRequest] = fake.requests.slice(before);
    expect(userTexts(branchRequest!).join("\n")).toMatch(
      /<conversation>\n\[Assistant\]: first answer\n\n\[User\]: second question\n\n\[Assistant\]: second answer\n<\/conversation>/,
    );
    expect(userTexts(summaryRequest!).join("\n")).toMatch(/\[User\]: first question[\s\S]*Also focus on: names$/);
  });

  it("compact(): an extension's LLM summary of the preparation becomes the compaction", async () => {
    const client = await startExtensionAgent(fake, { extensions: [compactor] });
    clients.push(client);
    await client.ok({ type: "switch_session", sessionPath: writeSession(join(client.cwd, "work.jsonl"), 30) });
    fake.script({ text: "## Goal\nSummarised by the extension" });
    const before = fake.requests.length;
    const response = await client.request({ type: "compact", customInstructions: "the details" });
    expect(response.success, JSON.stringify(response)).toBe(true);
    const requests = fake.requests.slice(before);
    expect(requests).toHaveLength(1);
    const prompt = userTexts(requests[0]!).join("\n");
    expect(prompt).toMatch(/^<conversation>\n\[User\]: m-0\n/);
    expect(prompt).toMatch(/Also focus on: the details$/);
    const { entries } = (await client.ok({ type: "get_entries" })) as { entries: { type: string; summary?: string }[] };
    expect(entries.at(-1)).toMatchObject({ type: "compaction", summary: "## Goal\nSummarised by the extension" });
  });
});
