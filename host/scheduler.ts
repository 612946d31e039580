/**
 * The command scheduler every transport and the SDK share. Two lanes (docs/decisions.md, Lanes): the
 * immediate lane runs a record as soon as it is submitted (abort, bash, UI replies); the
 * ordinary lane runs one record at a time, in arrival order. Every record but a reply gets
 * exactly one response; every error becomes `success: false` text, never a stack.
 *
 * The ordinary lane does not run ahead of a congested output (a client that stopped reading
 * stdout): before each record it waits for the transport's drain. Without that, one stdin
 * chunk of 800 `get_messages` ran all 800 and queued their 800 MiB of answers in memory;
 * the transport's input gate only stops the *next* read.
 */
import { toKernelError, type CommandRegistry, type Id, type Logger, type Response, type SubmitOptions } from "../kernel/index.js";

export const INVALID_COMMAND = 'Invalid command: expected a JSON object with a string "type"';

export class Scheduler {
  readonly #commands: Pick<CommandRegistry, "has" | "lane" | "invoke" | "respondsTo">;
  readonly #log: Logger;
  #ordinary: Promise<void> = Promise.resolve();
  readonly #inFlight = new Set<Promise<void>>();
  #seq = 0;
  readonly #congestion: (() => Promise<void> | undefined) | undefined;

  /** `congestion`: undefined while output keeps up, else a promise that resolves when it drains (the kernel's `events.drain`). */
  constructor(commands: Pick<CommandRegistry, "has" | "lane" | "invoke" | "respondsTo">, log: Logger, congestion?: () => Promise<void> | undefined) {
    this.#commands = commands;
    this.#log = log;
    this.#congestion = congestion;
  }

  /** Resolves once every record submitted so far has been answered (`ordinary`: the ordinary lane only). */
  async idle(lane?: "ordinary"): Promise<void> {
    if (lane === "ordinary") {
      let last: Promise<void> | undefined;
      while (last !== this.#ordinary) await (last = this.#ordinary);
      return;
    }
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Schedules one decoded record; resolves once it is answered. */
  submit(record: unknown, options: SubmitOptions): Promise<void> {
    const seq = ++this.#seq;
    const object = typeof record === "object" && record !== null && !Array.isArray(record) ? (record as Record<string, unknown>) : undefined;
    // Only an id that can be echoed exactly is echoed (1e400 parses to Infinity, which JSON writes as null).
    const badId = object && Object.hasOwn(object, "id") ? idError(object.id) : undefined;
    const id = object && !badId && Object.hasOwn(object, "id") ? (object.id as Id) : undefined;
    if (!object || typeof object.type !== "string") return this.#ordinaryTask(async () => options.respond(failure(id, "unknown", INVALID_COMMAND)));

    const type = object.type;
    const commands = this.#commands;
    const known = commands.has(type);
    const immediate = known && commands.lane(type) === "immediate";
    // For an immediate record: the ordinary work read before it (the tail of the lane right now).
    const before = this.#ordinary;
    const earlier = immediate ? () => before : () => Promise.resolve();
    const answers = !known || commands.respondsTo(type);
    const run = async () => {
      if (badId) return answers ? options.respond(failure(undefined, type, badId)) : this.#log.warn(`Ignored ${type}: ${badId}`);
      if (!known) return options.respond(failure(id, type, `Unknown command: ${type}`));
      try {
        const data = await commands.invoke(type, object, { ...(id === undefined ? {} : { id }), source: options.source, seq, earlier });
        if (answers)
          options.respond(withId(id, data === undefined ? { type: "response", command: type, success: true } : { type: "response", command: type, success: true, data }));
      } catch (error) {
        const coded = toKernelError(error);
        if (!answers) return this.#log.warn(`Ignored ${type}: ${coded.message}`);
        options.failed?.(coded);
        options.respond(failure(id, type, coded.message));
      }
    };
    return immediate ? this.#track(run()) : this.#ordinaryTask(run);
  }

  /** Answers an undecodable input in order with the ordinary lane. */
  reject(response: Response, options: Pick<SubmitOptions, "respond">): void {
    ++this.#seq;
    void this.#ordinaryTask(async () => options.respond(response));
  }

  #ordinaryTask(task: () => Promise<void>): Promise<void> {
    const next = this.#ordinary.then(() => this.#outputDrained()).then(task);
    this.#ordinary = next.catch(() => undefined);
    return this.#track(next);
  }

  /** Resolves once output is not congested (at once, without a promise hop, in the common case). */
  #outputDrained(): Promise<void> | void {
    const wait = this.#congestion?.();
    if (!wait) return;
    // Another record (an event) may congest it again before this one runs.
    return wait.then(() => this.#outputDrained());
  }

  #track(promise: Promise<void>): Promise<void> {
    const tracked = promise.catch((error: unknown) => this.#log.error(`command failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
    return tracked;
  }
}

/** Why an `id` field is unusable: it must be a string or a finite number (the protocol's correlation id). */
function idError(value: unknown): string | undefined {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return undefined;
  return typeof value === "number" ? "Invalid id: expected a finite number" : "Invalid id: expected string or number";
}

export function failure(id: Id | undefined, command: string, error: string): Response {
  return withId(id, { type: "response", command, success: false, error }) as Response;
}

function withId(id: Id | undefined, response: Response): Response {
  return id === undefined ? response : ({ id, ...response } as Response);
}
