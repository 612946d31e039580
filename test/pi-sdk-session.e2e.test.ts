/**
 * pi 1.6's SDK objects an extension builds inside the running agent, over the built CLI and the
 * fake LLM: `createAgentSession` (a second agent in the same process, through Atomic's SDK) and
 * `DefaultPackageManager` (installs through the packages plugin, a local folder: no network).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, startExtensionAgent, useExtensionAgents, userTexts } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/pi-exports-probe.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

const report = async (client: RpcClient, command: string, from: number) =>
  JSON.parse(String((await notified(client, new RegExp(`^${command} `), from)).message).slice(command.length + 1)) as Record<string, unknown>;

describe("pi 1.6's SDK objects built by an extension", () => {
  it("createAgentSession: a second agent answers an awaited prompt, in its own session file", async () => {
    const agentDir = tempDir("atomic-agent-");
    const client = await startExtensionAgent(fake, { extensions: [probe], agentDir });
    clients.push(client);
    fake.script({ text: "the second agent answers" });
    const before = fake.requests.length;
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/second" });
    const result = await report(client, "second", from);
    expect(result).toMatchObject({
      reply: "the second agent answers",
      roles: ["user", "assistant"],
      deltas: "the second agent answers",
      model: "fake-openai/fake-1",
      idle: true,
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      refused: expect.stringContaining("AgentSession.getSessionStats() is not available in Atomic"),
    });
    const file = String(result.sessionFile);
    expect(file.startsWith(join(agentDir, "sessions"))).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toContain("hello from the extension");
    // One LLM request, the second agent's; the running agent's conversation is untouched.
    expect(fake.requests.slice(before).map((request) => userTexts(request).at(-1))).toEqual(["hello from the extension"]);
    const { messages } = (await client.ok({ type: "get_messages" })) as { messages: unknown[] };
    expect(JSON.stringify(messages)).not.toContain("hello from the extension");
  }, 60_000);

  it("createAgentSession with SessionManager.inMemory(): no session file", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe] });
    clients.push(client);
    fake.script({ text: "in memory" });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/second memory" });
    expect(await report(client, "second", from)).toMatchObject({ reply: "in memory", sessionFile: null });
  }, 60_000);

  it("AgentSessionRuntime (pi's session-runtime example): a new session, then back to the first with its messages", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe] });
    clients.push(client);
    fake.script({ text: "first session answer" });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/runtime" });
    expect(await report(client, "runtime", from)).toEqual({ before: 2, afterNew: { file: expect.any(String), messages: 0 }, fresh: true, back: true, restored: 2, rebound: 2 });
  }, 60_000);

  it("DefaultPackageManager installs a local package into the user's settings and resolves its extension", async () => {
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-project-");
    const pkg = join(cwd, "tools");
    mkdirSync(join(pkg, "extensions"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "tools", version: "1.0.0" }));
    writeFileSync(join(pkg, "extensions", "hello.ts"), "export default () => {};\n");
    const client = await startExtensionAgent(fake, { extensions: [probe], agentDir, cwd });
    clients.push(client);
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "/packages ./tools" });
    expect(await report(client, "packages", from)).toEqual({
      configured: [{ source: expect.any(String), scope: "user", filtered: false, installedPath: pkg }],
      extensions: [join(pkg, "extensions", "hello.ts")],
    });
    const written = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages as string[];
    expect(written).toHaveLength(1);
    expect(resolve(agentDir, written[0]!)).toBe(pkg);
  }, 60_000);
});
