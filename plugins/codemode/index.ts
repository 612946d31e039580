/**
 * Plugin `codemode` (pi 1.6's tool of that name): the model writes a JavaScript body that calls
 * the other tools from a QuickJS sandbox (WebAssembly, in a worker thread), and only what the
 * script outputs reaches the model. Registered inactive: `--tools +codemode`, the `tools` or
 * `defaultTools` setting, an extension's setActiveTools, or an MCP server with `codemode`
 * exposure turn it on. The sandbox, its worker and the QuickJS wasm load on the first script.
 * docs/codemode.md.
 */
import { z } from "zod";
import { definePlugin, defineSetting, type ToolDefinition } from "../../kernel/index.js";
import type {} from "../agent/api.js";
import type {} from "../models/api.js";
import type {} from "../session/api.js";
import type { ScriptReadiness } from "./api.js";
import { catalogTool, CODEMODE_TOOL, scriptTools } from "./catalog.js";
import { codemodeDescription, DEFAULT_INLINE_BUDGET, listedTools, presentTools, withoutListedTools, type CodemodeMode } from "./description.js";
import { STORE_ENTRY_TYPE } from "./store.js";

const codemodeSetting = defineSetting(
  () =>
    z.object({
      mode: z.enum(["on", "only"]).optional(),
      inlineBudget: z.number().nonnegative().optional(),
    }),
  {
    description: `How codemode presents the other tools while it is offered (mode: "on", the default, keeps them declared; "only" hides the callable ones so the model reaches them through scripts) and how many estimated tokens its description spends listing tools (inlineBudget, ${DEFAULT_INLINE_BUDGET}).`,
  },
);

declare module "../../kernel/config.js" {
  interface Settings {
    codemode?: z.output<ReturnType<(typeof codemodeSetting)["schema"]>>;
  }
}

const parameters = () => z.object({ code: z.string().describe("Raw JavaScript source.") });

export default definePlugin({
  name: "codemode",
  description: "The codemode tool: scripts that call the other tools from a QuickJS sandbox; only their output reaches the model.",
  requires: ["agent"],
  provides: ["codemode"],
  settings: { codemode: codemodeSetting },
  apply(k) {
    let executor: typeof import("./execute.js") | undefined;
    const mode: CodemodeMode = k.config.settings.codemode?.mode ?? "on";
    const budget = k.config.settings.codemode?.inlineBudget ?? DEFAULT_INLINE_BUDGET;
    /** Plugins that want codemode offered by default (MCP servers with `codemode` exposure). */
    const wanted = new Set<string>();
    const readiness = new Map<string, ScriptReadiness>();
    const tool: ToolDefinition = {
      name: CODEMODE_TOOL,
      // Read when the registry rebuilds what the model is offered, which it does whenever a tool
      // is registered or the active set changes: the only events that change this listing.
      get description() {
        return codemodeDescription(listedTools(scriptTools(k.tools), mode), budget);
      },
      parameters,
      // Read by the tool selection whenever it is asked: offered by default only while wanted.
      get defaultActive() {
        return wanted.size > 0;
      },
      // Scripts never start scripts.
      exposure: "model-only",
      promptGuidelines: ["Use codemode to batch independent tool calls (Promise.allSettled), chain them, or filter large output, instead of many separate calls."],
      async execute(args, ctx) {
        executor ??= await import("./execute.js");
        const models = k.maybeService("models");
        return executor.executeCodemode(args as { code: string }, ctx, {
          tools: k.tools,
          ready: (reach, signal) => Promise.all([...readiness.values()].map((wait) => wait(reach, signal))).then(() => undefined),
          branch: () => k.maybeService("session")?.branch(),
          appendStore: (data) => k.maybeService("session")?.append({ type: "custom", customType: STORE_ENTRY_TYPE, data }),
          ...(models ? { models: { api: models, env: k.config.env } } : {}),
        });
      },
    };
    k.registerTool(tool);
    k.provide("codemode", {
      want(source, on) {
        if (on) wanted.add(source);
        else wanted.delete(source);
      },
      beforeScript(source, wait) {
        if (wait) readiness.set(source, wait);
        else readiness.delete(source);
      },
    });

    const callableEntries = (specs: readonly { name: string }[]) =>
      new Map(specs.filter((spec) => spec.name !== CODEMODE_TOOL && k.tools.isCallable(spec.name)).map((spec) => [spec.name, catalogTool(k.tools.get(spec.name)!)]));
    let warming = false;
    k.hooks.context_with_system.tap(k.name, (request) => {
      if (!request.tools.some((spec) => spec.name === CODEMODE_TOOL)) return request;
      // The model may write a script: the sandbox gets ready while it answers (never at startup).
      if (!warming) {
        warming = true;
        void import("./execute.js").then((loaded) => {
          executor ??= loaded;
          loaded.prewarmSandbox();
        });
      }
      const tools = presentTools(request.tools, callableEntries(request.tools), mode);
      if (mode === "on") return { ...request, tools };
      // `only`: the system prompt names the tools the request declares (pi's hidden declarations).
      const hidden = request.tools.filter((spec) => !tools.includes(spec)).map((spec) => spec.name);
      return { ...request, tools, systemPrompt: withoutListedTools(request.systemPrompt, hidden) };
    });
    // Only a process that ran a script has a sandbox to stop.
    k.hooks.shutdown.tapPromise(k.name, async () => executor?.closeSandbox());
  },
});
