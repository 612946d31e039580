/**
 * The plugin contract: `definePlugin({ name, apply(k), ... })`. A definition declares what it
 * needs and offers (plugins, services, settings keys, CLI flags) so the kernel can check and
 * order a batch before anything runs; `apply` registers commands, tools, services and taps.
 */
import type { CommandDefinition, CommandRegistry } from "./commands.js";
import type { KernelConfig } from "./config.js";
import type { z } from "zod";
import type { EventBus, EventMap, EventName } from "./events.js";
import type { FlagSpec } from "./flags.js";
import type { DeclaredHooks, HookCatalog, HookDeclarations, PluginErrorEvent } from "./hooks.js";
import type { TapOnly } from "./hook-access.js";
import type { Logger } from "./logger.js";
import type { Services } from "./services.js";
import type { SharedScope } from "./shared.js";
import type { SettingSpec } from "./settings.js";
import type { ToolDefinition, ToolRegistryView, ToolSelection } from "./tools.js";
import type { TransportDefinition } from "./transport.js";

/** Registrations that stay open after boot: what the extensions plugin hands each extension. */
export interface OpenLayer {
  readonly owner: string;
  /** Registers or overrides a tool; the model is offered it from the next LLM call. */
  registerTool(definition: ToolDefinition<any>): void;
  /** Withdraws this layer's tool `name` (what it overrode stands again); false when the layer does not hold it. */
  unregisterTool(name: string): boolean;
  /** A flag an extension accepts on the command line (checked once extensions have loaded). */
  registerFlag(flag: FlagSpec): void;
  /** Restricts the tools the model is offered (`undefined`: the default-active ones). Unknown names fail. */
  setActiveTools(names: readonly string[] | undefined): void;
}

export interface PluginContext {
  /** This plugin's name: use it as the tap name. */
  readonly name: string;
  /** Every declared hook, tap side only. A hook not declared yet fails naming the fix (dependsOn/after its owner). */
  readonly hooks: TapOnly<HookCatalog>;
  readonly events: EventBus;
  readonly config: KernelConfig;
  readonly log: Logger;
  /**
   * What this kernel shares with the other agents of its process scope (its host's siblings):
   * keyed, reference-counted values, released when this kernel's host is torn down.
   */
  readonly shared: SharedScope;
  /**
   * The hooks this plugin declared in its definition (`hooks`), callable: pass the same
   * function. Only their owner calls hooks; everyone taps them through `hooks`.
   */
  ownHooks<F extends () => HookDeclarations>(declarations: F): DeclaredHooks<ReturnType<F>>;
  registerCommand(definition: CommandDefinition<any, any>): void;
  registerTool(definition: ToolDefinition<any>): void;
  /** Registers the zod schema of an event this plugin declared in `EventMap` (docs, validation). */
  registerEvent<K extends EventName>(name: K, schema: () => z.ZodType<EventMap[K]>): void;
  /** Names schemas that several records share (`AgentMessage`, `SessionEntry`): the protocol schema's `$defs`. */
  registerVocabulary(schemas: Record<string, () => z.ZodType>): void;
  /** Offers a transport (`--mode <name>` / settings `mode`). */
  registerTransport(definition: TransportDefinition): void;
  /** Publishes a service declared in this plugin's `provides`. */
  provide<K extends keyof Services & string>(name: K, value: Services[K]): void;
  service<K extends keyof Services & string>(name: K): Services[K];
  maybeService<K extends keyof Services & string>(name: K): Services[K] | undefined;
  /** Read-only views of the registries. */
  readonly commands: Pick<CommandRegistry, "has" | "names" | "lane" | "invoke" | "jsonSchema" | "ownerOf">;
  readonly tools: ToolRegistryView;
  /** What the model is offered: names, a rule (also for tools registered later), or `undefined` (the default-active ones). Unknown names fail. */
  setActiveTools(selection: ToolSelection): void;
  /** Registrations that stay open after boot, labelled with `owner` (an extension's path). */
  openLayer(owner: string): OpenLayer;
  /**
   * Reports a failure this plugin isolated (a handler it ran threw): one stderr line and the
   * `plugin_error` hook, which the extensions plugin turns into `extension_error`.
   */
  reportError(event: PluginErrorEvent): void;
  /**
   * Asks the host for the ordinary teardown, as on end of input (exit code 0): records already
   * read are answered, the run is aborted and long work drained. Returns at once.
   */
  requestShutdown(): void;
}

export interface PluginDefinition {
  name: string;
  description?: string;
  /** Plugins that must be applied first; a missing one fails the load with a coded error. */
  dependsOn?: readonly string[];
  /** Plugins to apply first when they are loaded too (optional ordering). */
  after?: readonly string[];
  /** Services this plugin publishes with `provide`. */
  provides?: readonly string[];
  /** Services some other plugin must publish; checked when the plugin is added, naming both. */
  requires?: readonly string[];
  /** Top-level settings keys this plugin owns, with their schema and who may set them. */
  settings?: Record<string, SettingSpec>;
  /** Command-line flags this plugin accepts. */
  flags?: readonly FlagSpec[];
  /**
   * The hooks this plugin calls, built with `guard`/`transform`/`notify`/`internal`. Declared
   * when the plugin is admitted, before any plugin applies, so others may tap them whatever the
   * order. Publish their types by augmenting `HookCatalog` in the plugin's api.ts.
   */
  hooks?: () => HookDeclarations;
  apply(k: PluginContext): void | Promise<void>;
}

const BRAND = Symbol.for("atomic.plugin");

/**
 * @example
 * export default definePlugin({ name: "hello", apply(k) { k.registerCommand(...) } });
 */
export function definePlugin(definition: PluginDefinition): PluginDefinition {
  if (!definition || typeof definition.name !== "string" || definition.name === "") throw new TypeError("definePlugin: a plugin needs a name");
  if (typeof definition.apply !== "function") throw new TypeError(`definePlugin: plugin "${definition.name}" needs an apply(kernel) function`);
  return Object.freeze({ ...definition, [BRAND]: true });
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === "object" && value !== null && typeof (value as PluginDefinition).name === "string" && typeof (value as PluginDefinition).apply === "function";
}
