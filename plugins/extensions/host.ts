/**
 * What every loaded extension shares: the kernel context, the abort gate, the UI bridge, the
 * inter-extension bus, who owns which tool and command name, the built-in tools as they were
 * before any extension overrode them, and error reporting (`extension_error` plus a stderr line).
 */
import { thrownAt, type OpenLayer, type PluginContext, type ToolDefinition } from "../../kernel/index.js";
import type { CustomMessage } from "../../lib/llm/index.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "../models/api.js";
import type { SessionApi } from "../session/api.js";
import type { SlashCommandEntry, SlashCommandsApi } from "../slash-commands/api.js";
import { SettleBoundary } from "./boundary.js";
import { ExtensionBus } from "./bus.js";
import { HandlerGate } from "./gate.js";
import type { ExtensionsHooks } from "./hooks.js";
import type { SharedModules } from "./load-module.js";
import { RunPromptOptions } from "./prompt-options.js";
import { StoreOrder } from "./store-order.js";
import type { ToolMeta } from "./tool-meta.js";
import { UiPrompts } from "./ui-prompts.js";
import { VirtualModels } from "./virtual-models.js";
import type { ExtensionRecord } from "./record.js";
import type { ExtensionMode, ModelRegistryView, ReadonlySessionManager } from "./types/context.js";
import type { UiBridge } from "./ui-bridge.js";
import { modelRegistryView, sessionView } from "./views.js";

const PI_MODES = new Set<string>(["tui", "rpc", "json", "print", "acp"]);

/** `ctx.mode` in pi's words: a mode pi does not know is "rpc" when its clients answer dialogs (they speak the RPC protocol, as `atomic serve`'s). */
function extensionMode(mode: string, dialogs: boolean): ExtensionMode {
  return (PI_MODES.has(mode) || !dialogs ? mode : "rpc") as ExtensionMode;
}

export class ExtensionHost {
  readonly k: PluginContext;
  /** The process scope's extension modules (shared with sibling agents). */
  readonly modules: SharedModules;
  readonly gate = new HandlerGate((work) => this.enter(work));
  /** Undefined when the transport has no client that answers dialogs (hasUI false). */
  readonly bridge: UiBridge | undefined;
  readonly mode: ExtensionMode;
  readonly records: ExtensionRecord[] = [];
  readonly bus: ExtensionBus;
  /** Tool and command names an extension registered -> its path (the first one wins). */
  readonly toolOwners = new Map<string, string>();
  readonly commandOwners = new Map<string, string>();
  /** `promptGuidelines` of extension tools, added to the system prompt while the tool is active. */
  readonly toolGuidelines = new Map<string, string[]>();
  /** pi 1.x's fields of each extension tool (exposure, annotations, ...). */
  readonly toolMeta = new Map<string, ToolMeta>();
  /** Each run's system prompt options, shared by its before_agent_start handlers. */
  readonly promptOptions = new RunPromptOptions();
  /** The agent_before_settle handlers. */
  readonly settle: SettleBoundary;
  readonly uiPrompts: UiPrompts;
  readonly virtualModels: VirtualModels;
  /** The custom message whose `sendMessage(..., { triggerTurn })` run is about to start (before_agent_start's messageType). */
  #trigger: { message: CustomMessage; text: string } | undefined;
  readonly #triggeredRuns = new WeakMap<object, CustomMessage | null>();
  #layer: OpenLayer | undefined;
  /** The tools registered before any extension loaded: what createReadTool & co. wrap. */
  readonly builtinTools = new Map<string, ToolDefinition>();
  /** The system prompt of the latest run (chained through before_agent_start); "" before the first. */
  systemPrompt = "";
  /** Prompt template and skill entries as of the last listing (pi's synchronous getCommands). */
  listedCommands: SlashCommandEntry[] = [];
  /** Writes serialised per file (withFileMutationQueue). */
  readonly fileQueues = new Map<string, Promise<unknown>>();
  /** What extensions store in the session, kept in the order they asked (store-order.ts). */
  readonly stores = new StoreOrder();
  /** The first `session_start` has fired: the session takes extensions' entries. */
  sessionStarted = false;
  readonly sessionManager: ReadonlySessionManager;
  /** Message lists already copied for extensions' context handlers (one copy per LLM call, not one per handler). */
  readonly #ownedMessages = new WeakSet<object>();
  readonly modelRegistry: ModelRegistryView;

  constructor(k: PluginContext, owned: Pick<ExtensionsHooks, "ui_prompt_start" | "ui_prompt_end">, modules: SharedModules, bridge: UiBridge | undefined) {
    this.k = k;
    this.modules = modules;
    this.settle = new SettleBoundary(this);
    this.uiPrompts = new UiPrompts(owned, (error) => this.report(k.name, "ui_prompt", error));
    this.virtualModels = new VirtualModels(this);
    this.mode = extensionMode(k.config.cli.mode || k.config.settings.mode || "rpc", k.config.dialogs === true);
    // The host's one bridge (dialogs.ts), when its client answers dialogs: RPC and `atomic serve`
    // carry them as extension_ui_request; ACP turns confirm/select into session/request_permission.
    this.bridge = bridge;
    this.bus = new ExtensionBus((path, event, error) => this.report(path, event, error));
    this.sessionManager = sessionView(
      () => this.session,
      k.config.cwd,
      () => k.maybeService("sessionStore")?.sessionDir(),
    );
    this.modelRegistry = modelRegistryView(
      () => this.models,
      () => this.agent,
      () => k.config.env,
    );
  }

  /** Runs extension code for this agent: what the shared virtual modules bind to meanwhile. */
  enter<T>(work: () => T): T {
    return this.modules.enter(this, work);
  }

  get agent(): AgentApi {
    return this.k.service("agent");
  }

  get models(): ModelsApi {
    return this.k.service("models");
  }

  get slash(): SlashCommandsApi {
    return this.k.service("slashCommands");
  }

  get session(): SessionApi | undefined {
    return this.k.maybeService("session");
  }

  ownsMessages(list: object): boolean {
    return this.#ownedMessages.has(list);
  }

  ownMessages<T extends object>(list: T): T {
    this.#ownedMessages.add(list);
    return list;
  }

  /** The plugin's own layer (active tools it sets on behalf of the prompt options). */
  get layer(): OpenLayer {
    return (this.#layer ??= this.k.openLayer(this.k.name));
  }

  /** Sets the active tools as `systemPromptOptions.selectedTools` asks (unknown and hidden names left out). */
  setActiveToolsFromPrompt(names: readonly string[]): void {
    const usable = names.filter((name) => this.k.tools.get(name) !== undefined && this.toolMeta.get(name)?.exposure !== "hidden");
    this.layer.setActiveTools([...new Set(usable)]);
  }

  /** The next run is started by this custom message (sendMessage with triggerTurn); undefined clears it. */
  triggerNext(message: CustomMessage | undefined, text = ""): void {
    this.#trigger = message ? { message, text } : undefined;
  }

  /** The custom message that started the run with this `inject` list, if one did (read once per run, then kept). */
  triggeredRun(run: object, prompt: string): CustomMessage | undefined {
    if (!this.#triggeredRuns.has(run)) {
      const pending = this.#trigger;
      this.#trigger = undefined;
      this.#triggeredRuns.set(run, pending && pending.text === prompt ? pending.message : null);
    }
    return this.#triggeredRuns.get(run) ?? undefined;
  }

  /** Snapshot of the tools registered so far: the built-ins extensions may wrap. */
  snapshotBuiltinTools(): void {
    for (const name of this.k.tools.names()) this.builtinTools.set(name, this.k.tools.get(name)!);
  }

  /**
   * An extension's failure: `extension_error {extensionPath, event, error}` and one stderr line,
   * which names the line of the extension that threw `thrown` (default: `error`) when it can.
   */
  report(extensionPath: string, event: string, error: unknown, thrown: unknown = error): void {
    const at = thrownAt(thrown, extensionPath);
    this.k.reportError({ source: extensionPath, hook: event, error: error instanceof Error ? error.message : String(error), ...(at ? { at } : {}) });
  }

  /** Refreshes the listing behind pi's synchronous getCommands (in the background). */
  refreshCommandListing(): void {
    void this.slash.list().then(
      (entries) => (this.listedCommands = entries),
      () => undefined,
    );
  }
}
