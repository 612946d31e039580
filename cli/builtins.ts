/**
 * The built-in plugins compiled into Atomic, by name. Static imports so the production bundle
 * holds them all in one file (one module load instead of one per plugin); what plugins import
 * lazily (SDKs, renderers) still loads on first use.
 */
import transportRpc from "../plugins/transport-rpc/index.js";
import agent from "../plugins/agent/index.js";
import models from "../plugins/models/index.js";
import providerReplay from "../plugins/provider-replay/index.js";
import providerAnthropic from "../plugins/provider-anthropic/index.js";
import providerOpenai from "../plugins/provider-openai/index.js";
import providerGoogle from "../plugins/provider-google/index.js";
import tools from "../plugins/tools/index.js";
import bash from "../plugins/bash/index.js";
import retry from "../plugins/retry/index.js";
import contextFiles from "../plugins/context-files/index.js";
import session from "../plugins/session/index.js";
import sessionJsonl from "../plugins/session-jsonl/index.js";
import exportHtml from "../plugins/export-html/index.js";

export const BUILTIN_MODULES: Record<string, () => Promise<unknown>> = {
  "transport-rpc": async () => transportRpc,
  agent: async () => agent,
  models: async () => models,
  "provider-replay": async () => providerReplay,
  "provider-anthropic": async () => providerAnthropic,
  "provider-openai": async () => providerOpenai,
  "provider-google": async () => providerGoogle,
  tools: async () => tools,
  bash: async () => bash,
  retry: async () => retry,
  "context-files": async () => contextFiles,
  session: async () => session,
  "session-jsonl": async () => sessionJsonl,
  "export-html": async () => exportHtml,
};
