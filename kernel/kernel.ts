/**
 * The kernel: the room where plugins meet. It owns the hook catalogue, the command, tool,
 * service and transport registries and the event bus; it knows no provider, transport, file
 * format or shell. Boot: admit and apply batches of plugins -> `boot` hook -> freeze. An open
 * layer (extensions) may still register tools and flags after that.
 */
import type { z } from "zod";
import { admit } from "./admission.js";
import { CommandRegistry } from "./commands.js";
import type { KernelConfig } from "./config.js";
import { ErrorCode, isKernelError, KernelError, kernelErrors, toKernelError } from "./errors.js";
import { EventBus } from "./events.js";
import type { FlagSpec } from "./flags.js";
import { HookRegistry } from "./hook-access.js";
import { BOOT_PHASES, hostHooks, type DeclaredHooks, type HookCatalog, type HookName, type PluginErrorEvent } from "./hooks.js";
import { createStderrLogger, type Logger } from "./logger.js";
import type { OpenLayer, PluginContext, PluginDefinition } from "./plugin.js";
import { ServiceRegistry } from "./services.js";
import { ProcessScope, type ScopeHolder } from "./shared.js";
import { isThenable, watchSlow } from "./slow-work.js";
import { ToolRegistry } from "./tools.js";
import type { TransportDefinition } from "./transport.js";

export interface KernelOptions {
  config: KernelConfig;
  log?: Logger;
  /**
   * How long one plugin's apply() or boot tap may take before boot fails naming it. No limit by
   * default: a busy machine or a big conversation makes boot slower, never different (a line on stderr
   * says what is being waited for while it runs long).
   */
  applyTimeoutMs?: number;
  /** The flags plugins declared (composed by the host): a late flag may not reuse their names. */
  flags?: readonly { flag: FlagSpec; owner: string }[];
  /** This kernel's hold on what its process scope shares (the host's, given to its siblings too); default: a scope of its own. */
  shared?: ScopeHolder;
}

export class Kernel {
  /** Every declared hook: the host's own below, the rest declared by the plugins that own them. */
  readonly hookRegistry: HookRegistry;
  /** The host's own hooks (boot phases, closing, shutdown, plugin_error), callable. */
  readonly hooks: DeclaredHooks<ReturnType<typeof hostHooks>>;
  readonly events: EventBus;
  readonly commands = new CommandRegistry();
  readonly tools = new ToolRegistry();
  readonly services = new ServiceRegistry();
  /** What this kernel holds of its process scope; the host releases it at teardown. */
  readonly shared: ScopeHolder;
  readonly transports = new Map<string, { definition: TransportDefinition; owner: string }>();
  /** Every outward event's zod schema and the plugin that declared it (docs, validation). */
  readonly eventSchemas = new Map<string, { schema: () => z.ZodType; owner: string }>();
  /** Named schemas records share (the protocol schema's `$defs`), and who named them. */
  readonly vocabulary = new Map<string, { schema: () => z.ZodType; owner: string }>();
  /** Flags registered after boot by an open layer (extensions), checked against argv by the host. */
  readonly lateFlags: { flag: FlagSpec; owner: string }[] = [];
  readonly config: KernelConfig;
  readonly log: Logger;
  readonly plugins: string[] = [];
  readonly #publishers = new Map<string, string>();
  /** The callable hooks each plugin declared, by plugin name. */
  readonly #ownedHooks = new Map<string, Readonly<Record<string, unknown>>>();
  readonly #applyTimeoutMs: number | undefined;
  readonly #staticFlags: readonly { flag: FlagSpec; owner: string }[];
  #frozen = false;
  /** Set by the host that serves this kernel: how a plugin's shutdown request is carried out. */
  #shutdownHandler: (() => void) | undefined;

  constructor(options: KernelOptions) {
    this.config = options.config;
    this.log = options.log ?? createStderrLogger();
    this.#applyTimeoutMs = options.applyTimeoutMs;
    this.#staticFlags = options.flags ?? [];
    this.shared = options.shared ?? new ProcessScope().holder();
    this.events = new EventBus((error) => this.log.error(`event listener failed: ${toKernelError(error).message}`));
    this.hookRegistry = new HookRegistry((event) => this.reportError(event), { limitMs: this.#applyTimeoutMs, notice: (message) => this.log.info(message) });
    this.hooks = this.hookRegistry.declare("kernel", hostHooks());
  }

  /** A declared hook, callable: for the host and for tests (plugins tap through their view, owners call their own). */
  hook<K extends HookName>(name: K): HookCatalog[K] {
    return this.hookRegistry.callable(name);
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /** The host that serves this kernel says how to tear it down when a plugin asks (`requestShutdown`). */
  setShutdownHandler(handler: () => void): void {
    this.#shutdownHandler = handler;
  }

  /** A failing tap in an isolating hook: a stderr line, and `plugin_error` (which turns it into an outward event). */
  reportError(event: PluginErrorEvent): void {
    this.log.warn(`[${event.source}] ${event.hook} failed: ${event.error}${event.at ? ` (at ${event.at})` : ""}`);
    if (!this.hooks.plugin_error.isUsed()) return;
    try {
      this.hooks.plugin_error.call(event);
    } catch (error) {
      this.log.error(`plugin_error: ${toKernelError(error).message}`);
    }
  }

  /** Admits a batch (checked as a whole before anything runs), then applies it in order. Callable more than once before boot. */
  async use(batch: readonly PluginDefinition[]): Promise<void> {
    if (this.#frozen)
      throw new KernelError(ErrorCode.KERNEL_FROZEN, "Cannot add plugins: the kernel is frozen after boot. Add them before boot(), or register through an open layer.");
    const ordered = admit(batch, { plugins: new Set(this.plugins), services: this.#publishers });
    // Every hook of the batch exists before any plugin applies: a plugin may tap a hook whatever
    // the order its owner applies in.
    for (const plugin of ordered) if (plugin.hooks) this.#ownedHooks.set(plugin.name, this.#declareHooks(plugin));
    for (const plugin of ordered) {
      for (const service of plugin.provides ?? []) this.#publishers.set(service, plugin.name);
      await this.#apply(plugin);
      for (const service of plugin.provides ?? []) {
        if (!this.services.maybe(service as never)) {
          throw new KernelError(ErrorCode.PLUGIN_INVALID, `Plugin "${plugin.name}" declares it provides "${service}" but did not provide it in apply()`, { plugin: plugin.name });
        }
      }
      this.plugins.push(plugin.name);
    }
  }

  /** Runs the boot phases in order (each tap under the apply timeout), then freezes the registries. */
  async boot(): Promise<void> {
    for (const phase of BOOT_PHASES) await this.hooks[phase].promise();
    this.#frozen = true;
    this.hookRegistry.freeze();
    this.commands.freeze();
    this.tools.freeze();
    this.services.freeze();
  }

  context(plugin: PluginDefinition | string): PluginContext {
    const name = typeof plugin === "string" ? plugin : plugin.name;
    const declared = new Set(typeof plugin === "string" ? [] : (plugin.provides ?? []));
    return Object.freeze({
      name,
      hooks: this.hookRegistry.viewFor(name),
      events: this.events,
      config: this.config,
      log: this.log,
      commands: this.commands,
      tools: this.tools,
      shared: this.shared,
      ownHooks: (declarations) => {
        const owned = this.#ownedHooks.get(name);
        if (!owned || typeof plugin === "string" || plugin.hooks !== declarations) {
          throw new KernelError(ErrorCode.PLUGIN_INVALID, `Plugin "${name}" asks for hooks it does not declare: pass the function given as "hooks" in its definition`, {
            plugin: name,
          });
        }
        return owned as never;
      },
      registerCommand: (definition) => this.commands.register(definition, name),
      registerTool: (definition) => this.tools.register(definition, name),
      registerTransport: (definition) => this.#registerTransport(definition, name),
      registerEvent: (event, schema) => this.#registerEvent(event, schema, name),
      registerVocabulary: (schemas) => {
        for (const [id, schema] of Object.entries(schemas)) this.#registerNamed(this.vocabulary, "Schema", id, schema, name);
      },
      provide: (key, value) => {
        if (!declared.has(key))
          throw new KernelError(ErrorCode.PLUGIN_INVALID, `Plugin "${name}" provides the service "${key}" without declaring it in "provides"`, { plugin: name });
        this.services.provide(key, value, name);
      },
      service: (key) => this.services.get(key),
      maybeService: (key) => this.services.maybe(key),
      setActiveTools: (names) => this.tools.setActive(names),
      openLayer: (owner) => this.openLayer(owner),
      reportError: (event) => this.reportError(event),
      requestShutdown: () => {
        if (!this.#shutdownHandler) throw new KernelError(ErrorCode.UNAVAILABLE, `Plugin "${name}" asked for shutdown, but no host serves this kernel`);
        this.#shutdownHandler();
      },
    } satisfies PluginContext);
  }

  /** Registrations that stay open after boot, labelled with their owner. */
  openLayer(owner: string): OpenLayer {
    return Object.freeze({
      owner,
      registerTool: (definition) => this.tools.register(definition, owner, { late: true }),
      unregisterTool: (name) => this.tools.unregister(name, owner),
      registerFlag: (flag) => {
        const names = [flag.name, flag.alias].filter((name): name is string => !!name);
        const clash = [...this.#staticFlags, ...this.lateFlags].find((entry) => names.some((name) => name === entry.flag.name || name === entry.flag.alias));
        if (clash) throw kernelErrors.duplicate("Flag", flag.name, owner, clash.owner);
        this.lateFlags.push({ flag, owner });
      },
      setActiveTools: (names) => this.tools.setActive(names),
    } satisfies OpenLayer);
  }

  #declareHooks(plugin: PluginDefinition): Readonly<Record<string, unknown>> {
    try {
      return this.hookRegistry.declare(plugin.name, plugin.hooks!());
    } catch (error) {
      if (isKernelError(error)) throw error;
      throw new KernelError(ErrorCode.PLUGIN_INVALID, `[plugin ${plugin.name}] declaring its hooks failed: ${toKernelError(error).message}`, { plugin: plugin.name, cause: error });
    }
  }

  #registerEvent(name: string, schema: () => z.ZodType, owner: string): void {
    this.#registerNamed(this.eventSchemas, "Event", name, schema, owner);
  }

  #registerNamed(into: Map<string, { schema: () => z.ZodType; owner: string }>, kind: string, name: string, schema: () => z.ZodType, owner: string): void {
    if (this.#frozen) throw kernelErrors.frozen(`register ${kind.toLowerCase()} "${name}"`);
    const existing = into.get(name);
    if (existing) throw kernelErrors.duplicate(kind, name, owner, existing.owner);
    into.set(name, { schema, owner });
  }

  #registerTransport(definition: TransportDefinition, owner: string): void {
    if (this.#frozen) throw kernelErrors.frozen(`register transport "${definition.name}"`);
    const existing = this.transports.get(definition.name);
    if (existing) throw kernelErrors.duplicate("Transport", definition.name, owner, existing.owner);
    this.transports.set(definition.name, { definition, owner });
  }

  async #apply(plugin: PluginDefinition): Promise<void> {
    try {
      const applied = plugin.apply(this.context(plugin));
      // A synchronous apply() is over already: nothing to wait on, no timers to set.
      if (!isThenable(applied)) return;
      await watchSlow(Promise.resolve(applied), {
        limitMs: this.#applyTimeoutMs,
        notice: (seconds) => this.log.info(`Plugin "${plugin.name}" is still running apply() (${seconds} s)`),
        onLimit: () =>
          new KernelError(ErrorCode.PLUGIN_BOOT_TIMEOUT, `Plugin "${plugin.name}" did not finish apply() within ${this.#applyTimeoutMs} ms`, {
            plugin: plugin.name,
            hook: "apply",
          }),
      });
    } catch (error) {
      // A usage error is the user's command-line mistake: its message is for them, unlabelled.
      if (isKernelError(error) && (error.plugin || error.code === ErrorCode.USAGE)) throw error;
      const coded = toKernelError(error);
      throw new KernelError(coded.code === ErrorCode.INTERNAL ? ErrorCode.PLUGIN_LOAD : coded.code, `[plugin ${plugin.name}] apply failed: ${coded.message}`, {
        plugin: plugin.name,
        hook: "apply",
        cause: error,
      });
    }
  }
}

export function createKernel(options: KernelOptions): Kernel {
  return new Kernel(options);
}
