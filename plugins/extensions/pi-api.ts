/**
 * The `pi` object one extension receives. Registrations go through its record (staged while the
 * factory runs, then applied together); event handlers become kernel taps named with the
 * extension's path, ordered by load order; actions drive the agent and session services.
 */
import type { ToolDefinition as KernelTool, OpenLayer } from "../../kernel/index.js";
import { didYouMean } from "../../lib/closest/index.js";
import { sendMessage, sendUserMessage } from "./actions.js";
import { addCommand, checkCommand } from "./commands.js";
import { createContext } from "./context.js";
import { EVENT_ADAPTERS, RELEASED, type Call } from "./event-adapters.js";
import { exec } from "./exec.js";
import { mcpServerApi } from "./mcp-servers.js";
import type { ExtensionHost } from "./host.js";
import { checkProvider, registerProvider } from "./providers.js";
import type { ExtensionRecord } from "./record.js";
import { checkResult, hasResult } from "./result-check.js";
import { adaptTool } from "./tool-adapter.js";
import { allTools, commandInfos, setActiveTools } from "./tool-info.js";
import { activatesOnRegister, toolMetaOf, type ToolMeta } from "./tool-meta.js";
import type { ExtensionAPI, ExtensionVirtualModel, FlagOptions } from "./types/api.js";
import { VirtualModels } from "./virtual-models.js";

const FLAG_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
export const flagKey = (name: string) => `extension:${name}`;
/** A handler awaiting what can never settle, as the error it counts as having thrown. */
const stalledError = (event: string) => new Error(`handler for "${event}" never finished: it awaits something that can never settle (nothing else was left running to wake it)`);

export function createPiApi(host: ExtensionHost, record: ExtensionRecord): ExtensionAPI {
  const { k } = host;
  const layer = k.openLayer(record.path);
  // In the first group, after the built-ins' own (registered before any extension loads), before
  // their ordinary taps (session recording sees a replaced message_end); in load order.
  const tap = { name: record.path, order: "pre" as const };
  const ready = (what: string) => {
    if (record.loading) throw new Error(`pi.${what}() cannot be called while the extension loads; call it from an event handler or a command`);
  };
  const session = () => {
    const api = host.session;
    if (!api) throw new Error("No session is available (the session plugin is not loaded)");
    return api;
  };
  /** Tool names registered while the factory runs. */
  const loadingTools = new Set<string>();
  const released = () => RELEASED;
  const call = (name: string, handler: Function): Call => {
    // A handler awaiting what can never happen would end the process with the run half done: it
    // counts as having thrown instead, under its hook's failure policy (a guard's veto, else reported and passed by).
    const ifStalled = {
      stalled: (): never => {
        throw stalledError(name);
      },
    };
    return (event, options = {}) => host.gate.run(() => handler(event, createContext(host, { dismiss: host.gate.signal, ...options })), released, ifStalled);
  };

  /** Subscribes `handler`; the returned function unsubscribes it (its tap stays, passing every event through). */
  const on = (event: string, handler: Function): (() => void) => {
    if (typeof handler !== "function") throw new TypeError(`pi.on("${String(event)}"): the handler must be a function`);
    let subscribed = true;
    const unsubscribe = () => void (subscribed = false);
    if (!Object.hasOwn(EVENT_ADAPTERS, event)) {
      k.log.warn(`[${record.path}] pi.on("${String(event)}"): Atomic has no such event; this handler never runs.${didYouMean(Object.keys(EVENT_ADAPTERS), String(event))}`);
      return unsubscribe;
    }
    const run = call(event, handler);
    // An answer its adapter would drop (a misspelt field) is reported; the adapter still reads it as before.
    const checked: Call = hasResult(event) ? async (payload, options) => checkResult(host, record, event, payload, await run(payload, options)) : run;
    const guarded: Call = (payload, options) => (subscribed ? checked(payload, options) : Promise.resolve(undefined));
    record.apply(() => {
      record.events.push(event);
      EVENT_ADAPTERS[event as keyof typeof EVENT_ADAPTERS]?.({ hooks: k.hooks, tap, call: guarded, host, record });
    });
    return unsubscribe;
  };

  return {
    on: on as ExtensionAPI["on"],
    registerTool(tool) {
      const meta = toolMetaOf(tool, record.path, record.scope);
      // Whether registering offers it to the model is the registry's own rule (`defaultActive`).
      const guidelines = Array.isArray(tool.promptGuidelines) ? tool.promptGuidelines.filter((line) => typeof line === "string" && line.trim() !== "") : [];
      // pi 1.x's reach fields go on the kernel tool too: codemode lists and calls by them.
      const definition = {
        ...adaptTool(host, record.path, tool),
        ...(activatesOnRegister(meta) ? {} : { defaultActive: false }),
        exposure: meta.exposure,
        ...(meta.namespace ? { namespace: meta.namespace } : {}),
        ...(meta.outputSchema ? { outputSchema: meta.outputSchema } : {}),
        ...(guidelines.length > 0 ? { promptGuidelines: guidelines } : {}),
      };
      // Twice in one factory is a slip (pi keeps the later one, silently); re-registering once loaded is how a tool is updated.
      const again = record.loading && loadingTools.has(definition.name);
      loadingTools.add(definition.name);
      record.apply(() => {
        if (again) host.report(record.path, "register_tool", `Tool "${definition.name}" is registered twice by ${record.path}; the later registration replaces the earlier one`);
        addTool(host, record, layer, definition, guidelines, meta);
      });
    },
    registerCommand(name, options) {
      checkCommand(name, options);
      record.apply(() => addCommand(host, record, name, options));
    },
    registerShortcut(shortcut) {
      record.apply(() => record.shortcuts.push(String(shortcut)));
    },
    registerFlag(name, options) {
      if (typeof name !== "string" || !FLAG_NAME.test(name)) throw new TypeError(`registerFlag: the name must be letters, digits and "-" (got ${JSON.stringify(name)})`);
      if (options?.type !== "boolean" && options?.type !== "string") throw new TypeError(`registerFlag("${name}"): type must be "boolean" or "string"`);
      record.apply(() => addFlag(host, record, layer, name, options));
    },
    getFlag(name) {
      const options = record.flags.get(name);
      if (!options) return undefined;
      const given = k.config.cli[flagKey(name) as keyof typeof k.config.cli] as boolean | string | undefined;
      return given ?? options.default;
    },
    registerMessageRenderer() {},
    registerEntryRenderer() {},
    registerMarkdownTransformer() {},
    registerToolRenderer() {},
    sendMessage(message, options) {
      ready("sendMessage");
      sendMessage(host, record, message, options);
    },
    sendUserMessage(content, options) {
      ready("sendUserMessage");
      sendUserMessage(host, record, content, options);
    },
    appendEntry(customType, data) {
      ready("appendEntry");
      if (typeof customType !== "string" || customType === "") throw new TypeError("appendEntry: customType must be a non-empty string");
      const entry = { type: "custom" as const, customType, ...(data !== undefined ? { data } : {}) };
      host.stores.after(
        () => session().append(entry),
        (error) => host.report(record.path, "appendEntry", error),
      );
    },
    setSessionName(name) {
      ready("setSessionName");
      void session()
        .setSessionName(String(name))
        .catch((error: unknown) => host.report(record.path, "setSessionName", error));
    },
    getSessionName: () => host.session?.sessionName(),
    setLabel(entryId, label) {
      ready("setLabel");
      if (
        !session()
          .entries()
          .some((entry) => entry.id === entryId)
      )
        throw new Error(`Entry not found: ${entryId}`);
      const entry = { type: "label" as const, targetId: entryId, ...(label ? { label: String(label) } : {}) };
      host.stores.after(
        () => session().append(entry),
        (error) => host.report(record.path, "setLabel", error),
      );
    },
    exec: (command, args, options) => exec(command, Array.isArray(args) ? args : [], k.config.cwd, options, k.maybeService("sandbox")),
    getActiveTools: () => k.tools.activeNames(),
    getAllTools: () => allTools(host),
    getSettings: () => copySettings(k.config.settings),
    setActiveTools(names) {
      ready("setActiveTools");
      setActiveTools(host, record, layer, names);
    },
    getCommands: () => commandInfos(host),
    async setModel(model) {
      const found = host.models.find(model?.provider, model?.id);
      if (!found || !host.models.isAvailable(found)) return false;
      await host.agent.setModel(found, "set");
      return true;
    },
    getThinkingLevel: () => host.agent.getThinkingLevel(),
    setThinkingLevel(level) {
      void host.agent.setThinkingLevel(level).catch((error: unknown) => host.report(record.path, "setThinkingLevel", error));
    },
    registerProvider(name, config) {
      if (typeof name === "object" && name !== null) {
        throw new TypeError("registerProvider(provider): a pi-ai Provider object is not supported by Atomic; use registerProvider(name, { baseUrl, api, models, streamSimple? })");
      }
      checkProvider(name, config);
      record.apply(() => registerProvider(host, record, name, config));
    },
    unregisterProvider(name) {
      throw new Error(`unregisterProvider("${String(name)}") is not supported by Atomic: a registered provider stays for the process`);
    },
    registerVirtualModel(model) {
      VirtualModels.check(model);
      record.apply(() => host.virtualModels.register(record.path, model as ExtensionVirtualModel<unknown>));
    },
    unregisterVirtualModel(provider, id) {
      record.apply(() => host.virtualModels.unregister(provider, id));
    },
    ...mcpServerApi(k, record),
    events: host.bus.forExtension(record.path),
  };
}

/** A copy the extension may change (pi's getSettings); settings are plain JSON values. */
function copySettings(settings: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
}

/** The first extension to register a tool name keeps it; a built-in of that name is overridden. */
function addTool(host: ExtensionHost, record: ExtensionRecord, layer: OpenLayer, definition: KernelTool, guidelines: string[], meta: ToolMeta): void {
  const owner = host.toolOwners.get(definition.name);
  if (owner !== undefined && owner !== record.path) {
    host.report(record.path, "register_tool", `Tool "${definition.name}" is already registered by ${owner}; the one from ${record.path} is ignored (the first one wins)`);
    return;
  }
  layer.registerTool(definition);
  host.toolOwners.set(definition.name, record.path);
  if (guidelines.length > 0) host.toolGuidelines.set(definition.name, guidelines);
  else host.toolGuidelines.delete(definition.name);
  host.toolMeta.set(definition.name, meta);
  if (!record.tools.includes(definition.name)) record.tools.push(definition.name);
}

function addFlag(host: ExtensionHost, record: ExtensionRecord, layer: OpenLayer, name: string, options: FlagOptions): void {
  try {
    layer.registerFlag({
      name: `--${name}`,
      key: flagKey(name),
      ...(options.type === "string" ? { value: "<value>" } : {}),
      description: options.description ?? `(extension ${record.path})`,
    });
    record.flags.set(name, options);
  } catch (error) {
    host.report(record.path, "register_flag", error);
  }
}
