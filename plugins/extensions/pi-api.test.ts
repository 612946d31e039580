/** The `pi` API in-process, through the real loader: actions, session access, registrations and their edge cases. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { OutEvent } from "../../kernel/index.js";
import { bootClosingAfterEach, uiRequests, type Harness } from "./harness.test-support.js";
import type { ExtensionAPI } from "./types/api.js";
import type { ExtensionContext } from "./types/context.js";

const boot = bootClosingAfterEach();
/** Waits until the provider was called `count` times (a message an extension sends starts its run asynchronously), then for idle. */
async function callsMade(h: Harness, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (h.seen.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${h.seen.length} provider calls`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await h.host.kernel.services.get("agent").waitForIdle();
}
const userTexts = (h: Harness, call: number) =>
  h.seen[call]!.messages.filter((m) => m.role === "user").map((m) =>
    typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join(""),
  );

describe("pi actions", () => {
  it("sendMessage stores at once when idle (announced), for the next turn, or queued as steer/followUp while streaming", async () => {
    let api!: ExtensionAPI;
    const h = await boot([(pi) => void (api = pi)], { answers: ["first", "second", "third", "fourth"] });
    api.sendMessage({ customType: "note", content: "stored now", display: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events.filter((e) => e.type === "message_end").map((e) => (e as OutEvent<"message_end">).message.role)).toEqual(["custom"]);
    h.host.kernel.hook("agent_start").tap("test", () => {
      if (h.seen.length > 0) return;
      api.sendMessage({ customType: "steer", content: "steered in", display: true });
      api.sendMessage({ customType: "later", content: "followed up", display: true }, { deliverAs: "followUp" });
      api.sendMessage({ customType: "next", content: "next turn note", display: false }, { deliverAs: "nextTurn" });
    });
    await h.run("go");
    expect(userTexts(h, 0)).toEqual(["stored now", "go"]);
    expect(userTexts(h, 1)).toEqual(["stored now", "go", "steered in"]);
    expect(userTexts(h, 2)).toEqual(["stored now", "go", "steered in", "followed up"]);
    await h.run("again");
    expect(userTexts(h, 3)).toEqual(["stored now", "go", "steered in", "followed up", "next turn note", "again"]);
  });

  it("sendUserMessage throws while streaming without deliverAs; expands templates only when asked; a refused expansion is reported", async () => {
    let api!: ExtensionAPI;
    const h = await boot([(pi) => void (api = pi)], { answers: ["a", "b"] });
    let thrown: unknown;
    h.host.kernel.hook("agent_start").tap("test", () => {
      try {
        api.sendUserMessage("during");
      } catch (error) {
        thrown = error;
      }
    });
    await h.run("go");
    expect(String(thrown)).toContain("Agent is already processing");
    mkdirSync(join(dirname(h.paths[0]!), "prompts"));
    writeFileSync(join(dirname(h.paths[0]!), "prompts", "greet.md"), "Say hello to $1");
    api.sendUserMessage("/greet Bob");
    await callsMade(h, 2);
    api.sendUserMessage("/greet Bob", { expandPromptTemplates: true });
    await callsMade(h, 3);
    expect(h.seen.map((call) => userTexts(h, h.seen.indexOf(call)).at(-1))).toEqual(["go", "/greet Bob", "Say hello to Bob"]);
    // A refused expansion is not sent, and the extension hears why.
    api.sendUserMessage("/skill:nosuch now", { expandPromptTemplates: true });
    const refused = expect.objectContaining({ event: "sendUserMessage", error: expect.stringContaining('Unknown skill "nosuch".') });
    await vi.waitFor(() => expect(h.events.filter((e) => e.type === "extension_error")).toEqual([refused]), { timeout: 10_000 });
    expect(h.seen).toHaveLength(3);
  });

  it("actions throw while the factory runs; registrations made then apply when it returns", async () => {
    const errors: string[] = [];
    const h = await boot([
      (pi) => {
        for (const call of [() => pi.sendMessage({ customType: "x", content: "y", display: true }), () => pi.appendEntry("x"), () => pi.setActiveTools(["read"])]) {
          try {
            call();
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
        pi.registerCommand("later", { handler: async () => {} });
      },
    ]);
    expect(errors).toEqual([
      "pi.sendMessage() cannot be called while the extension loads; call it from an event handler or a command",
      "pi.appendEntry() cannot be called while the extension loads; call it from an event handler or a command",
      "pi.setActiveTools() cannot be called while the extension loads; call it from an event handler or a command",
    ]);
    expect(h.host.kernel.services.get("extensions").list()[0]).toMatchObject({ loaded: true, commands: ["later"] });
  });

  it("session access: appendEntry, setSessionName, setLabel and the read-only session view", async () => {
    let api!: ExtensionAPI;
    let ctx!: ExtensionContext;
    const h = await boot(
      [
        (pi) => {
          api = pi;
          pi.on("session_start", (_e, c) => void (ctx = c));
        },
      ],
      { answers: ["hello back"] },
    );
    await h.run("hello");
    api.appendEntry("bookmark", { n: 1 });
    api.setSessionName("Named");
    await new Promise((resolve) => setImmediate(resolve));
    const view = ctx.sessionManager;
    const user = view.getEntries().find((e) => e.type === "message" && e.message.role === "user")!;
    api.setLabel(user.id, "start");
    expect(() => api.setLabel("nope", "x")).toThrow("Entry not found: nope");
    expect(api.getSessionName()).toBe("Named");
    expect(view.getSessionName()).toBe("Named");
    expect(view.getLabel(user.id)).toBe("start");
    expect(view.getLeafEntry()).toMatchObject({ type: "label", targetId: user.id });
    expect(view.getEntries().map((e) => e.type)).toEqual(["message", "message", "custom", "session_info", "label"]);
    expect(view.getBranch(user.id).map((e) => e.id)).toEqual([user.id]);
    expect(view.getTree()).toHaveLength(1);
    expect(view.getSessionFile()).toBeUndefined();
    expect(h.events.filter((e) => e.type === "extension_error")).toEqual([]);
  });

  it("tools: getAllTools lists schemas; the first extension to register a name keeps it; a built-in is overridden", async () => {
    let api!: ExtensionAPI;
    const tool = (text: string) => ({
      name: "ls",
      description: text,
      parameters: { type: "object", properties: {} },
      execute: async () => ({ content: [{ type: "text" as const, text }] }),
    });
    const h = await boot([
      (pi) => {
        api = pi;
        pi.registerTool(tool("first"));
      },
      (pi) => pi.registerTool(tool("second")),
    ]);
    const ls = api.getAllTools().find((t) => t.name === "ls")!;
    expect(ls).toEqual({
      name: "ls",
      description: "first",
      parameters: { type: "object", properties: {} },
      exposure: "direct",
      sourceInfo: { path: h.paths[0], source: "local", scope: "temporary", origin: "top-level", baseDir: dirname(h.paths[0]!) },
    });
    expect(api.getAllTools().find((t) => t.name === "read")!.sourceInfo).toEqual({ path: "builtin:read", source: "builtin", scope: "temporary", origin: "top-level" });
    expect(api.getAllTools().find((t) => t.name === "read")!.parameters).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    expect(h.host.kernel.tools.ownerOf("ls")).toBe(h.paths[0]);
    expect(h.events.filter((e) => e.type === "extension_error")).toEqual([
      {
        type: "extension_error",
        extensionPath: h.paths[1],
        event: "register_tool",
        error: `Tool "ls" is already registered by ${h.paths[0]}; the one from ${h.paths[1]} is ignored (the first one wins)`,
      },
    ]);
    expect(() => api.registerTool({ ...tool("x"), name: "bad name" })).toThrow('registerTool: the name must be 1-64 letters, digits, "_" or "-" (got "bad name")');
    const zod3 = { _def: { typeName: "ZodObject" }, safeParse: () => ({ success: true }) };
    expect(() => api.registerTool({ ...tool("x"), name: "old_zod", parameters: zod3 as never })).toThrow(
      'registerTool("old_zod"): parameters are a zod 3 schema; use zod 4, TypeBox or a JSON Schema object',
    );
    expect(() => api.unregisterProvider("scripted")).toThrow("is not supported by Atomic");
  });

  it("exec runs a program without a shell; a timeout kills it; a missing program answers code 1", async () => {
    let api!: ExtensionAPI;
    await boot([(pi) => void (api = pi)]);
    expect(await api.exec(process.execPath, ["-e", "process.stdout.write('out'); process.stderr.write('err'); process.exit(3)"])).toEqual({
      stdout: "out",
      stderr: "err",
      code: 3,
      killed: false,
    });
    expect(await api.exec(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { timeout: 50 })).toMatchObject({ killed: true });
    expect(await api.exec("/no/such/program", [])).toMatchObject({ code: 1, killed: false, stderr: expect.stringContaining("ENOENT") });
  });
});

describe("events and providers", () => {
  it("the inter-extension bus delivers in order and reports a failing subscriber against its extension", async () => {
    const got: unknown[] = [];
    let publish!: ExtensionAPI;
    const h = await boot([
      (pi) => void (publish = pi),
      (pi) => {
        pi.events.on("ch", () => {
          throw new Error("subscriber broke");
        });
        const off = pi.events.on("ch", (data) => void got.push(data));
        pi.events.on("stop", () => off());
      },
    ]);
    publish.events.emit("ch", 1);
    publish.events.emit("stop");
    publish.events.emit("ch", 2);
    expect(got).toEqual([1]);
    expect(h.events.filter((e) => e.type === "extension_error")).toEqual([
      { type: "extension_error", extensionPath: h.paths[1], event: "events:ch", error: "subscriber broke" },
      { type: "extension_error", extensionPath: h.paths[1], event: "events:ch", error: "subscriber broke" },
    ]);
  });

  it("user_bash: {result} answers the command; {operations} is refused (the command does not run here) and reported", async () => {
    const h = await boot([
      (pi) =>
        pi.on("user_bash", (event) =>
          event.command === "answer"
            ? { result: { output: "from extension", exitCode: 0, cancelled: false, truncated: false } }
            : event.command === "remote"
              ? { operations: {} }
              : undefined,
        ),
    ]);
    expect(await h.send({ type: "bash", command: "answer" })).toMatchObject({ success: true, data: { output: "from extension", exitCode: 0 } });
    expect(await h.send({ type: "bash", command: "echo real" })).toMatchObject({ success: true, data: { output: "real\n" } });
    expect(await h.send({ type: "bash", command: "remote" })).toMatchObject({
      success: false,
      error: expect.stringContaining("asked for a custom shell backend, which Atomic does not support"),
    });
    expect(h.events.filter((e) => e.type === "extension_error").map((e) => (e as OutEvent<"extension_error">).error)).toEqual([
      expect.stringContaining("returning { operations } (a custom shell backend) is not supported by Atomic"),
    ]);
  });

  it("message_end may replace a message with the same role only; resources_discover paths resolve against the extension", async () => {
    const h = await boot(
      [
        (pi) => {
          pi.on("message_end", (event) =>
            event.message.role === "assistant"
              ? { message: { ...event.message, content: [{ type: "text", text: "replaced" }] } }
              : event.message.role === "user"
                ? { message: { role: "custom", customType: "x", content: "no", display: true, timestamp: 0 } }
                : undefined,
          );
          pi.on("resources_discover", () => ({ skillPaths: ["skills"], promptPaths: ["/abs/prompts"] }));
        },
      ],
      { answers: ["original"] },
    );
    await h.run("hi");
    const ends = h.events.filter((e): e is OutEvent<"message_end"> => e.type === "message_end").map((e) => e.message);
    expect(ends.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(ends[1]).toMatchObject({ content: [{ type: "text", text: "replaced" }] });
    expect(h.events.find((e) => e.type === "extension_error")).toMatchObject({ event: "message_end", error: 'a replacement message must keep the role "user" (got "custom")' });
    const paths = await h.host.kernel.services.get("slashCommands").discoveredPaths();
    expect(paths).toEqual({ skillPaths: [h.paths[0]!.replace(/extension-0\.ts$/, "skills")], promptPaths: ["/abs/prompts"] });
  });

  it("registerProvider with streamSimple streams that provider's models; ctx.modelRegistry and pi-ai complete reach it", async () => {
    let ctx!: ExtensionContext;
    const h = await boot(
      [
        (pi) => {
          pi.registerProvider("custom", {
            api: "custom-api",
            models: [{ id: "c1", contextWindow: 500 }],
            async *streamSimple(model, context) {
              const text = `custom ${model.id} saw ${context.messages.length} message(s)`;
              const message = {
                role: "assistant" as const,
                content: [{ type: "text" as const, text }],
                api: model.api,
                provider: model.provider,
                model: model.id,
                usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
                stopReason: "stop" as const,
                timestamp: 1,
              };
              yield { type: "done" as const, reason: "stop" as const, message, partial: message };
            },
          });
          pi.on("session_start", (_e, c) => void (ctx = c));
        },
      ],
      { cli: { provider: "custom", model: "c1" } },
    );
    expect(ctx.model).toMatchObject({ provider: "custom", id: "c1", contextWindow: 500, input: ["text"] });
    expect(ctx.modelRegistry.hasConfiguredAuth(ctx.model!)).toBe(true);
    const answer = await ctx.modelRegistry.complete(ctx.model!, { messages: [{ role: "user", content: "q", timestamp: 1 }] });
    expect(answer.content).toEqual([{ type: "text", text: "custom c1 saw 1 message(s)" }]);
    await h.run("hi");
    expect(uiRequests(h.events)).toEqual([]);
    expect(h.host.kernel.services.get("agent").getMessages().at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "custom c1 saw 1 message(s)" }] });
  });
});

describe("compaction from extensions", () => {
  it("session_before_compact may cancel or supply the text (pi's {compaction: {summary}}); ctx.compact runs it", async () => {
    let mode: "cancel" | "supply" = "cancel";
    let seenPreparation: unknown;
    let ctx!: ExtensionContext;
    const h = await boot(
      [
        (pi) => {
          pi.on("session_start", (_e, c) => void (ctx = c));
          pi.on("session_before_compact", (event) => {
            seenPreparation = event.preparation;
            return mode === "cancel" ? { cancel: true } : { compaction: { summary: "An extension's summary of the talk." } };
          });
        },
      ],
      { answers: Array.from({ length: 4 }, (_, i) => Array.from({ length: 12 }, (_, line) => `answer ${i} line ${line}`).join("\n")) },
    );
    for (const text of ["first question", "second question", "third question", "fourth question"]) await h.run(text);
    expect(await h.send({ type: "compact", preserve_recent: 1 })).toMatchObject({ success: false, error: "Compaction cancelled" });
    expect(seenPreparation).toMatchObject({ tokensBefore: expect.any(Number) });
    mode = "supply";
    const done = new Promise<unknown>((resolve, reject) => ctx.compact({ onComplete: resolve, onError: reject }));
    expect(await done).toMatchObject({ compactedText: expect.stringContaining("An extension's summary of the talk.") });
  });
});
