/** pi 1.x's additions to the extension API, in-process through the real loader. */
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../lib/llm/index.js";
import type { SystemMessage } from "./compat/transcript.js";
import { bootClosingAfterEach, MODEL, uiRequests, type Harness } from "./harness.test-support.js";
import type { ExtensionAPI } from "./types/api.js";
import type { ExtensionCommandContext, ExtensionContext } from "./types/context.js";

const boot = bootClosingAfterEach();
const texts = (h: Harness, call: number) =>
  h.seen[call]!.messages.map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")));
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("pi 1.x: pi and ctx", () => {
  it("on() returns an unsubscribe; ctx has mode, thinkingLevel, scopedModels, isProjectTrusted; getSettings is a copy", async () => {
    let api!: ExtensionAPI;
    const starts: number[] = [];
    let ctx!: ExtensionContext;
    let off!: () => void;
    const h = await boot(
      [
        (pi) => {
          api = pi;
          off = pi.on("turn_start", (event, c) => {
            starts.push(event.turnIndex);
            ctx = c;
          });
        },
      ],
      { answers: ["a", "b"] },
    );
    await h.run("one");
    expect(starts).toEqual([0]);
    expect([ctx.mode, ctx.thinkingLevel, ctx.scopedModels, ctx.isProjectTrusted()]).toEqual(["rpc", "off", [], false]);
    off();
    await h.run("two");
    expect(starts).toEqual([0]);
    const settings = api.getSettings();
    settings.changed = true;
    expect(api.getSettings()).not.toHaveProperty("changed");
  });

  it("command ctx: getSystemPromptOptions reports the active tools and extension tools' snippets and guidelines", async () => {
    let options!: ReturnType<ExtensionCommandContext["getSystemPromptOptions"]>;
    const h = await boot([
      (pi) => {
        pi.registerTool({
          name: "note",
          label: "Note",
          description: "Take a note",
          promptSnippet: "Take notes",
          promptGuidelines: ["Use note for notes."],
          parameters: { type: "object", properties: {} },
          execute: async () => ({ content: [] }),
        });
        pi.registerCommand("opts", { handler: async (_args, ctx) => void (options = ctx.getSystemPromptOptions()) });
      },
    ]);
    await h.run("/opts");
    expect(options.cwd).toBe(h.host.kernel.config.cwd);
    expect(options.selectedTools).toContain("note");
    expect(options.toolSnippets).toEqual({ note: "Take notes" });
    expect(options.toolGuidelines).toEqual({ note: ["Use note for notes."] });
    expect(options).toMatchObject({ promptGuidelines: [], sections: {}, contextFiles: [], skills: [] });
  });

  it("tool fields: defaultActive and exposure decide activation; getAllTools reports exposure, namespace, annotations; bad fields throw", async () => {
    let api!: ExtensionAPI;
    const tool = (name: string, extra: Record<string, unknown>) => ({
      name,
      label: name,
      description: name,
      parameters: { type: "object", properties: {} },
      execute: async () => ({ content: [] }),
      ...extra,
    });
    const h = await boot([
      (pi) => {
        api = pi;
        pi.registerTool(tool("plain", { annotations: { readOnlyHint: true }, namespace: { name: "mcp__docs", aliases: ["docs"] } }));
        pi.registerTool(tool("lazy", { defaultActive: false }));
        pi.registerTool(tool("secret", { exposure: "hidden" }));
        pi.registerTool(tool("scripted", { exposure: "codemode" }));
      },
    ]);
    const tools = h.host.kernel.tools;
    expect(["plain", "lazy", "secret", "scripted"].map((name) => tools.isActive(name))).toEqual([true, false, false, false]);
    const plain = api.getAllTools().find((t) => t.name === "plain")!;
    expect(plain).toMatchObject({ exposure: "direct", annotations: { readOnlyHint: true }, namespace: { name: "mcp__docs", aliases: ["docs"] } });
    expect(api.getAllTools().find((t) => t.name === "secret")!.exposure).toBe("hidden");
    await h.run("go");
    expect(h.seen[0]!.tools.map((t) => t.name)).toContain("plain");
    expect(h.seen[0]!.tools.map((t) => t.name)).not.toContain("lazy");
    api.setActiveTools(["plain", "lazy", "secret"]);
    expect(api.getActiveTools()).toEqual(["plain", "lazy"]);
    expect(h.warnings.some((line) => line.includes("setActiveTools: secret is hidden (left out)"))).toBe(true);
    expect(() => api.registerTool(tool("odd", { exposure: "sometimes" }))).toThrow(
      'registerTool("odd"): exposure must be one of "direct", "model-only", "codemode", "deferred", "hidden"',
    );
    expect(() => api.registerTool(tool("odd", { annotations: { readOnlyHint: "yes" } }))).toThrow('registerTool("odd"): annotations.readOnlyHint must be a boolean');
  });

  it("a tool's ctx.executeTool runs another tool through the pipeline: tool_call handlers see it as nested, and may block it", async () => {
    const outcomes: unknown[] = [];
    const seen: [string, string | undefined][] = [];
    let tools: string[] = [];
    const h = await boot(
      [
        (pi) => {
          pi.on("tool_call", async (event) => {
            seen.push([event.toolName, (event as { parentToolCallId?: string }).parentToolCallId]);
            if (event.toolName === "bash") return { block: true, reason: "no shell here" };
          });
          pi.registerTool({
            name: "outer",
            label: "Outer",
            description: "calls other tools",
            parameters: { type: "object", properties: {} },
            async execute(_id, _params, _signal, _update, ctx) {
              tools = ctx.tools.map((tool) => tool.name);
              outcomes.push(await ctx.executeTool("read", { path: "missing-file.txt" }));
              outcomes.push(await ctx.executeTool("bash", { command: "echo hi" }));
              return { content: [{ type: "text", text: "done" }] };
            },
          });
        },
      ],
      { answers: [{ tool: "outer", args: {} }, "ok"] },
    );
    await h.run("go");
    expect(tools).toEqual(expect.arrayContaining(["read", "bash", "outer"]));
    const [read, bash] = outcomes as { toolCall: { id: string }; isError: boolean; result: { content: { text: string }[] } }[];
    expect(read!.isError).toBe(true);
    expect(read!.toolCall.id).toMatch(/\/1$/);
    expect(bash).toMatchObject({ isError: true, result: { content: [{ text: "no shell here" }] } });
    const parent = seen.find(([name]) => name === "outer");
    expect(parent?.[1]).toBeUndefined();
    expect(seen.filter(([name]) => name !== "outer").map(([name, from]) => [name, from?.length ? "nested" : "top"])).toEqual([
      ["read", "nested"],
      ["bash", "nested"],
    ]);
  });

  it("ctx.ui and its theme are ordinary objects: a Proxy may wrap them and a method may be replaced", async () => {
    let ctx!: ExtensionContext;
    const h = await boot([(pi) => pi.registerCommand("grab", { handler: async (_args, c) => void (ctx = c) })]);
    await h.run("/grab");
    const theme = new Proxy(ctx.ui.theme, { get: (target, key) => (key === "fg" ? (_color: string, text: string) => `<${text}>` : Reflect.get(target, key)) });
    const ui = new Proxy(ctx.ui, { get: (target, key) => (key === "theme" ? theme : Reflect.get(target, key)) });
    expect(ui.theme.fg("accent", "hi")).toBe("<hi>");
    expect(ui.theme.bold("b")).toBe("b");
    expect(Object.isFrozen(ctx.ui.theme) || Object.isFrozen(ctx.ui)).toBe(false);
    ctx.ui.theme.fg = () => "patched";
    expect(ctx.ui.theme.fg("x", "y")).toBe("patched");
  });

  it("ui_prompt_start / ui_prompt_end span a dialog", async () => {
    const seen: string[] = [];
    const h = await boot([
      (pi) => {
        pi.on("ui_prompt_start", (event) => void seen.push(`start:${event.kind}:${event.title}`));
        pi.on("ui_prompt_end", (event) => void seen.push(`end:${event.kind}`));
        pi.registerCommand("ask", { handler: async (_args, ctx) => void (await ctx.ui.confirm("Sure?", "really")) });
      },
    ]);
    const asking = h.send({ type: "prompt", message: "/ask" });
    for (let i = 0; i < 100 && uiRequests(h.events, "confirm").length === 0; i++) await tick();
    await tick();
    expect(seen).toEqual(["start:confirm:Sure?"]);
    await h.send({ type: "extension_ui_response", id: uiRequests(h.events, "confirm")[0]!.id, confirmed: true });
    await asking;
    await tick();
    expect(seen).toEqual(["start:confirm:Sure?", "end:confirm"]);
  });
});

describe("pi 1.x: run events", () => {
  it("before_agent_start: messageType user or custom; systemPromptOptions sections and guidelines reach the prompt, selectedTools the tool list", async () => {
    let api!: ExtensionAPI;
    const kinds: string[] = [];
    const h = await boot(
      [
        (pi) => {
          api = pi;
          pi.on("before_agent_start", (event) => {
            kinds.push(event.messageType === "custom" ? `custom:${event.message?.customType}` : `user:${event.prompt}`);
            event.systemPromptOptions.sections.house = "Answer in French.";
            event.systemPromptOptions.promptGuidelines.push("Be brief.");
            event.systemPromptOptions.selectedTools = event.systemPromptOptions.selectedTools.filter((name) => name !== "bash");
          });
        },
      ],
      { answers: ["a", "b"] },
    );
    await h.run("hello");
    expect(kinds).toEqual(["user:hello"]);
    expect(h.seen[0]!.systemPrompt).toMatch(/- Be brief\.\n\n<house>\nAnswer in French\.\n<\/house>$/);
    expect(h.seen[0]!.tools.map((t) => t.name)).not.toContain("bash");
    api.sendMessage({ customType: "ping", content: "from the extension", display: true }, { triggerTurn: true });
    for (let i = 0; i < 200 && h.seen.length < 2; i++) await tick();
    await h.host.kernel.services.get("agent").waitForIdle();
    expect(kinds).toEqual(["user:hello", "custom:ping"]);
  });

  it("agent_before_settle: entries chain across handlers; a custom_message with continue makes one more request; agent_settled says aborted", async () => {
    const settled: boolean[] = [];
    let asked = false;
    const h = await boot(
      [
        (pi) =>
          pi.on("agent_before_settle", (event) => {
            if (asked) return;
            asked = true;
            return { entries: [...event.entries, { type: "custom_message", customType: "review", content: "Review the diff.", display: false }], continue: true };
          }),
        (pi) => {
          pi.on("agent_before_settle", (event) => {
            if (event.entries.length === 1) return { entries: [...event.entries, { type: "custom", customType: "marker", data: { n: 1 } }] };
          });
          pi.on("agent_settled", (event) => void settled.push(event.aborted));
        },
      ],
      { answers: ["first", "second"], cli: { noSession: false } },
    );
    await h.run("go");
    expect(h.seen).toHaveLength(2);
    expect(texts(h, 1)).toEqual(["go", "first", "Review the diff."]);
    await tick();
    expect(settled).toEqual([false]);
    const entries = h.host.kernel.services.get("session").entries();
    expect(entries.some((entry) => entry.type === "custom" && entry.customType === "marker")).toBe(true);
  });

  it("agent_before_settle refuses entries Atomic cannot append, naming the extension", async () => {
    const h = await boot([(pi) => pi.on("agent_before_settle", () => ({ entries: [{ type: "context_edit", targetId: "x", replacement: null }], continue: true }))], {
      answers: ["only"],
    });
    await h.run("go");
    expect(h.seen).toHaveLength(1);
    expect(h.events.filter((e) => e.type === "extension_error")).toMatchObject([
      {
        extensionPath: h.paths[0],
        event: "agent_before_settle",
        error: 'entries[0]: "context_edit" entries are not supported by Atomic (only "custom" and "custom_message"); the proposal was not applied',
      },
    ]);
  });

  it("context_with_system: handlers edit the whole request in transcript form; a result without the leading system message is refused", async () => {
    const h = await boot(
      [
        (pi) =>
          pi.on("context_with_system", (event) => {
            const [head, ...rest] = event.messages;
            const system = head as SystemMessage;
            return { messages: [{ ...system, content: `${system.content}\nEXTRA`, toolsAdded: (system.toolsAdded ?? []).filter((t) => t.name === "read") }, ...rest] };
          }),
        (pi) => pi.on("context_with_system", (event) => (event.messages.length > 2 ? { messages: event.messages.slice(1) } : undefined)),
      ],
      { answers: ["a", "b"] },
    );
    await h.run("one");
    expect(h.seen[0]!.systemPrompt).toMatch(/\nEXTRA$/);
    expect(h.seen[0]!.tools.map((t) => t.name)).toEqual(["read"]);
    await h.run("two");
    expect(h.events.filter((e) => e.type === "extension_error")).toMatchObject([{ extensionPath: h.paths[1], event: "context_with_system" }]);
    expect(h.seen[1]!.tools.map((t) => t.name)).toEqual(["read"]);
  });

  it("session_compact_failed reports a compaction that could not run", async () => {
    const failures: unknown[] = [];
    const h = await boot([(pi) => pi.on("session_compact_failed", (event) => void failures.push(event))], { cli: { noSession: false } });
    const response = await h.send({ type: "compact" });
    expect(response.success).toBe(false);
    expect(failures).toMatchObject([
      { type: "session_compact_failed", reason: "manual", aborted: false, willRetry: false, fromExtension: false, errorMessage: expect.stringContaining("Nothing to compact") },
    ]);
  });
});

describe("pi 1.x: virtual models", () => {
  it("route each request to a physical model, keep the router's state on the branch, and leave the catalog when unregistered", async () => {
    let api!: ExtensionAPI;
    const requests: { reason: string; state: unknown; thinkingLevel: string }[] = [];
    const h = await boot(
      [
        (pi) => {
          api = pi;
          pi.registerVirtualModel<{ calls: number }>({
            provider: "router",
            id: "auto",
            name: "Auto",
            thinkingLevels: ["off", "low"],
            route(request, ctx) {
              requests.push({ reason: request.reason, state: request.state, thinkingLevel: request.thinkingLevel });
              return { model: ctx.modelRegistry.find(MODEL.provider, MODEL.id)!, thinkingLevel: "off", state: { calls: (request.state?.calls ?? 0) + 1 } };
            },
          });
        },
      ],
      { answers: [{ tool: "ls", args: {} }, "listed", "again"], cli: { noSession: false } },
    );
    const models = h.host.kernel.services.get("models");
    expect(models.find("router", "auto")).toMatchObject({ api: "pi-virtual", thinkingLevels: ["off", "low"], reasoning: true });
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("list files");
    await h.run("and again");
    expect(requests).toEqual([
      { reason: "user", state: undefined, thinkingLevel: "off" },
      { reason: "continuation", state: { calls: 1 }, thinkingLevel: "off" },
      { reason: "user", state: { calls: 2 }, thinkingLevel: "off" },
    ]);
    const answers = h.host.kernel.services
      .get("agent")
      .getMessages()
      .filter((m): m is AssistantMessage => m.role === "assistant");
    expect(answers.map((m) => `${m.provider}/${m.model}`)).toEqual(["scripted/m1", "scripted/m1", "scripted/m1"]);
    expect(h.host.kernel.services.get("agent").getModel()).toMatchObject({ provider: "router", id: "auto" });
    api.unregisterVirtualModel("router", "auto");
    expect(models.find("router", "auto")).toBeUndefined();
    expect(() => api.registerVirtualModel({ provider: "scripted", id: "m1", name: "clash", route: () => ({ model: MODEL, thinkingLevel: "off" }) })).toThrow(
      "scripted/m1 is a physical model",
    );
    expect(() => api.registerVirtualModel({ provider: "", id: "x", name: "x", route: () => ({ model: MODEL, thinkingLevel: "off" }) })).toThrow(
      "registerVirtualModel: provider must be a non-empty string",
    );
  });
});
