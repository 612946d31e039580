/**
 * Plugin `agent`: the provider-agnostic core (conversation state, turn loop, queues) and its
 * commands. Every other feature plugs into it through hooks and the `agent` service.
 */
import { definePlugin, STAGE } from "../../kernel/index.js";
import { Agent } from "./agent.js";
import { agentCommands } from "./commands.js";
import { baseSystemPrompt } from "./system-prompt.js";

export type { AgentApi, PromptInput, QueueMode, StateContributor } from "./api.js";

export default definePlugin({
  name: "agent",
  description: "Conversation state, the turn loop, steering/follow-up queues and the prompt commands.",
  apply(k) {
    const agent = new Agent(k);
    k.provide("agent", agent);
    for (const command of agentCommands(agent)) k.registerCommand(command);
    // Runs first so other plugins append project context after the base instructions.
    k.hooks.system_prompt.tap({ name: k.name, stage: STAGE.FIRST }, (prompt, context) => baseSystemPrompt(prompt, context));
    // Teardown (EOF, signals): the running run ends with its closing events.
    k.hooks.shutdown.tapPromise(k.name, () => agent.abort());
  },
});
