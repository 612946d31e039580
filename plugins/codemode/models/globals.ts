/**
 * The `models` global's host side (pi 1.6's docs/codemode.md, "Models"): listing over the catalog,
 * and `classify()` / `generateImages()` run by `provider` and `id` only (a script's own `baseUrl`
 * never receives the credentials) with the data options a script may give (options.ts), at most
 * four at once per script, each shown as a
 * nested call row, their usage summed for the codemode result. Chat models are listed but cannot
 * be run from scripts.
 */
import type { TypedModel } from "../../../lib/model-catalog/typed.js";
import { classify, generateImages } from "../../../lib/typed-models/calls.js";
import type { ModelCatalogView } from "../../../lib/typed-models/catalog-view.js";
import type { ModelType, ModelUsage } from "../../../lib/typed-models/types.js";
import { checkClassifierContext, checkImagesContext, describeValue, toModelType, toProvider, withArticle } from "./checks.js";
import { checkCallOptions, type ScriptCallOptions } from "./options.js";

/** `models.classify()` and `models.generateImages()` calls one script runs at once; more wait in call order. */
export const MAX_MODEL_CALLS = 4;
export const MODEL_GLOBALS = ["models.getModelsOfType", "models.getAvailableOfType", "models.getModelOfType", "models.classify", "models.generateImages"] as const;

/** One row of the script's call list, tool calls and `models.*` calls alike. */
export interface ModelCallRow {
  id: string;
  name: string;
  args: string;
  status: "running" | "ok" | "error" | "cancelled";
  durationMs?: number;
  error?: string;
  /** A `models.*` call's cost in USD, when the service reported usage. */
  cost?: number;
}

export interface ModelGlobalsHost {
  view: ModelCatalogView;
  toolCallId: string;
  /** A call row to show (and update as it settles). */
  addRow(row: ModelCallRow): void;
  changed(): void;
  addUsage(usage: ModelUsage): void;
  addGeneratedImages(count: number): void;
}

export type ModelGlobals = (name: string, args: unknown[], signal: AbortSignal) => Promise<unknown>;

export function createModelGlobals(host: ModelGlobalsHost): ModelGlobals {
  const limit = limiter(MAX_MODEL_CALLS);
  let calls = 0;
  const { view } = host;

  const run = async <C, R extends { stopReason: string; errorMessage?: string; usage?: ModelUsage }>(
    name: "models.classify" | "models.generateImages",
    type: Exclude<ModelType, "chat">,
    [model, context, options]: unknown[],
    check: (context: unknown) => C,
    call: (resolved: TypedModel, context: C, options: ScriptCallOptions) => Promise<R>,
  ): Promise<R> => {
    const listHint = `List the ${type} models you can use with models.getAvailableOfType("${type}").`;
    const given = model as { provider?: unknown; id?: unknown } | null | undefined;
    if (typeof given?.provider !== "string" || typeof given.id !== "string") {
      // undefined crosses as null: spread arguments cross the sandbox as a JSON array.
      const undefinedHint = model === undefined || model === null ? " models.getModelOfType() returns undefined for an unknown provider or id." : "";
      throw new Error(`${name}() expects ${withArticle(type)} model as its first argument, got ${describeValue(model)}.${undefinedHint} ${listHint}`);
    }
    const ref = `${given.provider}/${given.id}`;
    const resolved = view.typed(type, given.provider, given.id);
    if (!resolved) {
      const actual = view.otherType(type, given.provider, given.id);
      if (actual === "chat") throw new Error(`"${ref}" is a chat model, not ${withArticle(type)} model: chat models cannot be run from scripts. ${listHint}`);
      throw new Error(actual ? `"${ref}" is ${withArticle(actual)} model, not ${withArticle(type)} model. ${listHint}` : `Unknown ${type} model "${ref}". ${listHint}`);
    }
    const checked = check(context);
    const checkedOptions = checkCallOptions(name === "models.classify" ? "classify" : "generateImages", options);
    const row: ModelCallRow = { id: `${host.toolCallId}/${name}/${++calls}`, name, args: `${resolved.provider}/${resolved.id}`, status: "running" };
    host.addRow(row);
    host.changed();
    const started = performance.now();
    const result = await limit(() => call(resolved, checked, checkedOptions));
    row.durationMs = performance.now() - started;
    row.status = result.stopReason === "stop" ? "ok" : result.stopReason === "aborted" ? "cancelled" : "error";
    if (result.errorMessage) row.error = result.errorMessage.length > 500 ? `${result.errorMessage.slice(0, 497)}...` : result.errorMessage;
    if (result.usage) {
      row.cost = result.usage.cost.total;
      host.addUsage(result.usage);
    }
    host.changed();
    return result;
  };

  return async (name, args, signal) => {
    switch (name) {
      case "models.getModelsOfType":
        return view.list(toModelType(args[0]), toProvider(args[1]));
      case "models.getAvailableOfType":
        return view.available(toModelType(args[0]), toProvider(args[1]));
      case "models.getModelOfType": {
        const [type, provider, id] = args;
        if (typeof provider !== "string" || typeof id !== "string") {
          throw new Error(
            `models.getModelOfType(type, provider, id) expects three strings, got (${args.map(describeValue).join(", ")}). The provider and the id are separate arguments, for example models.getModelOfType("classifier", "typesafe", "jev-latest").`,
          );
        }
        return view.find(toModelType(type), provider, id);
      }
      case "models.classify":
        return run("models.classify", "classifier", args, checkClassifierContext, (model, context, options) =>
          classify(model, context, () => view.credentials(model, signal), { ...options, signal }),
        );
      case "models.generateImages":
        return run("models.generateImages", "image", args, checkImagesContext, async (model, context, options) => {
          const result = await generateImages(model, context, () => view.credentials(model, signal), { ...options, signal });
          host.addGeneratedImages(result.output.filter((block) => block.type === "image").length);
          return result;
        });
      default:
        throw new Error(`${name} is not a codemode global`);
    }
  };
}

/** Runs at most `max` calls at once, the rest in call order. */
export function limiter(max: number): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
