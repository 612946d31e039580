/**
 * Runs a real host (every built-in plugin, the offline replay provider on a scripted cassette)
 * through startup, a prompt with a tool call, and a manual compaction, recording every hook
 * call in firing order. The lifecycle doc is rendered from what this sees, so it cannot drift
 * from the code: hooks are observed with tapable interceptors, never listed by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HookMap } from "tapable";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost } from "../../host/index.js";
import { definePlugin, silentLogger, type HookInfo, type PluginContext } from "../../kernel/index.js";
import { REPO_ROOT } from "../fake-llm/harness.js";
import { tempDir, textTurn, toolTurn, writeCassette } from "../helpers/rpc-client.js";

export interface HookTrace {
  /** The hooks called during each scenario, in order (a key of a hook map as `name[key]`). */
  scenarios: { title: string; calls: string[] }[];
  hooks: (HookInfo & { taps: string[] })[];
}

type Interceptable = { intercept(interceptor: object): void; taps?: { name: string }[] };
const TRACER = "lifecycle-tracer";

/**
 * A plugin that adds a `call` interceptor to every declared hook (and each key of a hook map),
 * and a tap that changes nothing: an owner skips a hook nobody taps, and the doc shows where
 * each hook fires once something taps it.
 */
function tracer(calls: string[]) {
  return definePlugin({
    name: TRACER,
    apply(k: PluginContext) {
      for (const name of Object.keys(k.hooks)) {
        const view = (k.hooks as unknown as Record<string, Interceptable & { for?: unknown }>)[name]!;
        if (typeof view.for === "function") {
          view.intercept({ factory: (key: string, hook: Interceptable) => (hook.intercept({ call: () => calls.push(`${name}[${key}]`) }), hook) });
        } else {
          view.intercept({ call: () => calls.push(name) });
          tapNothing(view as unknown as TapView);
        }
      }
    },
  });
}

type TapView = Record<"tap" | "tapPromise", (options: object, fn: () => undefined | Promise<undefined>) => void>;

function tapNothing(view: TapView): void {
  const spec = { name: TRACER, order: "post" };
  try {
    view.tapPromise(spec, async () => undefined);
  } catch {
    view.tap(spec, () => undefined); // a synchronous hook
  }
}

/** Keys of a hook map created before the tracer's factory interceptor: traced here instead. */
function traceExistingKeys(name: string, map: HookMap<Interceptable>, calls: string[]): void {
  for (const [key, hook] of (map as unknown as { _map: Map<string, Interceptable> })._map) {
    hook.intercept({ call: () => calls.push(`${name}[${key}]`) });
  }
}

function tapsOf(hook: unknown): string[] {
  if (hook instanceof HookMap) {
    const entries = [...(hook as unknown as { _map: Map<string, Interceptable> })._map];
    return entries.flatMap(([key, h]) => (h.taps ?? []).map((tap) => `${tap.name} [${key}]`));
  }
  return ((hook as Interceptable).taps ?? []).map((tap) => tap.name);
}

export async function traceLifecycle(): Promise<HookTrace> {
  const agentDir = await tempDir("atomic-lifecycle-");
  const cwd = await tempDir("atomic-lifecycle-cwd-");
  mkdirSync(cwd, { recursive: true });
  // Long enough that the conversation has a region worth compacting.
  writeFileSync(join(cwd, "notes.txt"), Array.from({ length: 40 }, (_, i) => `note ${i + 1}: keep the build green`).join("\n") + "\n");
  writeCassette(agentDir, "script", [toolTurn("call_1", "read", { path: "notes.txt" }, "Reading."), textTurn("The notes say to keep the build green.")]);
  // The compaction planner's answer (its own model: a call outside a run replays turn 1).
  writeCassette(agentDir, "planner", [textTurn("3,5", 1)]);
  const calls: string[] = [];
  const host = await createHost({
    cwd,
    agentDir,
    env: {},
    plugins: [tracer(calls), ...BUILTIN_PLUGINS],
    cli: { provider: "replay", model: "script" },
    log: silentLogger,
    installDir: REPO_ROOT,
  });
  const { kernel } = host;
  for (const { name } of kernel.hookRegistry.list()) {
    const hook = kernel.hookRegistry.callable(name as never) as unknown;
    if (hook instanceof HookMap) traceExistingKeys(name, hook as HookMap<Interceptable>, []);
  }
  const scenarios: HookTrace["scenarios"] = [{ title: "Startup", calls: calls.splice(0) }];

  const ended = new Promise<void>((resolve) => host.subscribe((event) => event.type === "agent_end" && resolve()));
  await expectSuccess(host.send({ type: "prompt", message: "What do my notes say?" }));
  await ended;
  await settled(host);
  scenarios.push({ title: "A prompt with a tool call", calls: calls.splice(0) });

  await expectSuccess(host.send({ type: "set_model", provider: "replay", modelId: "planner" }));
  calls.splice(0);
  await expectSuccess(host.send({ type: "compact", preserve_recent: 1 }));
  scenarios.push({ title: "Manual compaction", calls: calls.splice(0) });

  await host.shutdown("eof");
  scenarios.push({ title: "Shutdown", calls: calls.splice(0) });

  const hooks = kernel.hookRegistry.list().map((info) => ({ ...info, taps: tapsOf(kernel.hookRegistry.callable(info.name as never)).filter((tap) => tap !== TRACER) }));
  return { scenarios, hooks };
}

/** Waits until the run is over, past agent_end (its run_end taps included). */
async function settled(host: { send(record: unknown): Promise<unknown> }): Promise<void> {
  for (;;) {
    const state = (await host.send({ type: "get_state" })) as { data?: { isStreaming?: boolean } };
    if (state.data?.isStreaming === false) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function expectSuccess(response: Promise<unknown>): Promise<void> {
  const answer = (await response) as { success?: boolean; error?: string } | undefined;
  if (!answer?.success) throw new Error(`lifecycle trace: command failed: ${JSON.stringify(answer)}`);
}
