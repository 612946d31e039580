/**
 * The modules an extension's imports of pi's packages resolve to: Atomic's own, under pi 1.x's
 * names (`@earendil-works/pi-coding-agent`, `-pi-ai`, `-pi-agent-core`, `-pi-tui`) and the
 * older `@mariozechner/*` ones alike, `typebox` / `@sinclair/typebox`, and the same API as
 * `atomic-agent/extensions`. Built once per process scope (an extension module is evaluated once
 * for every agent of it): what needs the running agent (the built-in tools, one-off LLM calls,
 * the file mutation queue) asks `current` for the agent whose extension code is running. The
 * loader hands them to jiti as virtual modules, so an installed pi is never loaded in their place.
 */
import { resolve } from "node:path";
import type { Model } from "../../../lib/llm/index.js";
import type { ExtensionHost } from "../host.js";
import { completeWith, streamWith } from "../views.js";
import { builtinToolFactories } from "./builtin-tools.js";
import * as piAgentCore from "./pi-agent-core.js";
import * as piAi from "./pi-ai.js";
import * as piCodingAgent from "./pi-coding-agent.js";
import * as piTui from "./pi-tui.js";
import * as typebox from "./typebox.js";

/** Module names extensions import, mapped to the objects they get. */
export type VirtualModules = Record<string, Record<string, unknown>>;

/** pi's package scopes: 1.x publishes under `@earendil-works`, earlier versions under `@mariozechner`. */
const SCOPES = ["@earendil-works", "@mariozechner"] as const;
const PI_PACKAGES = ["pi-coding-agent", "pi-ai", "pi-ai/compat", "pi-agent-core", "pi-tui"] as const;
type PiPackage = (typeof PI_PACKAGES)[number];

export const MODULE_NAMES = [
  "typebox",
  "@sinclair/typebox",
  ...SCOPES.flatMap((scope) => PI_PACKAGES.map((name) => `${scope}/${name}` as const)),
  "atomic-agent/extensions",
] as const;

export function createVirtualModules(current: (what: string) => ExtensionHost, agentDir: string, version: string): VirtualModules {
  const models = (what: string) => current(what).models;
  const agent = (what: string) => current(what).agent;
  const boundAi = {
    complete: (model: Model, context: piAi.Context, options?: piAi.StreamOptions) => completeWith(agent("complete()"), model, context, options),
    completeSimple: (model: Model, context: piAi.Context, options?: piAi.SimpleStreamOptions) => completeWith(agent("completeSimple()"), model, context, options),
    stream: (model: Model, context: piAi.Context, options?: piAi.StreamOptions) => streamWith(agent("stream()"), model, context, options),
    streamSimple: (model: Model, context: piAi.Context, options?: piAi.SimpleStreamOptions) => streamWith(agent("streamSimple()"), model, context, options),
    getModel: (provider: string, modelId: string) => models("getModel()").find(provider, modelId),
    getModels: (provider: string) => models("getModels()").modelsOf(provider),
    getProviders: () => models("getProviders()").providers(),
  } satisfies Partial<typeof piAi>;
  const boundCodingAgent = {
    getAgentDir: () => agentDir,
    VERSION: version,
    ...builtinToolFactories((what) => current(what).builtinTools),
    withFileMutationQueue: <T>(path: string, fn: () => Promise<T>) => {
      const host = current("withFileMutationQueue()");
      return queueFileMutation(host.fileQueues, resolve(host.k.config.cwd, path), fn);
    },
  } satisfies Partial<typeof piCodingAgent>;
  // A copy: an extension that patches a builder reaches neither Atomic's own schemas nor another scope.
  const typeboxModule = { ...typebox, Type: { ...typebox.Type } };
  const codingAgent = { ...piCodingAgent, ...boundCodingAgent };
  // pi-ai's `compat` entry is its root plus the provider-construction helpers: the same module here.
  const ai = { ...piAi, ...boundAi, Type: typeboxModule.Type };
  const packages: Record<PiPackage, Record<string, unknown>> = {
    "pi-coding-agent": codingAgent,
    "pi-ai": ai,
    "pi-ai/compat": ai,
    "pi-agent-core": { ...piAgentCore },
    "pi-tui": { ...piTui },
  };
  const modules: VirtualModules = {
    typebox: typeboxModule,
    "@sinclair/typebox": typeboxModule,
    "atomic-agent/extensions": { ...codingAgent, Type: typeboxModule.Type, StringEnum: piAi.StringEnum },
  };
  for (const scope of SCOPES) for (const name of PI_PACKAGES) modules[`${scope}/${name}`] = packages[name];
  return modules;
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
