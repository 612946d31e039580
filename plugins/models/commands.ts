/** The model and thinking RPC commands, exactly as the spec shows them. One zod schema each. */
import { z } from "zod";
import { THINKING_LEVELS, defineCommand, publicModel, type CommandDefinition } from "../../kernel/index.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "./api.js";
import type { ModelSelection } from "./selection.js";

export function modelCommands(models: ModelsApi, selection: ModelSelection, agent: AgentApi): CommandDefinition<any, any>[] {
  return [
    defineCommand({
      name: "get_available_models",
      description: "Models whose provider has credentials, as full Model objects.",
      input: () => z.object({}),
      run: () => ({ models: models.available().map(publicModel) }),
    }),
    defineCommand({
      name: "set_model",
      description: "Switch to an available model; persisted as the default.",
      input: () => z.object({ provider: z.string(), modelId: z.string() }),
      run: async ({ provider, modelId }) => publicModel(await selection.setModel(provider, modelId)),
    }),
    defineCommand({
      name: "cycle_model",
      description: "Switch to the next available model; null with fewer than two.",
      input: () => z.object({ direction: z.enum(["forward", "backward"]).optional() }),
      run: async ({ direction }) => {
        const result = await selection.cycleModel(direction);
        return result && { ...result, model: publicModel(result.model) };
      },
    }),
    defineCommand({
      name: "logout_provider",
      description: "Remove a provider's stored credential and return the remaining auth status and catalog.",
      input: () => z.object({ provider: z.string() }),
      run: async ({ provider }) => {
        await models.removeStoredKey(provider);
        const scopedModels = selection.scope
          .filter((entry) => models.authStatus(entry.model.provider).configured)
          .map((entry) => ({ model: publicModel(entry.model), ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}) }));
        return { provider, authStatus: models.authStatus(provider), models: models.available().map(publicModel), scopedModels };
      },
    }),
    defineCommand({
      name: "set_thinking_level",
      description: "Set the thinking level; clamped to what the model supports.",
      input: () => z.object({ level: z.enum(THINKING_LEVELS) }),
      run: async ({ level }) => {
        await selection.setThinkingLevel(level);
      },
    }),
    defineCommand({
      name: "cycle_thinking_level",
      description: "Next thinking level in cycle order; null when the model has no thinking.",
      input: () => z.object({}),
      run: () => selection.cycleThinkingLevel(),
    }),
    defineCommand({
      name: "get_available_thinking_levels",
      description: "Thinking levels the current model supports, in cycle order.",
      input: () => z.object({}),
      run: () => ({ levels: agent.availableThinkingLevels() }),
    }),
  ];
}
