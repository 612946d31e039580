/**
 * The modules an extension's imports of pi's packages resolve to: Atomic's own (`typebox`,
 * `@sinclair/typebox`, `@mariozechner/pi-ai`, `@mariozechner/pi-coding-agent`,
 * `@mariozechner/pi-agent-core`, and the same API as `atomic-agent/extensions`), built once per agent with the values that need the running
 * agent bound in (the agent dir, the built-in tools, one-off LLM calls). The loader hands them to
 * jiti as virtual modules, so an installed pi is never loaded in their place.
 */
import { resolve } from "node:path";
import type { Model } from "../../../lib/llm/index.js";
import type { ExtensionHost } from "../host.js";
import { completeWith, streamWith } from "../views.js";
import { builtinToolFactories } from "./builtin-tools.js";
import * as piAgentCore from "./pi-agent-core.js";
import * as piAi from "./pi-ai.js";
import * as piCodingAgent from "./pi-coding-agent.js";
import * as typebox from "./typebox.js";
import { EARENDIL_NAMES, withEarendilNames } from "./earendil-names.js";

/** Module names extensions import, mapped to the objects they get. */
export type VirtualModules = Record<string, Record<string, unknown>>;

export const MODULE_NAMES = ["typebox", "@sinclair/typebox", "@mariozechner/pi-ai", "@mariozechner/pi-coding-agent", "@mariozechner/pi-agent-core", "atomic-agent/extensions", ...(Object.keys(EARENDIL_NAMES) as (keyof typeof EARENDIL_NAMES)[])] as const;

export function createVirtualModules(host: ExtensionHost, version: string): VirtualModules {
  const models = () => host.models;
  const agent = () => host.agent;
  const boundAi = {
    complete: (model: Model, context: piAi.Context, options?: piAi.StreamOptions) => completeWith(agent(), model, context, options),
    completeSimple: (model: Model, context: piAi.Context, options?: piAi.SimpleStreamOptions) => completeWith(agent(), model, context, options),
    stream: (model: Model, context: piAi.Context, options?: piAi.StreamOptions) => streamWith(agent(), model, context, options),
    streamSimple: (model: Model, context: piAi.Context, options?: piAi.SimpleStreamOptions) => streamWith(agent(), model, context, options),
    getModel: (provider: string, modelId: string) => models().find(provider, modelId),
    getModels: (provider: string) => models().modelsOf(provider),
    getProviders: () => models().providers(),
  } satisfies Partial<typeof piAi>;
  const boundCodingAgent = {
    getAgentDir: () => host.k.config.agentDir,
    VERSION: version,
    ...builtinToolFactories(host.builtinTools),
    withFileMutationQueue: <T>(path: string, fn: () => Promise<T>) => queueFileMutation(host.fileQueues, resolve(host.k.config.cwd, path), fn),
  } satisfies Partial<typeof piCodingAgent>;
  const typeboxModule = { ...typebox };
  const codingAgent = { ...piCodingAgent, ...boundCodingAgent };
  return withEarendilNames({
    typebox: typeboxModule,
    "@sinclair/typebox": typeboxModule,
    "@mariozechner/pi-ai": { ...piAi, ...boundAi },
    "@mariozechner/pi-coding-agent": codingAgent,
    "@mariozechner/pi-agent-core": { ...piAgentCore },
    "atomic-agent/extensions": { ...codingAgent, Type: typebox.Type, StringEnum: piAi.StringEnum },
  });
}

/** Runs `fn` after every mutation queued before it for the same file; a failure does not stop the next one. */
function queueFileMutation<T>(queues: Map<string, Promise<unknown>>, path: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}
