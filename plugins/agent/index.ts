/**
 * Plugin `agent`: the provider-agnostic core (conversation state, turn loop, queues) and its
 * commands. Every other feature plugs into it through hooks and the `agent` service.
 */
import { definePlugin, saveUserSettings, STAGE } from "../../kernel/index.js";
import { Agent } from "./agent.js";
import { agentCommands } from "./commands.js";
import { baseSystemPrompt, environmentFooter } from "./system-prompt.js";

export type { AgentApi, PromptInput, QueueMode, StateContributor } from "./api.js";

export default definePlugin({
  name: "agent",
  description: "Conversation state, the turn loop, steering/follow-up queues and the prompt commands.",
  apply(k) {
    const agent = new Agent(k);
    k.provide("agent", agent);
    // A preference that cannot be saved still applies to this process; the failure is logged.
    const persist = (patch: Record<string, unknown>) =>
      saveUserSettings(k.config.agentDir, patch).catch((error: unknown) => k.log.warn(`could not save settings: ${error instanceof Error ? error.message : String(error)}`));
    for (const command of agentCommands(agent, persist)) k.registerCommand(command);
    // Persona and tools first, date and cwd last: context files and skills go in between.
    k.hooks.system_prompt.tap({ name: k.name, stage: STAGE.FIRST }, (prompt, context) => baseSystemPrompt(prompt, context));
    k.hooks.system_prompt.tap({ name: k.name, stage: STAGE.LAST }, (prompt, context) => environmentFooter(prompt, context));
    // Teardown (EOF, signals): the running run ends with its closing events.
    k.hooks.shutdown.tapPromise(k.name, () => agent.abort());
  },
});
