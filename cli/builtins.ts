/**
 * The built-in plugins every process loads: the one list, shared by the CLI, the SDK and tests.
 * Static imports so the production bundle holds them all in one file (one module load instead of
 * one per plugin); what plugins import lazily (SDKs, renderers) still loads on first use.
 */
import type { PluginDefinition } from "../kernel/index.js";
import transportRpc from "../plugins/transport-rpc/index.js";
import transportPrint from "../plugins/transport-print/index.js";
import transportAcp from "../plugins/transport-acp/index.js";
import transportServer from "../plugins/transport-server/index.js";
import eventOptions from "../plugins/event-options/index.js";
import settings from "../plugins/settings/index.js";
import agent from "../plugins/agent/index.js";
import models from "../plugins/models/index.js";
import login from "../plugins/login/index.js";
import providerReplay from "../plugins/provider-replay/index.js";
import providerCatalog from "../plugins/provider-catalog/index.js";
import providerAnthropic from "../plugins/provider-anthropic/index.js";
import providerOpenai from "../plugins/provider-openai/index.js";
import providerGoogle from "../plugins/provider-google/index.js";
import providerBedrock from "../plugins/provider-bedrock/index.js";
import providerPiMessages from "../plugins/provider-pi-messages/index.js";
import tools from "../plugins/tools/index.js";
import sandbox from "../plugins/sandbox/index.js";
import bash from "../plugins/bash/index.js";
import retry from "../plugins/retry/index.js";
import compaction from "../plugins/compaction/index.js";
import contextFiles from "../plugins/context-files/index.js";
import session from "../plugins/session/index.js";
import sessionJsonl from "../plugins/session-jsonl/index.js";
import exportHtml from "../plugins/export-html/index.js";
import slashCommands from "../plugins/slash-commands/index.js";
import skills from "../plugins/skills/index.js";
import promptTemplates from "../plugins/prompt-templates/index.js";
import packages from "../plugins/packages/index.js";
import extensions from "../plugins/extensions/index.js";
import mcp from "../plugins/mcp/index.js";
import codemode from "../plugins/codemode/index.js";

/** In a stable order; the kernel re-orders by dependencies. */
export const BUILTIN_PLUGINS: readonly PluginDefinition[] = [
  transportRpc,
  transportPrint,
  transportAcp,
  transportServer,
  eventOptions,
  settings,
  agent,
  models,
  login,
  // The built-in providers and their models (data); the adapters below stream them.
  providerCatalog,
  providerAnthropic,
  providerOpenai,
  providerGoogle,
  providerBedrock,
  providerPiMessages,
  // After the vendors: the offline replay models come last in listings and cycles.
  providerReplay,
  tools,
  sandbox,
  bash,
  retry,
  compaction,
  contextFiles,
  session,
  sessionJsonl,
  exportHtml,
  slashCommands,
  skills,
  promptTemplates,
  packages,
  mcp,
  codemode,
  extensions,
];

/** Built-in names a user's `plugins` setting may list, resolved without touching the disk. */
export const BUILTIN_MODULES: Record<string, () => Promise<unknown>> = Object.fromEntries(BUILTIN_PLUGINS.map((plugin) => [plugin.name, async () => plugin]));
