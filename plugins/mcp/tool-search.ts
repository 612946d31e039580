/**
 * `tool_search`: finds tools that are not declared to the model yet (MCP tools with `deferred`
 * exposure) by words of their name, description, parameters and server, and loads the best
 * matches so they are declared from the model's next call on. Ranking is minisearch's BM25+
 * (loaded on the first search), with the name counting most; a query that is a tool's whole
 * name (or the part after its server) puts that tool first.
 */
import type { ToolDefinition } from "../../kernel/index.js";

export const TOOL_SEARCH = "tool_search";
const DEFAULT_LIMIT = 8;
/** Matches scoring below this share of the best one are left out. */
const RELATIVE_SCORE = 0.3;
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "that",
  "the",
  "this",
  "to",
  "with",
  "me",
  "my",
  "i",
  "tool",
  "tools",
  "mcp",
]);
const MAX_LIMIT = 25;

export interface SearchCandidate {
  name: string;
  description: string;
  /** Property names and descriptions of its parameters. */
  parameters: string;
  /** Its server's name, description and instructions. */
  server: string;
}

export interface ToolSearchHost {
  /** Waits (bounded) for servers with deferred tools that are still connecting. */
  ready(signal: AbortSignal): Promise<void>;
  candidates(): SearchCandidate[];
  /** The best matches among the candidates, best first. */
  rank(query: string, limit: number): Promise<string[]>;
  /** Registers the named tools; returns those it loaded. */
  load(names: string[]): string[];
  /** Whether the tool selection offers a tool to the model. */
  offered(name: string): boolean;
}

const DESCRIPTION = `Finds tools that are not loaded yet (tools of MCP servers the user set to "deferred") and loads the best matches: they can be called from your next turn on. Search with words of what you need done (e.g. "create issue", "query database"); a tool's exact name also works. Use it before concluding that no tool fits.`;

export function toolSearchTool(host: ToolSearchHost): ToolDefinition {
  return {
    name: TOOL_SEARCH,
    description: DESCRIPTION,
    parameters: {
      jsonSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words describing the tool you need, or its name." },
          limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `How many tools to load at most (default ${DEFAULT_LIMIT}).` },
        },
        required: ["query"],
      },
    },
    async execute(args, ctx) {
      const query = String((args as { query?: unknown }).query ?? "").trim();
      if (query === "") throw new Error("query must not be empty: give words describing the tool you need");
      const limit = (args as { limit?: number }).limit ?? DEFAULT_LIMIT;
      await host.ready(ctx.signal);
      const candidates = host.candidates();
      const ranked = await host.rank(query, limit);
      const registered = host.load(ranked);
      // The tool selection (--tools, --exclude-tools) still decides what the model is offered.
      const loaded = registered.filter((name) => host.offered(name));
      const withheld = registered.filter((name) => !host.offered(name));
      const note = withheld.length > 0 ? `\nNot offered by the tool selection (--tools / --exclude-tools): ${withheld.join(", ")}` : "";
      if (loaded.length === 0) {
        const text =
          withheld.length > 0
            ? `No tool could be loaded.${note}`
            : candidates.length === 0
              ? "No tools are waiting to be loaded: every tool there is is already available to you."
              : `No tool matches "${query}". Try other words.`;
        return { content: [{ type: "text", text }], details: { loaded: [], withheld } };
      }
      const byName = new Map(candidates.map((candidate) => [candidate.name, candidate]));
      const lines = loaded.map((name) => `- ${name}: ${firstLine(byName.get(name)?.description ?? "")}`);
      return {
        content: [{ type: "text", text: `Loaded ${loaded.length} tool${loaded.length === 1 ? "" : "s"}; call them from your next turn:\n${lines.join("\n")}${note}` }],
        details: { loaded, withheld },
      };
    },
  };
}

/** The names of the best matches, best first. */
export async function rankTools(query: string, candidates: readonly SearchCandidate[], limit: number): Promise<string[]> {
  return (await buildSearchIndex(candidates)).rank(query, limit);
}

/** Candidates indexed once, searched many times (a server's tools change far less often than the model searches). */
export interface SearchIndex {
  /** The best matches among those `eligible` keeps, best first. */
  rank(query: string, limit: number, eligible?: (name: string) => boolean): string[];
}

/** A description is indexed up to here: a flood of long ones would make every search take seconds. */
const INDEXED_DESCRIPTION_CHARS = 1024;

export async function buildSearchIndex(candidates: readonly SearchCandidate[]): Promise<SearchIndex> {
  const { default: MiniSearch } = await import("minisearch");
  const index = new MiniSearch<SearchCandidate & { words: string }>({
    idField: "name",
    fields: ["words", "description", "parameters", "server"],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
    searchOptions: {
      boost: { words: 3, description: 1, parameters: 0.6, server: 0.4 },
      // Short words only match as written or as a prefix: fuzzy matching makes "text" find "next".
      prefix: (term) => term.length > 2,
      fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      combineWith: "OR",
    },
  });
  index.addAll(candidates.map((candidate) => ({ ...candidate, description: candidate.description.slice(0, INDEXED_DESCRIPTION_CHARS), words: words(candidate.name) })));
  return {
    rank(query, limit, eligible = () => true) {
      if (candidates.length === 0) return [];
      const wanted = identifier(query);
      const exact = candidates
        .filter((candidate) => eligible(candidate.name) && (identifier(candidate.name) === wanted || identifier(candidate.name).endsWith(`__${wanted}`)))
        .map((candidate) => candidate.name);
      const hits = index.search(words(query), { filter: (hit) => eligible(String(hit.id)) });
      // A tool that only shares a word in passing is not loaded beside those that match well.
      const best = hits[0]?.score ?? 0;
      const good = hits.filter((hit) => hit.score >= best * RELATIVE_SCORE).map((hit) => String(hit.id));
      return [...new Set([...exact, ...good])].slice(0, limit);
    },
  };
}

/** `mcp__github__create_issue` and `createIssue` read as their words. */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function identifier(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_");
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** Property names and descriptions of a JSON Schema, a level deep: what the search reads of parameters. */
export function schemaWords(schema: Record<string, unknown> | undefined): string {
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null) return "";
  return Object.entries(properties as Record<string, { description?: unknown }>)
    .map(([key, value]) => `${key} ${typeof value?.description === "string" ? value.description : ""}`)
    .join(" ");
}
