/**
 * The CLI's help texts: `atomic --help` (the flags every plugin declares, so built from the
 * prepared host), `atomic config --help` and `atomic schema --help`. `atomic serve --help` is the
 * server plugin's (plugins/transport-server/serve-help.ts).
 */
import type { PreparedHost } from "../host/index.js";
import { MODE_USAGE } from "./mode.js";

export const CONFIG_HELP = `Usage: atomic config [options]

Shows what a start with these options would use, without serving: the agent dir and working
folder, each settings file and where every setting's value comes from (unknown keys, with the
nearest known one), models.json and auth.json, which providers have a key and from where (never
the key), the model a new session starts with, and every problem found, mcp.json's included (no
server is started). Exit 1 when there is one.

Options: those of \`atomic --mode rpc\` (see atomic --help), e.g. --model, --provider, --approve,
-e <extension>: the report shows what they would do.
`;

export const SCHEMA_HELP = `Usage: atomic schema [options]

Prints the protocol this build speaks as one JSON Schema document (draft 2020-12) on stdout: every
command with its input and its response's data, and every event, those of the plugins in your
settings and of the extensions loaded included (docs/protocol.md is generated from it).

Options: those of \`atomic --mode rpc\` (see atomic --help) that change what is registered, e.g.
-e <extension>, --no-extensions.
`;

export function helpText(prepared: PreparedHost): string {
  return [
    "atomic - a headless coding agent driven over JSON lines",
    "",
    "Usage:",
    "  atomic --mode rpc [options]       serve the RPC protocol on stdin/stdout",
    ...MODE_USAGE,
    "  atomic login [provider]           sign in with a subscription or account (Claude Pro/Max, ChatGPT, Copilot, ...)",
    "  atomic logout <provider>          remove a provider's stored login (or API key)",
    "  atomic auth set <provider>        store an API key (read from stdin; --force for a provider Atomic does not know)",
    "  atomic auth clear <provider>      remove a stored API key",
    "  atomic auth list                  show which providers have credentials, and from where",
    "  atomic models update [provider]   refresh the built-in model catalogs from models.dev (reset: back to the shipped data)",
    "  atomic config [options]           show where each setting comes from, models.json, credentials, problems",
    "  atomic mcp add|remove|list|test   configure MCP servers in mcp.json, check that they connect (atomic mcp help)",
    "  atomic install <source> [-l]      install a pi package (npm:<name>, git:<repo>, a folder) into your settings (-l: the project's)",
    "  atomic remove <source> [-l]       remove a package; atomic list: the configured packages; atomic update [source]: update them",
    "  atomic schema                     print the protocol as one JSON Schema document (atomic schema --help)",
    "  atomic --list-models [pattern]    print the models and whether their provider has credentials",
    "",
    "Options:",
    prepared.helpText(),
    "",
    "Environment: ATOMIC_CODING_AGENT_DIR (agent dir, default ~/.atomic/agent),",
    "ATOMIC_CODING_AGENT_SESSION_DIR, ATOMIC_COMPILE_CACHE (compiled-code cache folder, or off;",
    "default <agent dir>/cache/compile); provider keys such as ANTHROPIC_API_KEY, OPENAI_API_KEY,",
    "GEMINI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY (every provider: atomic auth list, docs/providers.md).",
    "",
    "Examples:",
    "  atomic --mode rpc --continue                        resume this folder's latest session",
    "  atomic --mode rpc --model anthropic/claude-sonnet-5-5:high",
    "  atomic --mode rpc --tools read,grep,find,ls         a read-only reviewer",
    "  atomic --mode rpc --models 'anthropic/*,gpt-5.5'    what cycle_model moves through",
    "",
  ].join("\n");
}
