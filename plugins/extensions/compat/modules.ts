/**
 * The modules an extension's imports of pi's packages resolve to: Atomic's own, under pi 1.x's
 * names (`@earendil-works/pi-coding-agent`, `-pi-ai`, `-pi-agent-core`, `-pi-tui`) and the
 * older `@mariozechner/*` ones alike, `typebox` / `@sinclair/typebox` (and TypeBox's own
 * validators as `typebox/value` and `typebox/compile`), and the same API as `atomic-agent/extensions`. Built once per process scope (an extension module is evaluated once
 * for every agent of it): what needs the running agent (the built-in tools, one-off LLM calls,
 * the file mutation queue) asks `current` for the agent whose extension code is running. The
 * loader hands them to jiti as virtual modules, so an installed pi is never loaded in their place.
 */
import { createRequire } from "node:module";
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
import { discoverAndLoadExtensionsWith, DefaultResourceLoader as BaseResourceLoader } from "./resource-loader.js";
import { SessionManager as BaseSessionManager } from "./session-manager.js";
import { readStoredCredentialFrom } from "./stores.js";
import { type ResolveCliModelOptions, resolveCliModelWith, resolveModelScopeWith } from "./model-lookup.js";
import { summaryFunctions } from "./summaries.js";
import { modelRuntimeClasses } from "./model-runtime.js";
import type { FactoryImporter } from "./extension-runtime.js";
import { packageManagerClass } from "./package-manager.js";
import { agentSessionFunctions } from "./agent-session-create.js";
import { agentSessionRuntimeFunctions } from "./agent-session-runtime.js";

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
  "typebox/value",
  "typebox/compile",
  "@sinclair/typebox/value",
  "@sinclair/typebox/compile",
] as const;

/** `importFactory`: how an extension's own DefaultResourceLoader imports the files it loads. */
export function createVirtualModules(current: (what: string) => ExtensionHost, agentDir: string, version: string, importFactory: FactoryImporter): VirtualModules {
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
  // Per scope (one agent dir): the agent dir and the loader these classes default to.
  const AgentSessionManager = class SessionManager extends BaseSessionManager {};
  AgentSessionManager.agentDir = agentDir;
  const AgentResourceLoader = class DefaultResourceLoader extends BaseResourceLoader {};
  AgentResourceLoader.importFactory = importFactory;
  const runtimeClasses = modelRuntimeClasses({ models, agent, env: (what) => current(what).k.config.env, agentDir });
  const sessions = agentSessionFunctions(
    // The SDK boots the built-in plugins (this one among them): imported when a session is first made.
    async () => (await import("../../../sdk/index.js")).createAgent,
    () => ({ cwd: current("createAgentSession()").k.config.cwd, agentDir }),
  );
  const boundCodingAgent = {
    getAgentDir: () => agentDir,
    SessionManager: AgentSessionManager,
    DefaultResourceLoader: AgentResourceLoader,
    discoverAndLoadExtensions: (configuredPaths: string[], cwd: string, dir = agentDir, eventBus?: Parameters<typeof discoverAndLoadExtensionsWith>[4]) =>
      discoverAndLoadExtensionsWith(importFactory, configuredPaths, cwd, dir, eventBus),
    VERSION: version,
    ...builtinToolFactories((what) => current(what).builtinTools),
    ...summaryFunctions(boundAi.completeSimple),
    resolveCliModel: (options: ResolveCliModelOptions) => resolveCliModelWith(models("resolveCliModel()"), options),
    resolveModelScopeWithDiagnostics: (patterns: string[]) => resolveModelScopeWith(models("resolveModelScopeWithDiagnostics()"), patterns),
    ...runtimeClasses,
    DefaultPackageManager: packageManagerClass((what) => {
      const packages = current(what).k.maybeService("packages");
      if (!packages) throw new Error(`${what}: this agent runs without the packages plugin, so it cannot install packages`);
      return packages;
    }),
    ...sessions,
    ...agentSessionRuntimeFunctions({
      createAgentSession: sessions.createAgentSession,
      createModelRuntime: () => runtimeClasses.ModelRuntime.create(),
      createSettingsManager: (cwd, dir) => piCodingAgent.SettingsManager.create(cwd, dir),
      agentDir,
    }),
    readStoredCredential: (providerId: string, authPath?: string) => readStoredCredentialFrom(agentDir, providerId, authPath),
    withFileMutationQueue: <T>(path: string, fn: () => Promise<T>) => {
      const host = current("withFileMutationQueue()");
      return queueFileMutation(host.fileQueues, resolve(host.k.config.cwd, path), fn);
    },
  } satisfies Partial<typeof piCodingAgent>;
  // An extension's own Agent streams through the running agent's providers unless given a streamFn.
  const ScopeAgent = class Agent extends piAgentCore.Agent {};
  ScopeAgent.defaultStreamFn = boundAi.streamSimple;
  // A copy: an extension that patches a builder reaches neither Atomic's own schemas nor another scope.
  const typeboxModule = { ...typebox, Type: { ...typebox.Type } };
  const codingAgent = { ...piCodingAgent, ...boundCodingAgent };
  // pi-ai's `compat` entry is its root plus the provider-construction helpers: the same module here.
  const ai = { ...piAi, ...boundAi, Type: typeboxModule.Type };
  const packages: Record<PiPackage, Record<string, unknown>> = {
    "pi-coding-agent": codingAgent,
    "pi-ai": ai,
    "pi-ai/compat": ai,
    "pi-agent-core": { ...piAgentCore, Agent: ScopeAgent },
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

/** TypeBox's validator entries pi serves from its own copy (`Value.Check`, `Compile`, ...), by module name. */
const TYPEBOX_VALIDATORS = { value: "typebox/value", compile: "typebox/compile" } as const;

/**
 * Adds `typebox/value` and `typebox/compile` (and the `@sinclair/typebox` names), TypeBox's own
 * validators, which check plain JSON Schema (what Atomic's `Type` builds) as well as TypeBox's.
 * Each is evaluated by `load` (a file path, synchronously) when an extension first asks for it.
 */
export function addTypeboxValidators(modules: VirtualModules, load: (file: string) => Record<string, unknown>): void {
  const require = createRequire(import.meta.url);
  for (const [subpath, specifier] of Object.entries(TYPEBOX_VALIDATORS)) {
    let loaded: Record<string, unknown> | undefined;
    const get = () => (loaded ??= load(require.resolve(specifier)));
    for (const name of [`typebox/${subpath}`, `@sinclair/typebox/${subpath}`]) Object.defineProperty(modules, name, { get, enumerable: true });
  }
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
