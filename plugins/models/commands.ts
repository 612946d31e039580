/** The model and thinking RPC commands, exactly as the protocol shows them. One zod schema each. */
import { z } from "zod";
import { ModelSchema, THINKING_LEVELS, publicModel } from "../../lib/llm/index.js";
import { defineCommand, type CommandDefinition, ErrorCode, KernelError, NO_DATA } from "../../kernel/index.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "./api.js";
import { providerMeant } from "./closest.js";
import { listedModels } from "./cycle.js";
import type { ModelSelection } from "./selection.js";

/** A Model as it crosses the protocol (never its headers). */
const PublicModel = () => ModelSchema();
const AuthStatusSchema = () =>
  z.object({
    configured: z.boolean().describe("The provider has a key (or needs none)."),
    source: z
      .enum(["runtime", "stored", "environment", "models_json", "provider", "none"])
      .optional()
      .describe("Where the key comes from: --api-key, auth.json, an environment variable, models.json, the provider's registration, or none needed."),
    label: z.string().optional().meta({ description: "The environment variable, when the key comes from one." }),
  });

/** One model of the --models/enabledModels scope (pi's shape), with the level its pattern named. */
const ScopedModelSchema = () =>
  z.object({
    model: PublicModel().describe("The model."),
    thinkingLevel: z.enum(THINKING_LEVELS).optional().meta({ description: "The level the pattern's `:<thinking>` suffix names." }),
  });

export function modelCommands(models: ModelsApi, selection: ModelSelection, agent: AgentApi): CommandDefinition<any, any>[] {
  return [
    defineCommand({
      name: "get_available_models",
      description:
        "Models whose provider has credentials and whose address is complete (every `{VARIABLE}` of the base URL, such as Cloudflare's `{CLOUDFLARE_ACCOUNT_ID}`, set), as full Model objects; the offline `replay` models only while one is current or `--models`/`enabledModels` names one.",
      input: () => z.object({}),
      output: () => z.object({ models: z.array(PublicModel()).describe("Models whose provider has a key (or needs none) and whose address is complete, in catalog order.") }),
      run: () => ({ models: listedModels(models, agent.getModel(), selection.scope).map(publicModel) }),
    }),
    defineCommand({
      name: "set_model",
      description: "Switch to an available model; persisted as the default.",
      input: () =>
        z
          .object({ provider: z.string().describe("The model's provider."), modelId: z.string().describe("The model's id.") })
          .meta({ examples: [{ provider: "anthropic", modelId: "claude-sonnet-5-5" }] }),
      output: PublicModel,
      run: async ({ provider, modelId }) => publicModel(await selection.setModel(provider, modelId)),
    }),
    defineCommand({
      name: "cycle_model",
      description:
        "Switch to the next model (saved as the default): through the scope when one is set (`--models`, else the `enabledModels` setting; `isScoped: true`, and a pattern's `:<thinking>` suffix applied), else through the available models, skipping the offline `replay` models unless the current model is one. `null` with fewer than two to move through.",
      input: () => z.object({ direction: z.enum(["forward", "backward"]).optional().describe("Which way to move (default forward).") }).meta({ examples: [{}] }),
      output: () =>
        z
          .object({
            model: PublicModel().describe("The model now current."),
            thinkingLevel: z.enum(THINKING_LEVELS).describe("The thinking level now current."),
            isScoped: z.boolean().meta({ description: "True while moving through the `--models` / `enabledModels` scope." }),
          })
          .nullable(),
      run: async ({ direction }) => {
        const result = await selection.cycleModel(direction);
        return result && { ...result, model: publicModel(result.model) };
      },
    }),
    defineCommand({
      name: "logout_provider",
      description: "Remove a provider's stored credential and return the remaining auth status and catalog.",
      input: () => z.object({ provider: z.string().min(1).describe("The provider whose stored key to remove.") }).meta({ examples: [{ provider: "openai" }] }),
      output: () =>
        z.object({
          provider: z.string().describe("The provider."),
          authStatus: AuthStatusSchema().describe("Its credential now (an environment key still counts)."),
          models: z.array(PublicModel()).describe("The models available now."),
          scopedModels: z
            .array(ScopedModelSchema())
            .optional()
            .meta({ description: "The `cycle_model` scope (`--models`, `enabledModels`) that is still available (its provider has a credential)." }),
        }),
      run: async ({ provider }) => {
        const removed = await models.removeStoredKey(provider);
        // Logging out twice is fine; a name that is no provider at all is a slip, not a success.
        if (!removed && !models.providers().includes(provider)) {
          throw new KernelError(ErrorCode.NOT_FOUND, `Unknown provider: ${provider}.${providerMeant(models.providers(), provider)}`);
        }
        const scopedModels = selection.scope
          .filter((entry) => models.isAvailable(entry.model))
          .map((entry) => ({ model: publicModel(entry.model), ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}) }));
        return { provider, authStatus: models.authStatus(provider), models: listedModels(models, agent.getModel(), selection.scope).map(publicModel), scopedModels };
      },
    }),
    defineCommand({
      name: "set_thinking_level",
      description: "Set the thinking level; clamped to what the model supports.",
      input: () => z.object({ level: z.enum(THINKING_LEVELS).describe("The level (clamped to what the model accepts).") }).meta({ examples: [{ level: "high" }] }),
      output: NO_DATA,
      run: async ({ level }) => {
        await selection.setThinkingLevel(level);
      },
    }),
    defineCommand({
      name: "cycle_thinking_level",
      description: "Next thinking level in cycle order; null when the model has no thinking.",
      input: () => z.object({}),
      output: () => z.object({ level: z.enum(THINKING_LEVELS).describe("The level now current.") }).nullable(),
      run: () => selection.cycleThinkingLevel(),
    }),
    defineCommand({
      name: "get_available_thinking_levels",
      description: "Thinking levels the current model supports, in cycle order.",
      input: () => z.object({}),
      output: () => z.object({ levels: z.array(z.enum(THINKING_LEVELS)).describe("The levels the current model accepts, in cycle order.") }),
      run: () => ({ levels: agent.availableThinkingLevels() }),
    }),
  ];
}
