/**
 * Turns input lines into command invocations and exactly one response each. Two lanes: the
 * immediate lane runs as soon as a line is read (abort, bash, UI replies); the ordinary lane
 * runs one command at a time in arrival order. Every error becomes `success:false` text.
 */
import { toKernelError, type CommandRegistry } from "../../kernel/index.js";

export const INVALID_COMMAND = 'Invalid command: expected a JSON object with a string "type"';

type Id = string | number;

export interface DispatcherOptions {
  commands: Pick<CommandRegistry, "has" | "lane" | "invoke">;
  respond(record: Record<string, unknown>): void;
  /** Delivers an extension_ui_response; replies get no response of their own. */
  onUiResponse(reply: Record<string, unknown>): void;
  onInternalError(error: unknown): void;
}

export class Dispatcher {
  readonly #options: DispatcherOptions;
  #ordinary: Promise<void> = Promise.resolve();
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Resolves once every command read so far has been answered. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  handleLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.#enqueueOrdinary(async () => {
        this.#options.respond({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` });
      });
      return;
    }
    const object = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    // Only an id that can be echoed exactly is echoed (1e400 parses to Infinity, which JSON writes as null).
    const badId = object && Object.hasOwn(object, "id") ? idError(object.id) : undefined;
    const id = object && !badId && Object.hasOwn(object, "id") ? (object.id as Id) : undefined;
    if (!object || typeof object.type !== "string") {
      this.#enqueueOrdinary(async () => this.#fail(id, "unknown", INVALID_COMMAND));
      return;
    }
    const type = object.type;
    if (type === "extension_ui_response") {
      if (typeof object.id === "string") this.#options.onUiResponse(object);
      else this.#enqueueImmediate(async () => this.#fail(id, type, "Invalid id: expected string"));
      return;
    }
    const commands = this.#options.commands;
    const run = async () => {
      if (badId) return this.#fail(undefined, type, badId);
      if (!commands.has(type)) return this.#fail(id, type, `Unknown command: ${type}`);
      try {
        const data = await commands.invoke(type, object, id === undefined ? {} : { id });
        this.#options.respond(withId(id, data === undefined ? { type: "response", command: type, success: true } : { type: "response", command: type, success: true, data }));
      } catch (error) {
        this.#fail(id, type, toKernelError(error).message);
      }
    };
    if (commands.has(type) && commands.lane(type) === "immediate") this.#enqueueImmediate(run);
    else this.#enqueueOrdinary(run);
  }

  #fail(id: Id | undefined, command: string, error: string): void {
    this.#options.respond(withId(id, { type: "response", command, success: false, error }));
  }

  #enqueueImmediate(task: () => Promise<void>): void {
    this.#track(task());
  }

  #enqueueOrdinary(task: () => Promise<void>): void {
    const next = this.#ordinary.then(task);
    this.#ordinary = next.catch(() => undefined);
    this.#track(next);
  }

  #track(promise: Promise<void>): void {
    const tracked = promise.catch((error: unknown) => this.#options.onInternalError(error));
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }
}

/** Why an `id` field is unusable: it must be a string or a finite number (the spec's correlation id). */
function idError(value: unknown): string | undefined {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return undefined;
  return typeof value === "number" ? "Invalid id: expected a finite number" : "Invalid id: expected string or number";
}

function withId(id: Id | undefined, response: Record<string, unknown>): Record<string, unknown> {
  return id === undefined ? response : { id, ...response };
}
