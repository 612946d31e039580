/**
 * The plugin contract: `definePlugin({ name, dependsOn?, apply(k) })`. `apply` registers
 * commands, tools, services and taps; it may be async. The tap name is always the plugin name.
 */
import type { CommandDefinition, CommandRegistry } from "./commands.js";
import type { KernelConfig } from "./config.js";
import type { EventBus } from "./events.js";
import type { Hooks } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { Services } from "./services.js";
import type { ToolDefinition } from "./tools.js";

export interface PluginContext {
  /** This plugin's name: use it as the tap name. */
  readonly name: string;
  readonly hooks: Hooks;
  readonly events: EventBus;
  readonly config: KernelConfig;
  readonly log: Logger;
  registerCommand(definition: CommandDefinition<any, any>): void;
  registerTool(definition: ToolDefinition<any>): void;
  provide<K extends keyof Services & string>(name: K, value: Services[K]): void;
  service<K extends keyof Services & string>(name: K): Services[K];
  maybeService<K extends keyof Services & string>(name: K): Services[K] | undefined;
  /** Read-only views of the registries (e.g. the agent loop calling tools). */
  readonly commands: Pick<CommandRegistry, "has" | "names" | "lane" | "invoke" | "jsonSchema">;
  readonly tools: import("./tools.js").ToolRegistry;
}

export interface PluginDefinition {
  name: string;
  description?: string;
  /** Plugins that must be applied first; a missing one fails the load with a coded error. */
  dependsOn?: string[];
  apply(k: PluginContext): void | Promise<void>;
}

const BRAND = Symbol.for("atomic.plugin");

export function definePlugin(definition: PluginDefinition): PluginDefinition {
  if (!definition.name || typeof definition.name !== "string") throw new TypeError("definePlugin: a plugin needs a name");
  if (typeof definition.apply !== "function") throw new TypeError(`definePlugin: plugin "${definition.name}" needs an apply(kernel) function`);
  return Object.freeze({ ...definition, [BRAND]: true });
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as PluginDefinition).name === "string" &&
    typeof (value as PluginDefinition).apply === "function"
  );
}
