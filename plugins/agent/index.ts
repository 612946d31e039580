/**
 * Plugin `agent`: the provider-agnostic core (conversation state, turn loop, queues) and its
 * commands. Every other feature plugs into it through hooks and the `agent` service.
 */
import { definePlugin, type EventName } from "../../kernel/index.js";
import { messageVocabulary } from "../../lib/llm/index.js";
import type {} from "../settings/api.js";
import { Agent } from "./agent.js";
import { agentCommands } from "./commands.js";
import { MessageUpdateWireSchema, QueueUpdateSchema, RUN_EVENT_SCHEMAS, ThinkingLevelChangedSchema } from "./events.js";
import { agentHookDeclarations } from "./hooks.js";
import { agentFlags, agentSettings } from "./settings.js";
import { baseSystemPrompt, environmentFooter, promptText, type CustomPrompt } from "./system-prompt.js";

export type { AgentApi, CompletionRequest, PromptDisposition, PromptInput, QueuedInputDisposition, QueueMode, StateContributor } from "./api.js";

export default definePlugin({
  name: "agent",
  description: "Conversation state, the turn loop, steering/follow-up queues and the prompt commands.",
  provides: ["agent"],
  requires: ["settings"],
  settings: agentSettings,
  flags: agentFlags,
  hooks: agentHookDeclarations,
  async apply(k) {
    const agent = new Agent(k, k.ownHooks(agentHookDeclarations));
    k.provide("agent", agent);
    for (const [name, schema] of Object.entries(RUN_EVENT_SCHEMAS)) k.registerEvent(name as EventName, (name === "message_update" ? MessageUpdateWireSchema : schema) as never);
    k.registerEvent("queue_update", QueueUpdateSchema);
    k.registerEvent("thinking_level_changed", ThinkingLevelChangedSchema);
    k.registerVocabulary(messageVocabulary());
    const settings = k.service("settings");
    for (const command of agentCommands(agent, (patch) => settings.update(patch))) k.registerCommand(command);
    const { cli, cwd, env } = k.config;
    const warnOf = (flag: string) => (message: string) => k.log.warn(`${flag}: ${message}`);
    const [systemPrompt, append] = await Promise.all([
      promptText(cli.systemPrompt, cwd, env, warnOf("--system-prompt")),
      promptText(cli.appendSystemPrompt, cwd, env, warnOf("--append-system-prompt")),
    ]);
    const custom: CustomPrompt = { ...(systemPrompt ? { systemPrompt } : {}), ...(append ? { append } : {}) };
    // Persona and tools first, date and cwd last: context files and skills go in between.
    k.hooks.system_prompt.tap({ name: k.name, order: "pre" }, (prompt, context) => baseSystemPrompt(prompt, context, custom));
    k.hooks.system_prompt.tap({ name: k.name, order: "post" }, (prompt, context) => environmentFooter(prompt, context));
    // The startup level (settings, --thinking, a resumed session) is chosen by now; later changes are news.
    k.hooks.boot_start.tap({ name: k.name, order: "post" }, () => agent.goLive());
    // Teardown (EOF, signals): the running run ends with its closing events.
    k.hooks.shutdown.tapPromise(k.name, () => agent.abort());
  },
});
