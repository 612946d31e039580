/**
 * A booted host: the surface transports and embedders use. Records go through the scheduler,
 * events come from the kernel's bus, and `shutdown` is the one teardown for every entry point:
 * stop taking input, answer what was read, let plugins abort and drain (`shutdown` hook), answer
 * what that produced.
 */
import {
  UsageError,
  type EmbeddedHost,
  type EventBus,
  type EventListener,
  type Kernel,
  type KernelConfig,
  type Logger,
  type Response,
  type ShutdownReason,
  type SiblingOptions,
  type SubmitOptions,
  type TransportDefinition,
  type TransportHost,
} from "../kernel/index.js";
import { failure, type Scheduler } from "./scheduler.js";

/** How long plugins may take to drain at teardown before the host gives up on them. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

export class HostRuntime implements TransportHost, EmbeddedHost {
  readonly kernel: Kernel;
  readonly #scheduler: Scheduler;
  readonly #openSibling: (options: SiblingOptions) => Promise<HostRuntime>;
  #requested: ShutdownReason | undefined;
  #done: Promise<void> | undefined;
  readonly closing: Promise<ShutdownReason>;
  #signalClosing!: (reason: ShutdownReason) => void;

  constructor(kernel: Kernel, scheduler: Scheduler, openSibling: (options: SiblingOptions) => Promise<HostRuntime>) {
    this.kernel = kernel;
    this.#scheduler = scheduler;
    this.#openSibling = openSibling;
    this.closing = new Promise((resolve) => (this.#signalClosing = resolve));
    kernel.setShutdownHandler(() => void this.shutdown("exit"));
  }

  get config(): KernelConfig {
    return this.kernel.config;
  }

  get log(): Logger {
    return this.kernel.log;
  }

  get events(): Pick<EventBus, "subscribe" | "addPressureSource"> {
    return { subscribe: (listener) => this.subscribe(listener), addPressureSource: (source) => this.kernel.events.addPressureSource(source) };
  }

  /**
   * Listens to every outward event; returns the unsubscribe function. The first listener also
   * gets the events emitted during boot (the transport: so the client sees them).
   */
  subscribe(listener: EventListener, options: { replay?: boolean } = {}): () => void {
    return this.kernel.events.subscribe(listener, { replay: options.replay ?? true });
  }

  submit(record: unknown, options: SubmitOptions): Promise<void> {
    if (this.#requested) {
      const { type, id } = (typeof record === "object" && record !== null ? record : {}) as { type?: unknown; id?: unknown };
      const echoed = typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
      options.respond(failure(echoed, typeof type === "string" ? type : "unknown", "Agent is shutting down"));
      return Promise.resolve();
    }
    return this.#scheduler.submit(record, options);
  }

  reject(response: Response, options: Pick<SubmitOptions, "respond">): void {
    this.#scheduler.reject(response, options);
  }

  /** Submits a command and resolves with its response (`undefined` for a reply such as extension_ui_response). */
  send(record: unknown, source: SubmitOptions["source"] = "sdk"): Promise<Response | undefined> {
    let response: Response | undefined;
    return this.submit(record, { source, respond: (r) => (response = r) }).then(() => response);
  }

  idle(): Promise<void> {
    return this.#scheduler.idle();
  }

  openSibling(options: SiblingOptions): Promise<HostRuntime> {
    return this.#openSibling(options);
  }

  transportNames(): string[] {
    return [...this.kernel.transports.keys()];
  }

  /** The transport a mode names; an unknown name is a usage error listing the available ones. */
  transport(mode: string): TransportDefinition {
    const entry = this.kernel.transports.get(mode);
    if (!entry) throw new UsageError(`Unknown mode "${mode}"${this.#modeSetting(mode)}. Available: ${this.transportNames().join(", ") || "none"}`);
    return entry.definition;
  }

  /** ` (the mode setting in <file>)` when `mode` came from a settings file rather than `--mode`: that is where to fix it. */
  #modeSetting(mode: string): string {
    const { settingsSources } = this.config;
    if (this.config.cli.mode || mode !== this.config.settings.mode || !settingsSources) return "";
    const source = settingsSources.sources.mode;
    const file = source === "user" ? settingsSources.userFile : source === "project" ? settingsSources.projectFile : undefined;
    return file ? ` (the mode setting in ${file})` : " (the mode setting)";
  }

  /** The mode to serve: `--mode`, else settings `mode`, else rpc. */
  defaultMode(): string {
    return this.config.cli.mode || this.config.settings.mode || "rpc";
  }

  /** Serves with one transport until teardown; resolves with its exit code. */
  serve(mode = this.defaultMode()): Promise<number> {
    const transport = this.transport(mode);
    const positionals = this.config.cli.positionals;
    if (!transport.acceptsPrompts && positionals.length > 0) {
      throw new UsageError(`Unexpected argument "${positionals[0]}": --mode ${mode} takes its input on stdin, not as arguments`);
    }
    return transport.serve(this);
  }

  /** Teardown, once; later calls share it. Resolves when plugins have drained and every answer is out. */
  shutdown(reason: ShutdownReason): Promise<void> {
    if (!this.#done) {
      this.#requested = reason;
      this.#signalClosing(reason);
      this.#done = this.#teardown(reason);
    }
    return this.#done;
  }

  async #teardown(reason: ShutdownReason): Promise<void> {
    const hooks = this.kernel.hooks;
    // Input is over: whatever waits on the client (a UI dialog) gives up now, so the records
    // already read can be answered; then the run is aborted and long work (bash) is cancelled.
    if (hooks.closing.isUsed()) await hooks.closing.promise({ reason }).catch(() => undefined);
    await this.#scheduler.idle("ordinary");
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.log.error(`shutdown: plugins did not drain within ${SHUTDOWN_TIMEOUT_MS} ms; exiting anyway`);
        resolve();
      }, SHUTDOWN_TIMEOUT_MS);
      timer.unref();
    });
    try {
      await Promise.race([hooks.shutdown.promise({ reason }), limit]);
    } catch (error) {
      this.log.error(`shutdown: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    await this.#scheduler.idle();
    // Last: what this agent shared with its siblings is released; the last holder closes it.
    await this.kernel.shared
      .releaseAll()
      .catch((error: unknown) => this.log.error(`shutdown: releasing shared resources: ${error instanceof Error ? error.message : String(error)}`));
  }
}
