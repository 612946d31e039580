/**
 * pi 1.6's exports an extension uses beyond its API object, over the built CLI and the fake LLM:
 * model lookups by Atomic's `--model` rules, a stored credential, the project trust check, and
 * LLM summaries (a branch's and a conversation's) through the running agent's provider.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, useExtensionAgents, userTexts } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/pi-exports-probe.ts");
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
});
