/**
 * One `codemode` call: parse the options line, run the script in the sandbox with the tools it
 * may call (each call through `ctx.executeTool`, so validation, the tool_call/tool_result hooks,
 * permission checks and tool_execution_* events are those of the model's own calls), then lay
 * out the result. Loaded on the first script (index.ts imports it lazily), with the sandbox.
 */
import type { ToolExecutionContext, ToolRegistryView, ToolResult, ToolUsage } from "../../kernel/index.js";
import { scriptTools, type CatalogTool } from "./catalog.js";
import { toIdentifier } from "./declarations.js";
import { callDiscovery, DISCOVERY_GLOBALS } from "./discovery.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, errorText, header, joinTexts, layoutOutput, limitOutput, removeSavedFiles, saveImages, valueText } from "./format.js";
import { WorkerPool } from "./sandbox/pool.js";
import { runScript, type SandboxCall } from "./sandbox/run.js";
import { parseSource } from "./source.js";
import { readStore } from "./store.js";
import type { ModelsApi } from "../models/api.js";
import { ModelCatalogView } from "../../lib/typed-models/catalog-view.js";
import { createModelGlobals, MODEL_GLOBALS, type ModelCallRow } from "./models/globals.js";
import type { ModelUsage } from "../../lib/typed-models/types.js";
import { addUsage } from "./models/usage-sum.js";

/** Nested calls of one script running at once; more wait in call order. */
export const MAX_CALLS_IN_FLIGHT = 8;
/** Tool and helper calls one script may make in all: past it the script fails (a call storm). */
export const MAX_CALLS = 10_000;
/** How long a script waits for a free worker when its own deadline is not shorter. */
const WORKER_WAIT_MS = 60_000;
const ARGS_PREVIEW_CHARS = 200;
const ERROR_PREVIEW_CHARS = 500;

export interface CodemodeDeps {
  tools: ToolRegistryView;
  /** Waits (bounded) for what the script may call that is still on its way (MCP servers connecting). */
  ready(reach: "all" | readonly string[], signal: AbortSignal): Promise<void>;
  /** The current branch's entries, for `load()`; undefined without a session. */
  branch(): readonly { type: string; customType?: string; data?: unknown }[] | undefined;
  /** Keeps a successful script's store writes in the session. */
  appendStore(data: { set: Record<string, unknown>; delete: string[] }): void;
  /** The model registry and environment behind the \`models\` global; without it scripts have none. */
  models?: { api: ModelsApi; env: Readonly<Record<string, string | undefined>> };
}

type CallRecord = ModelCallRow;

let pool: WorkerPool | undefined;
/** One catalog view per registry: the typed catalog is read once per process. */
const views = new WeakMap<ModelsApi, ModelCatalogView>();

/** Compiles QuickJS and starts a worker in the background, so the first script does not wait for them. */
export function prewarmSandbox(): void {
  pool ??= new WorkerPool();
  pool.prewarm().catch(() => undefined);
}

/** Stops every sandbox worker of the process and removes the files scripts' results named (shutdown). */
export async function closeSandbox(): Promise<void> {
  const current = pool;
  pool = undefined;
  await Promise.all([current?.close(), removeSavedFiles()]);
}

export async function executeCodemode(input: { code: string }, ctx: ToolExecutionContext, deps: CodemodeDeps): Promise<ToolResult> {
  const startedAt = performance.now();
  const { code, options } = parseSource(input.code);
  const calls: CallRecord[] = [];
  const snapshot = () => ({ calls: calls.map((call) => ({ ...call })) });
  const publish = () => ctx.onUpdate({ content: [], details: snapshot() });
  publish();

  // A script naming an MCP server still connecting waits for it as a prompt does, not failing on a missing tool.
  await deps.ready(scriptReach(code), ctx.signal);
  const tools = scriptTools(deps.tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let usage: ModelUsage | undefined;
  let generatedImages = 0;
  const modelGlobals = deps.models
    ? createModelGlobals({
        view: viewOf(deps.models.api, deps.models.env),
        toolCallId: ctx.toolCallId,
        addRow: (row) => calls.push(row),
        changed: publish,
        addUsage: (more) => (usage = addUsage(usage, more)),
        addGeneratedImages: (count) => (generatedImages += count),
      })
    : undefined;
  const onCall = async (call: SandboxCall): Promise<unknown> => {
    const args = Array.isArray(call.args) ? call.args : [];
    if (call.target === "global" && modelGlobals && call.name.startsWith("models.")) return modelGlobals(call.name, args, call.signal);
    if (call.target === "global") return callDiscovery(tools, call.name, args);
    const tool = byName.get(call.name);
    if (!tool || !ctx.executeTool) throw new Error(`Tool ${call.name} is not available to scripts here`);
    const record: CallRecord = { id: `${ctx.toolCallId}/?`, name: call.name, args: preview(call.args), status: "running" };
    calls.push(record);
    publish();
    const started = performance.now();
    const outcome = await ctx.executeTool(call.name, call.args ?? {}, { signal: call.signal });
    record.id = outcome.toolCallId;
    record.durationMs = performance.now() - started;
    record.status = outcome.isError ? (call.signal.aborted ? "cancelled" : "error") : "ok";
    if (outcome.isError) record.error = clip(textOf(outcome.result) || `Tool "${call.name}" failed`, ERROR_PREVIEW_CHARS);
    publish();
    return scriptValue(tool, outcome.result, outcome.isError);
  };

  pool ??= new WorkerPool();
  const outcome = await runScript(pool, {
    code,
    tools: tools.map((tool) => ({ name: tool.name, jsName: toIdentifier(tool.name), description: tool.sample })),
    globals: [...DISCOVERY_GLOBALS, ...(modelGlobals ? MODEL_GLOBALS : [])],
    store: readStore(deps.branch() ?? []),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    signal: ctx.signal,
    workerWaitMs: WORKER_WAIT_MS,
    maxInFlight: MAX_CALLS_IN_FLIGHT,
    maxCalls: MAX_CALLS,
    onCall,
  });
  for (const call of calls) if (call.status === "running") call.status = "cancelled";

  if (!outcome.started) {
    const error = outcome.ok ? "" : outcome.error.kind === "sandbox" ? outcome.error.message : errorText(outcome.error, []).split("\n\n")[0];
    return {
      content: [header(false, performance.now() - startedAt), { type: "text", text: `Script error:\n${error}\n\nThe script did not start.` }],
      details: snapshot(),
      isError: true,
    };
  }
  const output = [...outcome.output];
  if (outcome.ok) {
    const { set, delete: deleted } = outcome.writes;
    if (Object.keys(set).length > 0 || deleted.length > 0) deps.appendStore({ set, delete: deleted });
    if (outcome.value !== undefined) output.push({ type: "text", text: valueText(outcome.value) });
  }
  const items = layoutOutput(output);
  if (!outcome.ok) items.push({ type: "text", text: `Script error:\n${errorText(outcome.error, calls)}` });
  if (generatedImages > 0 && !items.some((item) => item.type === "image")) {
    const s = generatedImages === 1 ? "" : "s";
    items.push({
      type: "text",
      text: `Note: models.generateImages() returned ${generatedImages} image${s} that the script did not show. Show each image block of result.output with image(block).`,
    });
  }
  const limited = await limitOutput(joinTexts(items), options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS);
  const content = joinTexts(await saveImages(limited.items));
  const details = { ...snapshot(), ...(limited.fullOutputPath ? { fullOutputPath: limited.fullOutputPath } : {}) };
  // The script's classifier and image usage, on the result as pi puts it: the session counts it.
  return {
    content: [header(outcome.ok, performance.now() - startedAt), ...content],
    details,
    ...(usage ? { usage: resultUsage(usage) } : {}),
    ...(outcome.ok ? {} : { isError: true }),
  };
}

/** The usage as the message vocabulary has it (pi's \`totalFromProvider\` is for scripts only). */
function resultUsage(usage: ModelUsage): ToolUsage {
  const { totalFromProvider: _, ...cost } = usage.cost;
  return { ...usage, cost };
}

function viewOf(api: ModelsApi, env: Readonly<Record<string, string | undefined>>): ModelCatalogView {
  let view = views.get(api);
  if (!view) views.set(api, (view = new ModelCatalogView(api, env)));
  return view;
}

/**
 * What a script's call resolves to: a tool with an output schema gives its structured result
 * (also on error, when it has one); an image result gives the image block with its text as
 * `note`; any other tool its text. Other failures reject with the tool's error text.
 */
function scriptValue(tool: CatalogTool, result: ToolResult, isError: boolean): unknown {
  if (tool.outputSchema && result.structuredContent !== undefined) return result.structuredContent;
  const text = textOf(result);
  if (isError) throw new Error(text || `Tool "${tool.name}" failed`);
  const image = result.content.find((block) => block.type === "image");
  if (image) return { type: "image", data: image.data, mimeType: image.mimeType, note: text };
  return text;
}

function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function preview(args: unknown): string {
  if (args === undefined) return "";
  try {
    return clip(JSON.stringify(args) ?? "", ARGS_PREVIEW_CHARS);
  } catch {
    return "";
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

const DISCOVERY = /\b(searchTools|describeNamespace|describeTool|ALL_TOOLS)\b/;

/** Which tools a script may call: all of them once it uses a discovery global, else the words of its source. */
export function scriptReach(code: string): "all" | string[] {
  return DISCOVERY.test(code) ? "all" : (code.match(/[\w$]+/g) ?? []);
}
