/**
 * pi's extension loading as its SDK exposes it (`createExtensionRuntime`, `discoverAndLoadExtensions`,
 * the extensions of a `DefaultResourceLoader`): each extension's factory runs with a `pi` that
 * records what it registers (handlers, tools, commands, flags, shortcuts, renderers, providers)
 * into pi's `Extension` shape. Nothing is bound to an agent: as in pi before a runner binds, the
 * actions throw "Extension runtime not initialized", and providers wait in the runtime's queues.
 * An extension reads what another package registers this way; the agent's own extensions are
 * loaded by the plugin (load.ts), not here.
 */
import type { ExtensionFactory } from "../types/api.js";
import { createEventBus, createSyntheticSourceInfo, type EventBus, type SourceInfo } from "./text.js";

const NOT_INITIALIZED = "Extension runtime not initialized. Action methods cannot be called during extension loading.";
const notInitialized = () => {
  throw new Error(NOT_INITIALIZED);
};

export interface ExtensionRuntime {
  flagValues: Map<string, boolean | string>;
  pendingProviderRegistrations: { name: string; config: unknown; extensionPath: string }[];
  pendingNativeProviderRegistrations: { provider: unknown; extensionPath: string }[];
  pendingVirtualModelRegistrations: { definition: unknown; extensionPath: string }[];
  invalidate(message?: string): void;
  assertActive(): void;
  [action: string]: unknown;
}

export interface Extension {
  path: string;
  resolvedPath: string;
  sourceInfo: SourceInfo;
  handlers: Map<string, Function[]>;
  tools: Map<string, { definition: Record<string, unknown>; sourceInfo: SourceInfo }>;
  messageRenderers: Map<string, unknown>;
  commands: Map<string, Record<string, unknown>>;
  flags: Map<string, Record<string, unknown>>;
  shortcuts: Map<string, Record<string, unknown>>;
}

export interface LoadExtensionsResult {
  extensions: Extension[];
  errors: { path: string; error: string }[];
  runtime: ExtensionRuntime;
}

/** An unbound runtime: actions throw until an agent binds them (which only pi's own runner does). */
export function createExtensionRuntime(): ExtensionRuntime {
  let stale: string | undefined;
  return {
    sendMessage: notInitialized,
    sendUserMessage: notInitialized,
    appendEntry: notInitialized,
    setSessionName: notInitialized,
    getSessionName: notInitialized,
    setLabel: notInitialized,
    getActiveTools: notInitialized,
    getAllTools: notInitialized,
    getSettings: notInitialized,
    setActiveTools: notInitialized,
    refreshTools: () => {},
    getCommands: notInitialized,
    setModel: () => Promise.reject(new Error("Extension runtime not initialized")),
    getThinkingLevel: notInitialized,
    setThinkingLevel: notInitialized,
    createContext: notInitialized,
    flagValues: new Map(),
    pendingProviderRegistrations: [],
    pendingNativeProviderRegistrations: [],
    pendingVirtualModelRegistrations: [],
    reportError: () => {},
    assertActive: () => {
      if (stale) throw new Error(stale);
    },
    invalidate: (message?: string) => {
      stale ??= message ?? "This extension runtime is stale.";
    },
  };
}

/** The `pi` a recorded extension gets: registrations go into `extension`, actions to the (unbound) runtime. */
function recordingApi(extension: Extension, runtime: ExtensionRuntime, events: EventBus): Record<string, unknown> {
  const action =
    (name: string) =>
    (...args: unknown[]) =>
      (runtime[name] as (...a: unknown[]) => unknown)(...args);
  const source = extension.sourceInfo;
  return {
    on: (event: string, handler: Function) => {
      const list = extension.handlers.get(event) ?? [];
      list.push(handler);
      extension.handlers.set(event, list);
      return () => list.splice(list.indexOf(handler) >>> 0, 1);
    },
    registerTool: (tool: Record<string, unknown>) => void extension.tools.set(String(tool.name), { definition: tool, sourceInfo: source }),
    registerCommand: (name: string, options: Record<string, unknown>) => void extension.commands.set(name, { name, invocationName: name, sourceInfo: source, ...options }),
    registerShortcut: (shortcut: string, options: Record<string, unknown>) => void extension.shortcuts.set(shortcut, { shortcut, extensionPath: extension.path, ...options }),
    registerFlag: (name: string, options: Record<string, unknown>) => {
      extension.flags.set(name, { name, extensionPath: extension.path, ...options });
      if (options.default !== undefined && !runtime.flagValues.has(name)) runtime.flagValues.set(name, options.default as boolean | string);
    },
    getFlag: (name: string) => (extension.flags.has(name) ? runtime.flagValues.get(name) : undefined),
    registerMessageRenderer: (customType: string, renderer: unknown) => void extension.messageRenderers.set(customType, renderer),
    registerProvider: (name: string, config: unknown) => void runtime.pendingProviderRegistrations.push({ name, config, extensionPath: extension.path }),
    unregisterProvider: (name: string) => {
      runtime.pendingProviderRegistrations = runtime.pendingProviderRegistrations.filter((entry) => entry.name !== name);
    },
    registerVirtualModel: (definition: unknown) => void runtime.pendingVirtualModelRegistrations.push({ definition, extensionPath: extension.path }),
    events,
    ...Object.fromEntries(
      [
        "sendMessage",
        "sendUserMessage",
        "appendEntry",
        "setSessionName",
        "getSessionName",
        "setLabel",
        "getActiveTools",
        "getAllTools",
        "setActiveTools",
        "refreshTools",
        "getCommands",
        "setModel",
        "getThinkingLevel",
        "setThinkingLevel",
      ].map((name) => [name, action(name)]),
    ),
    exec: notInitialized,
  };
}

export function emptyExtension(path: string, resolvedPath = path, source = "local"): Extension {
  return {
    path,
    resolvedPath,
    sourceInfo: createSyntheticSourceInfo(path, { source }),
    handlers: new Map(),
    tools: new Map(),
    messageRenderers: new Map(),
    commands: new Map(),
    flags: new Map(),
    shortcuts: new Map(),
  };
}

/** Runs one factory against a recording `pi`; its error (thrown or rejected) is returned. */
export async function recordFactory(extension: Extension, factory: ExtensionFactory, runtime: ExtensionRuntime, events: EventBus): Promise<string | undefined> {
  try {
    await factory(recordingApi(extension, runtime, events) as never);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Imports an extension file's factory (Atomic's loader, bound per agent in modules.ts). */
export type FactoryImporter = (path: string) => Promise<{ factory: ExtensionFactory } | { error: string }>;

/** Loads each file (in order) into one runtime: what each registered, and the errors. */
export async function loadRecorded(paths: readonly string[], importFactory: FactoryImporter, events: EventBus = createEventBus()): Promise<LoadExtensionsResult> {
  const runtime = createExtensionRuntime();
  const result: LoadExtensionsResult = { extensions: [], errors: [], runtime };
  for (const path of paths) {
    const imported = await importFactory(path);
    if ("error" in imported) {
      result.errors.push({ path, error: imported.error });
      continue;
    }
    const extension = emptyExtension(path);
    const error = await recordFactory(extension, imported.factory, runtime, events);
    if (error !== undefined) result.errors.push({ path, error: `Failed to load extension: ${error}` });
    else result.extensions.push(extension);
  }
  return result;
}
