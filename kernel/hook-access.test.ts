import { describe, expect, it } from "vitest";
import { announce, definePlugin, ErrorCode, GUARD_VETO, HOOK_POLICY, Kernel, silentLogger, type HookName, type KernelConfig, type OutEvent } from "./index.js";

const config = (): KernelConfig => ({ agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false });
const kernel = () => new Kernel({ config: config(), log: silentLogger });

describe("who may call a hook", () => {
  it("plugins get a tap-only view: tapping works, calling does not exist", async () => {
    const k = kernel();
    const view = k.context("p").hooks;
    const seen: string[] = [];
    view.agent_start.tap("p", () => void seen.push("tapped"));
    expect(view.agent_start.isUsed()).toBe(true);
    expect("promise" in view.agent_start).toBe(false);
    expect("call" in view.stream.for("x")).toBe(false);
    // @ts-expect-error a tap-only hook has no caller side
    expect(() => view.tool_call.promise({ toolCallId: "1", toolName: "x", input: {} })).toThrow();
    await k.hooks.agent_start.promise({});
    expect(seen).toEqual(["tapped"]);
  });

  it("an untapped hook is not used, though the policy interceptor is installed on it", () => {
    const k = kernel();
    expect(k.hooks.message_update.isUsed()).toBe(false);
    expect(k.context("p").hooks.message_update.isUsed()).toBe(false);
    k.hooks.message_update.tap("p", () => undefined);
    expect(k.hooks.message_update.isUsed()).toBe(true);
  });

  it("a hook has one owner: a second claim fails naming both plugins", () => {
    const k = kernel();
    const owned = k.context("compaction").ownHooks("session_before_compact", "session_compact");
    expect(typeof owned.session_compact.promise).toBe("function");
    expect(() => k.context("other").ownHooks("session_compact")).toThrow(
      expect.objectContaining({ code: ErrorCode.DUPLICATE, message: 'Hook "session_compact" is owned by plugin "compaction"; plugin "other" cannot claim it too' }),
    );
    expect(() => k.context("x").ownHooks("boot")).toThrow('owned by plugin "kernel"');
  });

  it("the event map is closed: emitting an unknown event does not compile", () => {
    const k = kernel();
    const events: OutEvent[] = [];
    k.events.subscribe((e) => events.push(e));
    // @ts-expect-error "agent_strat" is not an event
    k.events.emit("agent_strat", {});
    // @ts-expect-error a known event with a wrong payload
    k.events.emit("queue_update", { steering: "x" });
    expect(events).toHaveLength(2);
  });

  it("an event emitted by a listener goes out after the event it reacts to, to every listener", () => {
    const k = kernel();
    const first: string[] = [];
    const second: string[] = [];
    k.events.subscribe((e) => {
      first.push(e.type);
      if (e.type === "agent_start") k.events.emit("agent_end", { messages: [] });
    });
    k.events.subscribe((e) => void second.push(e.type));
    k.events.emit("agent_start", {});
    expect(first).toEqual(["agent_start", "agent_end"]);
    expect(second).toEqual(["agent_start", "agent_end"]);
  });

  it("announce writes the event first, then runs taps with hook-only extras kept off the wire", async () => {
    const k = kernel();
    const order: string[] = [];
    k.events.subscribe((e) => void order.push(`event ${JSON.stringify(e)}`));
    k.hooks.turn_start.tap("p", (e) => void order.push(`tap ${e.turnIndex}`));
    await announce(k, "turn_start", {}, { turnIndex: 3 });
    expect(order).toEqual(['event {"type":"turn_start"}', "tap 3"]);
  });
});

describe("failure policy", () => {
  const guards = (Object.keys(HOOK_POLICY) as HookName[]).filter((name) => HOOK_POLICY[name] === "guard");

  it("every guard hook has a veto, by construction", () => {
    expect(Object.keys(GUARD_VETO).sort()).toEqual([...guards].sort());
  });

  it.each(guards)("a throwing %s tap blocks (fail closed) and is reported", async (name) => {
    const k = kernel();
    const errors: OutEvent[] = [];
    k.events.subscribe((e) => errors.push(e));
    const hook = k.hooks[name] as unknown as { tap(n: string, fn: () => never): void; promise(arg: unknown): Promise<unknown> };
    hook.tap("gate", () => {
      throw new Error("boom");
    });
    const verdict = await hook.promise({ command: "ls", cwd: "/", excludeFromContext: false, toolCallId: "1", toolName: "bash", input: {}, reason: "new", entryId: null, position: "at" });
    expect(verdict).toEqual((GUARD_VETO as Record<string, (m: string) => unknown>)[name]!("boom"));
    expect(errors).toEqual([{ type: "extension_error", extensionPath: "gate", event: name, error: "boom" }]);
  });

  it("plugin definitions are checked for a name and an apply function", () => {
    expect(() => definePlugin({ name: "", apply() {} })).toThrow("a plugin needs a name");
    expect(() => definePlugin({ name: "x" } as never)).toThrow('plugin "x" needs an apply(kernel) function');
  });
});
