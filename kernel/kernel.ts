/**
 * The kernel: the room where plugins meet. It owns the hook catalogue, the command and tool
 * registries, the service registry and the event bus; it knows no provider, transport, file
 * format or shell. Boot: apply plugins in dependency order -> `boot` hook -> freeze.
 */
import { CommandRegistry } from "./commands.js";
import type { KernelConfig } from "./config.js";
import { ErrorCode, isKernelError, KernelError, toKernelError } from "./errors.js";
import { EventBus } from "./events.js";
import { createHooks, type Hooks, type PluginErrorEvent } from "./hooks.js";
import { orderPlugins } from "./loader.js";
import { createStderrLogger, type Logger } from "./logger.js";
import type { PluginContext, PluginDefinition } from "./plugin.js";
import { ServiceRegistry } from "./services.js";
import { ToolRegistry } from "./tools.js";

export interface KernelOptions {
  config: KernelConfig;
  log?: Logger;
  /** How long one plugin's apply() may take before boot fails naming it. */
  applyTimeoutMs?: number;
}

export class Kernel {
  readonly hooks: Hooks;
  readonly events: EventBus;
  readonly commands = new CommandRegistry();
  readonly tools = new ToolRegistry();
  readonly services = new ServiceRegistry();
  readonly config: KernelConfig;
  readonly log: Logger;
  readonly plugins: string[] = [];
  readonly #applyTimeoutMs: number;
  #frozen = false;

  constructor(options: KernelOptions) {
    this.config = options.config;
    this.log = options.log ?? createStderrLogger();
    this.#applyTimeoutMs = options.applyTimeoutMs ?? 15_000;
    this.events = new EventBus((error) => this.log.error(`event listener failed: ${toKernelError(error).message}`));
    this.hooks = createHooks((event) => this.reportError(event));
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /** A failing tap in an isolating hook: reported as `extension_error` and on stderr. */
  reportError(event: PluginErrorEvent): void {
    this.log.warn(`[${event.source}] ${event.hook} failed: ${event.error}`);
    this.events.emit("extension_error", { extensionPath: event.source, event: event.hook, error: event.error });
    if (this.hooks.plugin_error.isUsed()) void this.hooks.plugin_error.promise(event).catch(() => undefined);
  }

  /** Applies plugins in dependency order; each apply runs under a timeout that names it. */
  async use(plugins: PluginDefinition[]): Promise<void> {
    if (this.#frozen) throw new KernelError(ErrorCode.KERNEL_FROZEN, "Cannot add plugins: the kernel is frozen after boot");
    const known = new Set(this.plugins);
    for (const plugin of orderPlugins(plugins)) {
      for (const dependency of plugin.dependsOn ?? []) {
        if (!known.has(dependency) && !plugins.some((p) => p.name === dependency)) {
          throw new KernelError(ErrorCode.PLUGIN_MISSING_DEPENDENCY, `Plugin "${plugin.name}" depends on "${dependency}", which is not loaded`, { plugin: plugin.name });
        }
      }
      await this.#apply(plugin);
      known.add(plugin.name);
      this.plugins.push(plugin.name);
    }
  }

  /** Runs the boot hook, then freezes every registry: later registration throws E_KERNEL_FROZEN. */
  async boot(): Promise<void> {
    await this.hooks.boot.promise();
    this.#frozen = true;
    this.commands.freeze();
    this.tools.freeze();
    this.services.freeze();
  }

  context(name: string): PluginContext {
    const kernel = this;
    return Object.freeze({
      name,
      hooks: kernel.hooks,
      events: kernel.events,
      config: kernel.config,
      log: kernel.log,
      commands: kernel.commands,
      tools: kernel.tools,
      registerCommand: (definition) => kernel.commands.register(definition, name),
      registerTool: (definition) => kernel.tools.register(definition, name),
      provide: (key, value) => kernel.services.provide(key, value, name),
      service: (key) => kernel.services.get(key),
      maybeService: (key) => kernel.services.maybe(key),
    } satisfies PluginContext);
  }

  async #apply(plugin: PluginDefinition): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new KernelError(ErrorCode.PLUGIN_BOOT_TIMEOUT, `Plugin "${plugin.name}" did not finish apply() within ${this.#applyTimeoutMs} ms`, { plugin: plugin.name })),
        this.#applyTimeoutMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([Promise.resolve(plugin.apply(this.context(plugin.name))), timeout]);
    } catch (error) {
      if (isKernelError(error) && error.plugin) throw error;
      const coded = toKernelError(error);
      throw new KernelError(coded.code === ErrorCode.INTERNAL ? ErrorCode.PLUGIN_LOAD : coded.code, `[plugin ${plugin.name}] apply failed: ${coded.message}`, { plugin: plugin.name, cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

export function createKernel(options: KernelOptions): Kernel {
  return new Kernel(options);
}
