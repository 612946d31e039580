/**
 * The agent's side of MCP tools: which of a server's tools are registered with the kernel (direct
 * ones once listed, deferred ones once `tool_search` loaded them, hidden ones never) and under
 * which names (stable across re-listings; naming.ts). A tool the server withdrew, or the tools of
 * a server that went away, are unregistered.
 */
import { loadJsonSchemaSupport, type OpenLayer, type ToolDefinition, type ToolRegistryView } from "../../kernel/index.js";
import type { Logger } from "../../kernel/index.js";
import { assignToolNames } from "./naming.js";
import { permissiveDefinition } from "./tool-definition.js";

export class AgentTools {
  readonly #layer: OpenLayer;
  readonly #view: ToolRegistryView;
  readonly #log: Logger;
  /** Agent tool name -> `<server>\0<tool>` (or a fixed key for the plugin's own tools). */
  readonly #owners = new Map<string, string>();
  /** Names this plugin registered. */
  readonly #registered = new Set<string>();
  readonly #warnedSchemas = new Set<string>();

  constructor(layer: OpenLayer, view: ToolRegistryView, log: Logger) {
    this.#layer = layer;
    this.#view = view;
    this.#log = log;
  }

  /** Loads the kernel's JSON Schema converter, so a schema it cannot take is found at registration. */
  prepare(): Promise<void> {
    return loadJsonSchemaSupport();
  }

  /** Names for a server's tools, keeping the ones they already have. */
  namesFor(server: string, tools: readonly string[]): Map<string, string> {
    const key = (tool: string) => `${server}\0${tool}`;
    const names = assignToolNames(server, tools, (name, tool) => {
      const owner = this.#owners.get(name);
      if (owner !== undefined) return owner !== key(tool);
      // A tool of the same name that is not ours (a built-in, an extension's).
      return this.#view.get(name) !== undefined && !this.#registered.has(name);
    });
    for (const [tool, name] of names) this.#owners.set(name, key(tool));
    return names;
  }

  /** Frees the names of tools a server no longer has (or of a server that is gone). */
  release(names: Iterable<string>): void {
    for (const name of names) {
      this.unregister(name);
      this.#owners.delete(name);
    }
  }

  /** The server and server tool name behind an agent tool name. */
  ownerOf(name: string): { server: string; tool: string } | undefined {
    const key = this.#owners.get(name);
    if (!key?.includes("\0")) return undefined;
    const [server, tool] = key.split("\0") as [string, string];
    return { server, tool };
  }

  isRegistered(name: string): boolean {
    return this.#registered.has(name);
  }

  /**
   * Registers (or replaces) a tool. Whether the model is offered it is the tool selection's say
   * (by default every registered tool; `--tools`, `--exclude-tools`, an extension's
   * `setActiveTools` may narrow it), as for any other tool.
   */
  register(definition: ToolDefinition): void {
    if (this.#registered.has(definition.name)) this.#layer.unregisterTool(definition.name);
    try {
      this.#layer.registerTool(definition);
    } catch (error) {
      const schema = (definition.parameters as { jsonSchema?: Record<string, unknown> }).jsonSchema;
      if (!schema) throw error;
      if (!this.#warnedSchemas.has(definition.name)) {
        this.#warnedSchemas.add(definition.name);
        this.#log.warn(`mcp: tool ${definition.name}: ${(error as Error).message}; it takes any arguments (its schema is in its description)`);
      }
      this.#layer.registerTool(permissiveDefinition(definition, schema));
    }
    this.#registered.add(definition.name);
    if (!this.#owners.has(definition.name)) this.#owners.set(definition.name, definition.name);
  }

  /** Whether the model is offered the tool now. */
  isOffered(name: string): boolean {
    return this.#view.isActive(name);
  }

  unregister(name: string): void {
    if (!this.#registered.delete(name)) return;
    this.#layer.unregisterTool(name);
  }
}
