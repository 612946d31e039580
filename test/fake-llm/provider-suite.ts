/**
 * The conformance suite every provider adapter passes against the fake server: the official
 * SDK over real HTTP, through the provider plugin's stream hook, checked against the unified
 * event contract (exactly one final event, partial snapshots, usage and cost, errors as events).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, AssistantMessageEvent, Model } from "../../lib/llm/index.js";
import type { PluginDefinition, Settings } from "../../kernel/index.js";
import { isContextOverflow, isRetryableError } from "../../lib/provider-kit/index.js";
import { BASH_TOOL, TINY_PNG, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";
import { startFakeLlm, writeModelsJson, type FakeLlm, type FakeProviderName, type RecordedRequest } from "./server.js";

export interface ProviderSuiteConfig {
  provider: FakeProviderName;
  plugin: PluginDefinition;
  /** True when the request body carries the test image (base64 TINY_PNG). */
  hasImage(request: RecordedRequest): boolean;
  /** The provider's own wording of a context overflow (HTTP 400). */
  overflowMessage: string;
  /** Frames to send before stalling so that exactly the first text delta got out. */
  framesThroughFirstDelta: number;
  /** Gemini sends whole function calls: its arguments never arrive in fragments. */
  streamsArgumentFragments: boolean;
}

export interface SuiteContext {
  fake: FakeLlm;
  kernel: Kernel;
  model: Model;
  agentDir: string;
}

/** Boots a kernel with the provider against a fresh fake server; shared by the suite and provider-specific tests. */
export function useProviderKernel(provider: FakeProviderName, plugin: PluginDefinition, settings?: Settings): SuiteContext {
  const ctx = {} as SuiteContext;
  beforeAll(async () => {
    ctx.fake = await startFakeLlm();
    ctx.agentDir = await tempDir();
    await writeModelsJson(ctx.agentDir, ctx.fake.url);
    ctx.kernel = await bootKernel({ agentDir: ctx.agentDir, plugins: [plugin], ...(settings ? { settings } : {}) });
    ctx.model = ctx.kernel.services.get("models").find(provider, "fake-1")!;
  });
  beforeEach(() => {
    ctx.fake.requests.length = 0;
  });
  afterAll(async () => {
    await ctx.fake.close();
    await removeDir(ctx.agentDir);
  });
  return ctx;
}

const types = (events: AssistantMessageEvent[]) => events.map((e) => e.type);
const finalMessage = (event: AssistantMessageEvent): AssistantMessage => (event.type === "done" ? event.message : event.type === "error" ? event.error : event.partial);

export function describeProviderConformance(config: ProviderSuiteConfig): void {
  describe(`${config.provider} conformance (official SDK over HTTP)`, () => {
    const ctx = useProviderKernel(config.provider, config.plugin);

    it("streams text as start, text_start, deltas, text_end, done(stop) with matching snapshots", async () => {
      ctx.fake.script({ text: "Hello there, world" });
      const { events, snapshots, final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      const kinds = types(events);
      expect(kinds[0]).toBe("start");
      expect(kinds.slice(1, 2)).toEqual(["text_start"]);
      expect(kinds.slice(-2)).toEqual(["text_end", "done"]);
      expect(kinds.filter((t) => t === "done" || t === "error")).toHaveLength(1);
      const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe("Hello there, world");
      // Each snapshot shows the text exactly as far as its own event.
      let soFar = "";
      events.forEach((event, i) => {
        if (event.type === "text_delta") soFar += event.delta;
        if (event.type === "text_delta") expect(JSON.parse(snapshots[i]!).content[0].text).toBe(soFar);
      });
      expect(final.type).toBe("done");
      const message = finalMessage(final);
      expect(message.stopReason).toBe("stop");
      expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "Hello there, world" })]);
      expect(message).toMatchObject({ role: "assistant", api: ctx.model.api, provider: config.provider, model: "fake-1" });
    });

    it("streams thinking before the answer", async () => {
      ctx.fake.script({ thinking: "Let me think it over", text: "Done" });
      const { events, final } = await runStream(ctx.kernel, streamRequest(ctx.model, { thinkingLevel: "medium" }));
      const kinds = types(events);
      expect(kinds.indexOf("thinking_start")).toBeLessThan(kinds.indexOf("thinking_end"));
      expect(kinds.indexOf("thinking_end")).toBeLessThan(kinds.indexOf("text_start"));
      const message = finalMessage(final);
      expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Let me think it over" });
      expect(message.content[1]).toMatchObject({ type: "text", text: "Done" });
    });

    it("streams a tool call whose JSON is split across chunks", async () => {
      const args = { command: 'ls -la /tmp && echo "done"', timeout: 30 };
      ctx.fake.script({ toolCalls: [{ name: "bash", args }], splitArgs: true });
      const { events, snapshots, final } = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL] }));
      const deltas = events.filter((e) => e.type === "toolcall_delta");
      expect(deltas.length).toBeGreaterThan(config.streamsArgumentFragments ? 1 : 0);
      if (config.streamsArgumentFragments) {
        // The arguments fill in as the fragments arrive (each cut mid-token), before the end.
        const seen = events.flatMap((e, i) => (e.type === "toolcall_delta" ? [JSON.parse(snapshots[i]!).content[e.contentIndex].arguments] : []));
        expect(seen.some((a) => typeof a.command === "string" && a.command !== "" && a.command !== args.command)).toBe(true);
        expect(seen.at(-1)).toEqual(args);
      }
      const end = events.find((e) => e.type === "toolcall_end");
      expect(end?.type === "toolcall_end" && end.toolCall).toMatchObject({ type: "toolCall", name: "bash", arguments: args });
      expect(end?.type === "toolcall_end" && end.toolCall.id).toBeTruthy();
      expect(final.type === "done" && final.reason).toBe("toolUse");
      expect(finalMessage(final).stopReason).toBe("toolUse");
    });

    it("keeps two parallel tool calls in order", async () => {
      ctx.fake.script({
        text: "Running both",
        toolCalls: [
          { name: "bash", args: { command: "pwd" } },
          { name: "read", args: { path: "a.txt" } },
        ],
        splitArgs: true,
      });
      const { final } = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL] }));
      const calls = finalMessage(final).content.filter((b) => b.type === "toolCall");
      expect(calls.map((c) => c.type === "toolCall" && [c.name, c.arguments])).toEqual([
        ["bash", { command: "pwd" }],
        ["read", { path: "a.txt" }],
      ]);
      expect(new Set(calls.map((c) => c.type === "toolCall" && c.id)).size).toBe(2);
    });

    it("reports usage with cost from the model's prices", async () => {
      ctx.fake.script({ text: "ok", usage: { input: 1000, output: 500, cacheRead: 200 } });
      const { final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      const usage = finalMessage(final).usage;
      expect(usage).toMatchObject({ input: 1000, output: 500, cacheRead: 200 });
      expect(usage.totalTokens).toBe(usage.input + usage.output + usage.cacheRead + usage.cacheWrite);
      expect(usage.cost.input).toBeCloseTo((3 * 1000) / 1e6, 12);
      expect(usage.cost.output).toBeCloseTo((15 * 500) / 1e6, 12);
      expect(usage.cost.cacheRead).toBeCloseTo((0.3 * 200) / 1e6, 12);
      expect(usage.cost.total).toBeCloseTo(usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite, 12);
    });

    it("sends an image prompt", async () => {
      ctx.fake.script({ text: "A pixel" });
      const messages = [
        {
          role: "user" as const,
          content: [
            { type: "text" as const, text: "What is this?" },
            { type: "image" as const, data: TINY_PNG, mimeType: "image/png" },
          ],
          timestamp: 1,
        },
      ];
      await runStream(ctx.kernel, streamRequest(ctx.model, { messages }));
      expect(config.hasImage(ctx.fake.requests[0]!)).toBe(true);
    });

    it("reports a 429 as a retryable error event, and the next call succeeds", async () => {
      ctx.fake.script({ status: 429 }, { text: "Back again" });
      const first = await runStream(ctx.kernel, streamRequest(ctx.model));
      expect(first.final.type).toBe("error");
      const failed = finalMessage(first.final);
      expect(failed.stopReason).toBe("error");
      expect(failed.errorMessage).toMatch(/429/);
      expect(isRetryableError(failed.errorMessage)).toBe(true);
      expect(ctx.fake.requests).toHaveLength(1); // SDK retries are off
      const second = await runStream(ctx.kernel, streamRequest(ctx.model));
      expect(finalMessage(second.final).content).toEqual([expect.objectContaining({ text: "Back again" })]);
    });

    it("reports a 500 as a retryable error event", async () => {
      ctx.fake.script({ status: 500 });
      const { events, final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      expect(types(events).filter((t) => t === "error")).toHaveLength(1);
      expect(finalMessage(final).errorMessage).toMatch(/500/);
      expect(isRetryableError(finalMessage(final).errorMessage)).toBe(true);
      expect(ctx.fake.requests).toHaveLength(1);
    });

    it("classifies the provider's context overflow error", async () => {
      ctx.fake.script({ status: 400, errorMessage: config.overflowMessage });
      const { final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      const message = finalMessage(final).errorMessage;
      expect(message).toMatch(/^400/);
      expect(isContextOverflow(message)).toBe(true);
      expect(isRetryableError(message)).toBe(false);
    });

    it("aborts mid-stream: stopReason aborted, partial kept, the server sees the disconnect", async () => {
      ctx.fake.script({ text: "First words then more", stall: config.framesThroughFirstDelta });
      const controller = new AbortController();
      const { final } = await runStream(ctx.kernel, streamRequest(ctx.model, { signal: controller.signal }), (event) => {
        if (event.type === "text_delta") controller.abort();
      });
      expect(final.type === "error" && final.reason).toBe("aborted");
      const message = finalMessage(final);
      expect(message.stopReason).toBe("aborted");
      expect(message.content[0]).toMatchObject({ type: "text", text: "First " });
      await ctx.fake.waitForDisconnect(0);
      expect(ctx.fake.requests[0]!.disconnected).toBe(true);
    });

    it("ends with an aborted error when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      const { events, final } = await runStream(ctx.kernel, streamRequest(ctx.model, { signal: controller.signal }));
      expect(types(events).filter((t) => t === "done" || t === "error")).toHaveLength(1);
      expect(final.type === "error" && final.reason).toBe("aborted");
    });

    it("turns malformed SSE into a clear error event", async () => {
      ctx.fake.script({ text: "never shown", malformed: true });
      const { events, final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      expect(types(events).filter((t) => t === "done" || t === "error")).toHaveLength(1);
      expect(final.type === "error" && final.reason).toBe("error");
      expect(finalMessage(final).errorMessage).toMatch(/malformed|json/i);
    });

    it("reports an in-stream provider error as an error event keeping the partial content", async () => {
      ctx.fake.script({ text: "Partial answer", streamError: "Overloaded" });
      const { final } = await runStream(ctx.kernel, streamRequest(ctx.model));
      const message = finalMessage(final);
      expect(message.stopReason).toBe("error");
      expect(message.errorMessage).toMatch(/overloaded/i);
      expect(isRetryableError(message.errorMessage)).toBe(true);
      expect(message.content[0]).toMatchObject({ type: "text", text: "Partial answer" });
    });

    it("fails without an HTTP request when the provider has no key", async () => {
      const keyless = { ...ctx.model, provider: "no-such-provider" };
      const { events, final } = await runStream(ctx.kernel, streamRequest(keyless));
      expect(events).toHaveLength(1);
      expect(finalMessage(final).errorMessage).toBe("No API key found for no-such-provider.");
      expect(ctx.fake.requests).toHaveLength(0);
    });
  });
}
