/**
 * The LLM tool registry. Tools are not RPC commands: only the agent loop calls them, through
 * the hooks its owner declares. Parameters are a zod schema (validated here, and turned
 * into the JSON Schema the model sees) or, for foreign tools, a plain JSON Schema.
 * A later registration of a name overrides the earlier one, which stays reachable for
 * delegation (`overridden`); the active set decides what the model is offered.
 */
import type { z } from "zod";
import { ErrorCode, KernelError, kernelErrors } from "./errors.js";
import { formatValidationError, ONE_SHOT } from "./validation.js";
import { isZodSchema } from "./commands.js";
import {
  builtSchema,
  checkJsonSchemaShape,
  isJsonSchemaParameters,
  isResolvedJsonSchema,
  type JsonSchemaParameters,
  jsonSchemaValidator,
  validatorIfLoaded,
  toJsonSchema,
  toolJsonSchema,
} from "./tool-schemas.js";

export { loadJsonSchemaSupport, parametersJsonSchema, toolJsonSchema } from "./tool-schemas.js";

/** A tool as the LLM sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** What a tool hands back for the model: text and images (the message vocabulary's content blocks). */
export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** Tokens and dollars a tool's own model calls cost (the message vocabulary's `Usage`). */
export interface ToolUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export interface ToolResult {
  content: ToolContent[];
  details?: unknown;
  isError?: boolean;
  /** What the tool's own model calls used (codemode's `models.*`, pi's tool result `usage`): counted in the session's cost. */
  usage?: ToolUsage;
  /** A machine-readable result (its shape is the tool's `outputSchema`): what a tool calling this one receives. */
  structuredContent?: unknown;
  /** Ends the run after this tool batch, with no further LLM call, when every result of the batch says so (pi's `terminate`). */
  terminate?: boolean;
}

/** How a tool is reached (pi 1.x's `exposure`). */
export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/** Related tools under one heading (an MCP server's). */
export interface ToolNamespace {
  name: string;
  /** Other names the namespace is looked up by (the server name `docs` for `mcp__docs`). */
  aliases?: readonly string[];
  description?: string;
  /** Longer usage guidance, read on demand. */
  instructions?: string;
}

/** What a nested call (`executeTool`) comes back with: it never rejects for a tool's failure. */
export interface NestedToolOutcome {
  /** The id the nested call ran under (`<parent id>/<n>`). */
  toolCallId: string;
  result: ToolResult;
  isError: boolean;
}

export interface ToolExecutionContext {
  toolCallId: string;
  signal: AbortSignal;
  cwd: string;
  /** Report progress: the accumulated partial result so far (not a delta). */
  onUpdate(partial: ToolResult): void;
  /**
   * Runs another tool the way the model's own call runs (validation, the agent loop's hooks and
   * events) as a nested call of this one. Present where an agent loop runs the tool. Unknown,
   * blocked and invalid calls come back as error results.
   */
  executeTool?(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<NestedToolOutcome>;
}

export type ToolParameters<S extends z.ZodType = z.ZodType> = S | (() => S) | { jsonSchema: Record<string, unknown> };

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** A zod schema (or a thunk building it on first use), or a plain JSON Schema for foreign tools. */
  parameters: ToolParameters<S>;
  /** Runs on the model's raw arguments before validation (a foreign tool's compatibility shim). */
  prepareArguments?(args: unknown): unknown;
  /**
   * The JSON Schema of zod `parameters`, computed ahead (a built-in tool's generated file, kept
   * equal by a test): the model is shown it, so the first prompt of a process converts nothing.
   */
  precomputedJsonSchema?: Record<string, unknown>;
  /** False: registered but not offered to the model until a selection names it (pi's `defaultActive`). Default true. */
  defaultActive?: boolean;
  /**
   * How the tool is reached (default `direct`): `direct` is declared while active and callable by
   * other tools while active; `model-only` never by other tools; `codemode` and `deferred` by other
   * tools whenever registered (declared only when activated); `hidden` not at all.
   */
  exposure?: ToolExposure;
  namespace?: ToolNamespace;
  /** JSON Schema of `structuredContent`: a tool that declares one hands callers that value. */
  outputSchema?: Record<string, unknown>;
  /** How to use the tool well, for wherever the tool is listed. */
  promptGuidelines?: readonly string[];
  execute(args: z.output<S>, ctx: ToolExecutionContext): Promise<ToolResult>;
}

/**
 * Which tools the model is offered: the names (an allowlist), or a rule asked for every tool,
 * also for those registered later. `undefined`: every tool whose definition is `defaultActive`.
 */
export type ToolSelection = readonly string[] | ((name: string, definition: ToolDefinition) => boolean) | undefined;

/** Identity helper that infers `execute`'s argument type from the schema. */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

export type ToolValidation = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

interface Entry {
  definition: ToolDefinition;
  owner: string;
  schema?: z.ZodType | JsonSchemaParameters;
  /** The registration this one overrode, if any. */
  previous?: Entry;
}

/** What plugins read; registering and activation go through the kernel context. */
export interface ToolRegistryView {
  get(name: string): ToolDefinition | undefined;
  /** The definition `name` overrode (e.g. the built-in `read` under an extension's wrapper). */
  overridden(name: string): ToolDefinition | undefined;
  ownerOf(name: string): string | undefined;
  names(): string[];
  /** Names offered to the model, in registration order. */
  activeNames(): string[];
  isActive(name: string): boolean;
  /** Whether another tool may run it (ToolExecutionContext.executeTool): by its exposure and, for `direct` tools, the active set. */
  isCallable(name: string): boolean;
  /** What the model is told about the active tools. */
  specs(): ToolSpec[];
  /** Async only because a JSON Schema tool's first call may load the converter. */
  validate(name: string, args: unknown, options?: { nested?: boolean }): Promise<ToolValidation>;
}

export class ToolRegistry implements ToolRegistryView {
  readonly #tools = new Map<string, Entry>();
  #active: Set<string> | ((name: string, definition: ToolDefinition) => boolean) | undefined;
  #specs: ToolSpec[] | undefined;
  #frozen = false;

  /** Registers or overrides a tool. `late`: an open layer's registration, allowed after boot. */
  register(definition: ToolDefinition<any>, owner = "kernel", options: { late?: boolean } = {}): void {
    if (this.#frozen && !options.late) throw kernelErrors.frozen(`register tool "${definition.name}"`);
    if (!definition || typeof definition.name !== "string" || definition.name === "") throw kernelErrors.invalidInput(`Tool from "${owner}" needs a name`);
    if (typeof definition.execute !== "function") throw kernelErrors.invalidInput(`Tool "${definition.name}" from "${owner}" needs an execute function`);
    const previous = this.#tools.get(definition.name);
    // Validate a zod/JSON Schema now so a bad schema fails at registration, naming the tool.
    const entry: Entry = { definition, owner, ...(previous ? { previous } : {}) };
    if (options.late) {
      const parameters = this.#parametersOf(entry);
      // Only for a tool offered now: thousands of deferred MCP tools would each hold a validator
      // few are ever called with (built on the first call, as for tools registered at boot).
      if (isResolvedJsonSchema(parameters) && this.#offeredWhenRegistered(definition)) parameters.validator ??= validatorIfLoaded(parameters);
    }
    this.#tools.set(definition.name, entry);
    this.#specs = undefined;
  }

  /**
   * Removes `owner`'s registration of `name` (an open layer's tool whose source withdrew it): the
   * registration it overrode, if any, stands again. Returns false when `owner` does not hold it.
   */
  unregister(name: string, owner: string): boolean {
    const entry = this.#tools.get(name);
    if (!entry || entry.owner !== owner) return false;
    if (entry.previous) this.#tools.set(name, entry.previous);
    else this.#tools.delete(name);
    this.#specs = undefined;
    return true;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.definition;
  }

  overridden(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.previous?.definition;
  }

  ownerOf(name: string): string | undefined {
    return this.#tools.get(name)?.owner;
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  activeNames(): string[] {
    return this.names().filter((name) => this.isActive(name));
  }

  isActive(name: string): boolean {
    const entry = this.#tools.get(name);
    if (!entry) return false;
    const active = this.#active;
    if (active === undefined) return entry.definition.defaultActive !== false;
    return typeof active === "function" ? active(name, entry.definition) : active.has(name);
  }

  /** isActive for a definition not in the registry yet. */
  #offeredWhenRegistered(definition: ToolDefinition): boolean {
    const active = this.#active;
    if (active === undefined) return definition.defaultActive !== false;
    return typeof active === "function" ? active(definition.name, definition) : active.has(definition.name);
  }

  isCallable(name: string): boolean {
    const definition = this.#tools.get(name)?.definition;
    if (!definition) return false;
    const exposure = definition.exposure ?? "direct";
    if (exposure === "codemode" || exposure === "deferred") return true;
    return exposure === "direct" && this.isActive(name);
  }

  /** What the model is offered (see ToolSelection). Unknown names in a list fail. */
  setActive(names: ToolSelection): void {
    if (names === undefined) {
      this.#active = undefined;
    } else if (typeof names === "function") {
      this.#active = names;
    } else {
      const unknown = names.filter((name) => !this.#tools.has(name));
      if (unknown.length > 0) {
        throw new KernelError(ErrorCode.NOT_FOUND, `Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} (registered: ${this.names().join(", ") || "none"})`);
      }
      this.#active = new Set(names);
    }
    this.#specs = undefined;
  }

  specs(): ToolSpec[] {
    this.#specs ??= this.activeNames().map((name) => {
      const entry = this.#tools.get(name)!;
      const { definition } = entry;
      const parameters = definition.precomputedJsonSchema ? toolJsonSchema(definition) : toJsonSchema(this.#parametersOf(entry));
      return { name, description: definition.description, parameters };
    });
    return this.#specs;
  }

  /** `nested`: for a call another tool makes, which may reach what isCallable allows (not the active set). */
  async validate(name: string, args: unknown, options: { nested?: boolean } = {}): Promise<ToolValidation> {
    const entry = this.#tools.get(name);
    if (!entry || !(options.nested ? this.isCallable(name) : this.isActive(name))) return { ok: false, error: `Tool ${name} not found` };
    const parameters = this.#parametersOf(entry);
    const failed = (detail: string): ToolValidation => ({ ok: false, error: `Validation failed for tool "${name}": ${detail}` });
    let raw = args ?? {};
    if (entry.definition.prepareArguments) {
      try {
        raw = entry.definition.prepareArguments(raw) ?? {};
      } catch (error) {
        return failed(`preparing the arguments failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const check = (validator: z.ZodType): ToolValidation => {
      const parsed = validator.safeParse(raw, ONE_SHOT);
      return parsed.success ? { ok: true, args: parsed.data as Record<string, unknown> } : failed(formatValidationError(parsed.error));
    };
    if (!isResolvedJsonSchema(parameters)) return check(parameters);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return failed("arguments must be an object");
    // A required key may have no property schema: the converter does not enforce those.
    const missing = ((parameters.jsonSchema.required as string[] | undefined) ?? []).filter((key) => !(key in raw));
    if (missing.length > 0) return failed(`Invalid ${missing[0]}: expected a value`);
    let validator: z.ZodType;
    try {
      parameters.validator ??= await jsonSchemaValidator(parameters);
      validator = parameters.validator;
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    return check(validator);
  }

  freeze(): void {
    this.#frozen = true;
  }

  /** The tool's parameters, with a lazy schema built on first use. */
  #parametersOf(entry: Entry): z.ZodType | JsonSchemaParameters {
    if (entry.schema) return entry.schema;
    const parameters = entry.definition.parameters;
    if (isJsonSchemaParameters(parameters)) {
      const label = `Tool "${entry.definition.name}" from "${entry.owner}"`;
      checkJsonSchemaShape(parameters.jsonSchema, label);
      entry.schema = { jsonSchema: parameters.jsonSchema, label };
    } else {
      const schema = builtSchema(parameters as z.ZodType | (() => z.ZodType));
      if (!isZodSchema(schema)) throw kernelErrors.invalidInput(`Tool "${entry.definition.name}" from "${entry.owner}": parameters must be a zod schema or { jsonSchema }`);
      entry.schema = schema;
    }
    return entry.schema;
  }
}
