/**
 * The kernel: the room where plugins meet. It owns the hook catalogue, the command, tool,
 * service and transport registries and the event bus; it knows no provider, transport, file
 * format or shell. Boot: admit and apply batches of plugins -> `boot` hook -> freeze. An open
 * layer (extensions) may still register tools and flags after that.
 */
import { z } from "zod";
import { admit } from "./admission.js";
import { CommandRegistry, NO_DATA } from "./commands.js";
import type { KernelConfig } from "./config.js";
import { ErrorCode, isKernelError, KernelError, kernelErrors, toKernelError } from "./errors.js";
import { EventBus } from "./events.js";
import { CORE_EVENT_SCHEMAS } from "./schemas-events.js";
import type { FlagSpec } from "./flags.js";
import { HookOwnership, tapOnlyView, type TapOnly } from "./hook-access.js";
import { createHooks, type Hooks } from "./hooks.js";
import type { PluginErrorEvent } from "./hook-policy.js";
import { createStderrLogger, type Logger } from "./logger.js";
import type { OpenLayer, PluginContext, PluginDefinition } from "./plugin.js";
import { ServiceRegistry } from "./services.js";
import { ToolRegistry } from "./tools.js";
import type { TransportDefinition } from "./transport.js";

export interface KernelOptions {
  config: KernelConfig;
  log?: Logger;
  /** How long one plugin's apply() or boot tap may take before boot fails naming it. */
  applyTimeoutMs?: number;
  /** The flags plugins declared (composed by the host): a late flag may not reuse their names. */
  flags?: readonly { flag: FlagSpec; owner: string }[];
}

export class Kernel {
  readonly hooks: Hooks;
  /** The tap-only view every plugin is handed. */
  readonly hookView: TapOnly<Hooks>;
  readonly events: EventBus;
  readonly commands = new CommandRegistry();
  readonly tools = new ToolRegistry();
  readonly services = new ServiceRegistry();
  readonly transports = new Map<string, { definition: TransportDefinition; owner: string }>();
  /** Every outward event's zod schema and the plugin that declared it (docs, validation). */
  readonly eventSchemas = new Map<string, { schema: () => z.ZodType; owner: string }>();
  /** Flags registered after boot by an open layer (extensions), checked against argv by the host. */
  readonly lateFlags: { flag: FlagSpec; owner: string }[] = [];
  readonly config: KernelConfig;
  readonly log: Logger;
  readonly plugins: string[] = [];
  readonly #ownership: HookOwnership;
  readonly #publishers = new Map<string, string>();
  readonly #applyTimeoutMs: number;
  readonly #staticFlags: readonly { flag: FlagSpec; owner: string }[];
  #frozen = false;
  /** Set by the host that serves this kernel: how a plugin's shutdown request is carried out. */
  #shutdownHandler: (() => void) | undefined;

  constructor(options: KernelOptions) {
    this.config = options.config;
    this.log = options.log ?? createStderrLogger();
    this.#applyTimeoutMs = options.applyTimeoutMs ?? 15_000;
    this.#staticFlags = options.flags ?? [];
    this.events = new EventBus((error) => this.log.error(`event listener failed: ${toKernelError(error).message}`));
    this.hooks = createHooks((event) => this.reportError(event), this.#applyTimeoutMs);
    this.hookView = tapOnlyView(this.hooks);
    this.#ownership = new HookOwnership(this.hooks);
    this.#ownership.claim("kernel", ["boot", "closing", "shutdown", "plugin_error", "ui_response"]);
    this.#registerReplyCommand();
    for (const [name, schema] of Object.entries(CORE_EVENT_SCHEMAS)) this.eventSchemas.set(name, { schema, owner: "kernel" });
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /** The host that serves this kernel says how to tear it down when a plugin asks (`requestShutdown`). */
  setShutdownHandler(handler: () => void): void {
    this.#shutdownHandler = handler;
  }

  /** A failing tap in an isolating hook: reported as `extension_error` and on stderr. */
  reportError(event: PluginErrorEvent): void {
    this.log.warn(`[${event.source}] ${event.hook} failed: ${event.error}`);
    this.events.emit("extension_error", { extensionPath: event.source, event: event.hook, error: event.error });
    if (this.hooks.plugin_error.isUsed()) void this.hooks.plugin_error.promise(event).catch(() => undefined);
  }

  /** Admits a batch (checked as a whole before anything runs), then applies it in order. Callable more than once before boot. */
  async use(batch: readonly PluginDefinition[]): Promise<void> {
    if (this.#frozen) throw new KernelError(ErrorCode.KERNEL_FROZEN, "Cannot add plugins: the kernel is frozen after boot. Add them before boot(), or register through an open layer.");
    const ordered = admit(batch, { plugins: new Set(this.plugins), services: this.#publishers });
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

  /** Runs the boot hook (each tap under the apply timeout), then freezes the registries. */
  async boot(): Promise<void> {
    await this.hooks.boot.promise();
    this.#frozen = true;
    this.commands.freeze();
    this.tools.freeze();
    this.services.freeze();
  }

  context(plugin: PluginDefinition | string): PluginContext {
    const kernel = this;
    const name = typeof plugin === "string" ? plugin : plugin.name;
    const declared = new Set(typeof plugin === "string" ? [] : (plugin.provides ?? []));
    return Object.freeze({
      name,
      hooks: kernel.hookView,
      events: kernel.events,
      config: kernel.config,
      log: kernel.log,
      commands: kernel.commands,
      tools: kernel.tools,
      ownHooks: (...names) => kernel.#ownership.claim(name, names),
      registerCommand: (definition) => kernel.commands.register(definition, name),
      registerTool: (definition) => kernel.tools.register(definition, name),
      registerTransport: (definition) => kernel.#registerTransport(definition, name),
      registerEvent: (event, schema) => kernel.#registerEvent(event, schema, name),
      provide: (key, value) => {
        if (!declared.has(key)) throw new KernelError(ErrorCode.PLUGIN_INVALID, `Plugin "${name}" provides the service "${key}" without declaring it in "provides"`, { plugin: name });
        kernel.services.provide(key, value, name);
      },
      service: (key) => kernel.services.get(key),
      maybeService: (key) => kernel.services.maybe(key),
      setActiveTools: (names) => kernel.tools.setActive(names),
      openLayer: (owner) => kernel.openLayer(owner),
      requestShutdown: () => {
        if (!kernel.#shutdownHandler) throw new KernelError(ErrorCode.UNAVAILABLE, `Plugin "${name}" asked for shutdown, but no host serves this kernel`);
        kernel.#shutdownHandler();
      },
    } satisfies PluginContext);
  }

  /** Registrations that stay open after boot, labelled with their owner. */
  openLayer(owner: string): OpenLayer {
    const kernel = this;
    return Object.freeze({
      owner,
      registerTool: (definition) => kernel.tools.register(definition, owner, { late: true }),
      registerFlag: (flag) => {
        const names = [flag.name, flag.alias].filter((name): name is string => !!name);
        const clash = [...kernel.#staticFlags, ...kernel.lateFlags].find((entry) => names.some((name) => name === entry.flag.name || name === entry.flag.alias));
        if (clash) throw kernelErrors.duplicate("Flag", flag.name, owner, clash.owner);
        kernel.lateFlags.push({ flag, owner });
      },
      setActiveTools: (names) => kernel.tools.setActive(names),
    } satisfies OpenLayer);
  }

  #registerEvent(name: string, schema: () => z.ZodType, owner: string): void {
    if (this.#frozen) throw kernelErrors.frozen(`register event "${name}"`);
    const existing = this.eventSchemas.get(name);
    if (existing) throw kernelErrors.duplicate("Event", name, owner, existing.owner);
    this.eventSchemas.set(name, { schema, owner });
  }

  #registerTransport(definition: TransportDefinition, owner: string): void {
    if (this.#frozen) throw kernelErrors.frozen(`register transport "${definition.name}"`);
    const existing = this.transports.get(definition.name);
    if (existing) throw kernelErrors.duplicate("Transport", definition.name, owner, existing.owner);
    this.transports.set(definition.name, { definition, owner });
  }

  /** `extension_ui_response` is a reply: validated on the immediate lane, answered by no response. */
  #registerReplyCommand(): void {
    this.commands.register(
      {
        name: "extension_ui_response",
        description: "A client's answer to an extension_ui_request dialog (no response); a reply of the wrong type for its dialog resolves it as cancelled.",
        lane: "immediate",
        noResponse: true,
        output: NO_DATA,
        input: uiResponseInput,
        run: async (reply: { id: string; value?: unknown; confirmed?: unknown; cancelled?: unknown }) => {
          const handled = this.hooks.ui_response.isUsed() ? await this.hooks.ui_response.promise(reply) : undefined;
          if (!handled) this.log.warn(`Ignored extension_ui_response "${reply.id}": no dialog is waiting for it`);
        },
      },
      "kernel",
    );
  }

  async #apply(plugin: PluginDefinition): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new KernelError(ErrorCode.PLUGIN_BOOT_TIMEOUT, `Plugin "${plugin.name}" did not finish apply() within ${this.#applyTimeoutMs} ms`, { plugin: plugin.name, hook: "apply" })),
        this.#applyTimeoutMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([Promise.resolve(plugin.apply(this.context(plugin))), timeout]);
    } catch (error) {
      // A usage error is the user's command-line mistake: its message is for them, unlabelled.
      if (isKernelError(error) && (error.plugin || error.code === ErrorCode.USAGE)) throw error;
      const coded = toKernelError(error);
      throw new KernelError(coded.code === ErrorCode.INTERNAL ? ErrorCode.PLUGIN_LOAD : coded.code, `[plugin ${plugin.name}] apply failed: ${coded.message}`, { plugin: plugin.name, hook: "apply", cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

export function createKernel(options: KernelOptions): Kernel {
  return new Kernel(options);
}

/**
 * The reply's fields (spec: Extension UI Responses). A field of the wrong type is read as absent
 * rather than refused, so the waiting dialog still gets the reply and resolves it as cancelled
 * (DECISIONS); a reply without a string `id` matches no dialog and is only logged.
 */
function uiResponseInput() {
  return z.object({
    id: z.string().meta({ description: "The id of the extension_ui_request being answered." }),
    value: z.string().optional().catch(undefined).meta({ description: "select: the chosen option; input, editor: the text." }),
    confirmed: z.boolean().optional().catch(undefined).meta({ description: "confirm: the answer." }),
    cancelled: z.boolean().optional().catch(undefined).meta({ description: "true: the user dismissed the dialog (any method)." }),
  });
}
