/**
 * The command registry: name -> { input schema, lane, run }. The zod schema is the single
 * source of the handler's type, of the validation error text and of the JSON Schema that
 * documents the protocol. Transports are just callers of `invoke`.
 */
import { z } from "zod";
import { ErrorCode, isKernelError, KernelError, kernelErrors } from "./errors.js";
import { formatValidationError, ONE_SHOT } from "./validation.js";

/** Who sent a command: a transport name, "sdk", "extension", ... */
export type CommandSource = "rpc" | "json" | "print" | "acp" | "sdk" | "extension" | "cli" | (string & {});

/** immediate: handled as soon as read; ordinary: one at a time, in arrival order. */
export type Lane = "immediate" | "ordinary";

export interface CommandContext {
  /** The request id as sent (string or number), if any. */
  id?: string | number;
  /** Who called: the transport ("rpc", "acp", ...), "sdk", "extension". */
  source: CommandSource;
  /** Arrival order of the record (an `abort` applies to everything read before it). */
  seq: number;
  /**
   * Resolves once every ordinary record read before this one has been answered (at once for an
   * ordinary record): an immediate `abort` uses it to reach a run that a prompt read just before
   * it is about to start.
   */
  earlier?: () => Promise<void>;
}

export interface CommandDefinition<S extends z.ZodType = z.ZodType, R = unknown> {
  name: string;
  description?: string;
  /**
   * Fields of the command object (besides `type` and `id`); unknown keys are ignored. May be a
   * thunk: the schema is then built on first use, which keeps startup cheap.
   */
  input: S | (() => S);
  /**
   * The response's `data` (built on first use), or `NO_DATA` for a command whose success carries
   * none. It documents the response in `atomic schema`, and tests validate every response
   * against it; a command that declares neither is documented as answering any `data`.
   */
  output?: (() => z.ZodType) | typeof NO_DATA;
  lane?: Lane;
  /** A reply rather than a command (`extension_ui_response`): it gets no response, and bad input is only logged. */
  noResponse?: boolean;
  run(input: z.output<S>, ctx: CommandContext): R | Promise<R>;
}

/** `output` of a command whose successful response has no `data`. */
export const NO_DATA = "none" as const;

/** Identity helper that infers the handler's input type from its schema. */
export function defineCommand<S extends z.ZodType, R>(definition: CommandDefinition<S, R>): CommandDefinition<S, R> {
  return definition;
}

interface Entry {
  definition: CommandDefinition;
  plugin: string;
  schema?: z.ZodType;
}

function schemaOf(entry: Entry): z.ZodType {
  entry.schema ??= resolveSchema(entry.definition.input);
  return entry.schema;
}

/** A schema given directly or as a thunk (built lazily, once). */
export function resolveSchema<S extends z.ZodType>(input: S | (() => S)): S {
  return typeof input === "function" && !isZodSchema(input) ? (input as () => S)() : (input as S);
}

/** Duck-typed so schemas from another copy of zod v4 (a user plugin's) are recognised too. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (typeof value === "object" || typeof value === "function") && value !== null && "_zod" in value && typeof (value as { safeParse?: unknown }).safeParse === "function";
}

export class CommandRegistry {
  readonly #entries = new Map<string, Entry>();
  #frozen = false;

  register(definition: CommandDefinition<any, any>, plugin = "kernel"): void {
    if (this.#frozen) throw kernelErrors.frozen(`register command "${definition.name}"`);
    const existing = this.#entries.get(definition.name);
    if (existing) throw kernelErrors.duplicate("Command", definition.name, plugin, existing.plugin);
    this.#entries.set(definition.name, { definition, plugin });
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  lane(name: string): Lane {
    return this.#entries.get(name)?.definition.lane ?? "ordinary";
  }

  respondsTo(name: string): boolean {
    return this.#entries.get(name)?.definition.noResponse !== true;
  }

  /** The definition behind a command name (for the protocol schema). */
  definition(name: string): CommandDefinition | undefined {
    return this.#entries.get(name)?.definition;
  }

  /** The command's input schema (built now, if it was a thunk). */
  inputSchema(name: string): z.ZodType {
    const entry = this.#entries.get(name);
    if (!entry) throw kernelErrors.unknownCommand(name);
    return schemaOf(entry);
  }

  /** The plugin that registered a command. */
  ownerOf(name: string): string | undefined {
    return this.#entries.get(name)?.plugin;
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Validates `raw` against the command's schema, then runs it. Throws coded errors only. */
  async invoke(name: string, raw: Record<string, unknown>, ctx: CommandContext = { source: "sdk", seq: 0 }): Promise<unknown> {
    const entry = this.#entries.get(name);
    if (!entry) throw kernelErrors.unknownCommand(name);
    const parsed = schemaOf(entry).safeParse(raw, ONE_SHOT);
    if (!parsed.success) throw kernelErrors.invalidInput(formatValidationError(parsed.error));
    try {
      return await entry.definition.run(parsed.data, ctx);
    } catch (error) {
      if (isKernelError(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new KernelError(ErrorCode.INTERNAL, message, { plugin: entry.plugin, cause: error });
    }
  }

  /** JSON Schema of one command's input, including its `type` and optional `id`. */
  jsonSchema(name: string): Record<string, unknown> {
    const entry = this.#entries.get(name);
    if (!entry) throw kernelErrors.unknownCommand(name);
    const schema = z.toJSONSchema(schemaOf(entry), { unrepresentable: "any" }) as Record<string, unknown>;
    const properties = { type: { const: name }, id: { type: ["string", "number"] }, ...(schema.properties as object) };
    const required = ["type", ...((schema.required as string[] | undefined) ?? [])];
    return { ...schema, properties, required, description: entry.definition.description };
  }

  freeze(): void {
    this.#frozen = true;
  }
}
