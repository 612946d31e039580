/**
 * Every example extension in extensions-examples/extensions/, loaded by the built CLI through
 * the real loader (`-e`), exercised over RPC against the loopback fake LLM: what the client sees
 * (UI requests, tool results, state) and what the model receives.
 */
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, toolNames, toolResults, uiRequest, useExtensionAgents, userTexts, wireText } from "../test/helpers/extension-agent.js";
import type { RpcClient } from "../test/helpers/rpc-client.js";

const example = (name: string) => resolve(import.meta.dirname, "extensions", `${name}.ts`);
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(names: string[], options: Omit<Parameters<typeof startExtensionAgent>[1], "extensions"> = {}): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions: names.map(example), ...options });
  clients.push(client);
  return client;
}

describe("example extensions", () => {
  it("hello: /hello notifies, and the name reaches the model with the next prompt", async () => {
    const c = await start(["hello"]);
    expect((await c.request({ type: "prompt", message: "/hello Ada" })).success).toBe(true);
    await notified(c, "Hello, Ada!");
    expect(fake.requests).toHaveLength(0);
    await promptSettled(c, "what is my name?");
    expect(userTexts(fake.requests[0]!)).toEqual(["The user's name is Ada.", "what is my name?"]);
  });

  it("word-count: the model is offered the tool with its JSON Schema; calls are validated and answered", async () => {
    const c = await start(["word-count"]);
    writeFileSync(join(c.cwd, "a.txt"), "one two\nthree four\n");
    fake.script(
      {
        toolCalls: [
          { name: "word_count", args: { path: "a.txt" } },
          { name: "word_count", args: { path: 5 } },
        ],
      },
      { text: "done" },
    );
    const from = await promptSettled(c, "count");
    expect(wireText(fake.requests[0]!.body.messages[0])).toContain("Guidelines for the extension tools:\n- Use word_count instead of wc for counting words in a file.");
    const offered = (fake.requests[0]!.body.tools as { function: { name: string; parameters: unknown } }[]).find((tool) => tool.function.name === "word_count");
    expect(offered!.function.parameters).toMatchObject({
      type: "object",
      properties: { path: { type: "string" }, unit: { anyOf: [{ const: "lines" }, { const: "words" }, { const: "chars" }] } },
      required: ["path"],
    });
    expect(toolResults(c, from)).toEqual([
      { tool: "word_count", isError: false, text: "lines: 2\nwords: 4\nchars: 19" },
      { tool: "word_count", isError: true, text: 'Validation failed for tool "word_count": Invalid path: expected string' },
    ]);
  });

  it("permission-gate: a dangerous command waits for the client's confirm; no blocks it, yes runs it", async () => {
    const c = await start(["permission-gate"]);
    fake.script(
      { toolCalls: [{ name: "bash", args: { command: "sudo rm -rf /nowhere" } }] },
      { toolCalls: [{ name: "bash", args: { command: "rm -rf ./scratch && echo cleaned" } }] },
      { text: "done" },
    );
    const from = c.records.length;
    await c.request({ type: "prompt", message: "clean up" });
    const first = await uiRequest(c, "confirm", from);
    expect(first).toMatchObject({ title: "Allow a dangerous command? (recursive or forced delete)", message: "sudo rm -rf /nowhere", timeout: 30000 });
    c.send({ type: "extension_ui_response", id: first.id, confirmed: false });
    const second = await uiRequest(c, "confirm", c.records.indexOf(first) + 1);
    c.send({ type: "extension_ui_response", id: second.id, confirmed: true });
    await c.waitForEvent("agent_end", 15_000, from);
    expect(toolResults(c, from)).toEqual([
      { tool: "bash", isError: true, text: "The user did not allow this command (recursive or forced delete)." },
      { tool: "bash", isError: false, text: "cleaned\n" },
    ]);
  });

  it("protected-paths: a write to .env is blocked with a warning; other writes go through", async () => {
    const c = await start(["protected-paths"]);
    fake.script(
      {
        toolCalls: [
          { name: "write", args: { path: ".env", content: "SECRET=1" } },
          { name: "write", args: { path: "notes.txt", content: "hi" } },
        ],
      },
      { text: "done" },
    );
    const from = await promptSettled(c, "write");
    const [blocked, written] = toolResults(c, from);
    expect(blocked).toMatchObject({ tool: "write", isError: true, text: ".env is protected (secrets, .git and node_modules are off limits)." });
    expect(written).toMatchObject({ tool: "write", isError: false });
    await notified(c, "Blocked a write of .env", from);
    expect(existsSync(join(c.cwd, ".env"))).toBe(false);
    expect(readFileSync(join(c.cwd, "notes.txt"), "utf8")).toBe("hi");
  });

  it("rpc-demo: every UI method over the protocol", async () => {
    const c = await start(["rpc-demo"]);
    expect(await uiRequest(c, "setTitle")).toMatchObject({ title: "atomic - rpc demo" });
    expect(await uiRequest(c, "setWidget")).toMatchObject({ widgetKey: "rpc-demo", widgetLines: ["RPC demo loaded", "Try /ui-select"], widgetPlacement: "belowEditor" });
    expect(await uiRequest(c, "setStatus")).toMatchObject({ statusKey: "rpc-demo", statusText: "ready" });
    // `unchecked`: a reply deliberately off its schema (a wrong type), which counts as cancelled.
    const dialog = async (command: string, method: string, reply: Record<string, unknown>, expected: string, unchecked = false) => {
      const from = c.records.length;
      const done = c.request({ type: "prompt", message: command });
      const request = await uiRequest(c, method, from);
      c.send({ type: "extension_ui_response", id: request.id, ...reply }, { unchecked });
      expect((await done).success).toBe(true);
      await notified(c, expected, from);
      return request;
    };
    expect(await dialog("/ui-select", "select", { value: "green" }, 'select: "green"')).toMatchObject({ title: "Pick a color", options: ["red", "green", "blue"], timeout: 60000 });
    expect(await dialog("/ui-confirm", "confirm", { confirmed: true }, "confirm: true")).toMatchObject({ title: "Proceed?", message: "Nothing happens either way." });
    await dialog("/ui-confirm", "confirm", { cancelled: true }, "confirm: false");
    expect(await dialog("/ui-input", "input", { value: "Grace" }, 'input: "Grace"')).toMatchObject({ title: "Your name", placeholder: "Ada" });
    await dialog("/ui-input", "input", { value: 42 }, "input: (cancelled)", true);
    expect(await dialog("/ui-editor", "editor", { value: "a\nb" }, 'editor: "a\\nb"')).toMatchObject({ title: "Edit the list", prefill: "one\ntwo\nthree" });
    let from = c.records.length;
    await c.ok({ type: "prompt", message: "/ui-prefill draft text" });
    expect(await uiRequest(c, "set_editor_text", from)).toMatchObject({ text: "draft text" });
    from = c.records.length;
    await c.ok({ type: "prompt", message: "/ui-clear" });
    const cleared = [await uiRequest(c, "setWidget", from), await uiRequest(c, "setStatus", from)];
    expect(cleared.map((r) => Object.keys(r).sort())).toEqual([
      ["id", "method", "type", "widgetKey"],
      ["id", "method", "statusKey", "type"],
    ]);
    from = await promptSettled(c, "hi");
    expect((await uiRequest(c, "setStatus", from)).statusText).toBe("turn 1 running");
  });

  it("session-status: names the session, counts runs in the status and keeps a custom entry per run", async () => {
    const c = await start(["session-status"]);
    await c.ok({ type: "prompt", message: "/session-name Demo" });
    expect((await c.ok({ type: "get_state" })).sessionName).toBe("Demo");
    const from = await promptSettled(c, "hello");
    await c.waitFor((r) => r.type === "extension_ui_request" && r.method === "setStatus" && r.statusText === "Demo: 1 run", 10_000, from);
    const { entries } = await c.ok({ type: "get_entries" });
    expect(entries.filter((e: { type: string }) => e.type === "custom")).toMatchObject([{ customType: "run-summary", data: { run: 1, tools: [] } }]);
  });

  it("local-llm: a provider registered by an extension serves the model from its base URL", async () => {
    const c = await start(["local-llm"], { model: "local/fake-1", env: { LOCAL_LLM_URL: `${fake.url}/v1`, LOCAL_LLM_MODEL: "fake-1" } });
    const { models } = await c.ok({ type: "get_available_models" });
    expect(models.map((m: { provider: string; id: string }) => `${m.provider}/${m.id}`)).toContain("local/fake-1");
    await promptSettled(c, "hi there");
    expect(fake.requests[0]!.path).toBe("/v1/chat/completions");
    expect(fake.requests[0]!.body.model).toBe("fake-1");
    expect((fake.requests[0]!.body.messages as { role: string }[])[0]!.role).toBe("system");
  });

  it("input-rewriter: :q is rewritten, :stop is handled, secrets are redacted for the model only", async () => {
    const c = await start(["input-rewriter"]);
    await promptSettled(c, ":q why is the sky blue");
    const from = c.records.length;
    await c.ok({ type: "prompt", message: ":stop" });
    await notified(c, "Nothing sent.", from);
    await promptSettled(c, "my key is sk-abcdefgh12345");
    expect(fake.requests).toHaveLength(2);
    expect(userTexts(fake.requests[1]!)).toEqual(["Answer in one sentence: why is the sky blue", "my key is [redacted]"]);
    const { messages } = await c.ok({ type: "get_messages" });
    expect(messages.filter((m: { role: string }) => m.role === "user").map((m: { content: string }) => m.content)).toEqual([
      "Answer in one sentence: why is the sky blue",
      "my key is sk-abcdefgh12345",
    ]);
  });

  it("read-audit: the overriding read refuses .env, records reads and delegates to the built-in", async () => {
    const c = await start(["read-audit"]);
    writeFileSync(join(c.cwd, "notes.txt"), "hello notes\n");
    writeFileSync(join(c.cwd, ".env"), "SECRET=1\n");
    fake.script(
      {
        toolCalls: [
          { name: "read", args: { path: ".env" } },
          { name: "read", args: { path: "notes.txt" } },
        ],
      },
      { text: "done" },
    );
    const from = await promptSettled(c, "read");
    const read = (fake.requests[0]!.body.tools as { function: { name: string; description: string } }[]).filter((tool) => tool.function.name === "read");
    expect(read).toHaveLength(1);
    expect(read[0]!.function.description).toMatch(/\(\.env files are refused\.\)$/);
    const [refused, allowed] = toolResults(c, from);
    expect(refused).toEqual({ tool: "read", isError: true, text: "Reading .env is not allowed: it holds secrets." });
    expect(allowed!.text).toContain("hello notes");
    const { entries } = await c.ok({ type: "get_entries" });
    expect(entries.filter((e: { type: string }) => e.type === "custom").map((e: { data: { path: string } }) => e.data.path)).toEqual(["notes.txt"]);
  });

  it("bus-publisher and bus-subscriber: one extension's events reach the other", async () => {
    const c = await start(["bus-publisher", "bus-subscriber"]);
    await c.ok({ type: "prompt", message: "/announce deploy at noon" });
    await notified(c, "Announcement: deploy at noon");
    const from = await promptSettled(c, "hi");
    await c.waitFor((r) => r.type === "extension_ui_request" && r.statusKey === "bus-subscriber" && r.statusText === "1 run(s) finished, last with 2 messages", 10_000, from);
    expect(toolNames(fake.requests[0]!)).not.toContain("announce");
  });
});
