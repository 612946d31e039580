/**
 * Plugin `models`: the model catalog and credentials, the startup model choice and the
 * prompt preflight (no model / no key). Provider plugins register into it.
 */
import { definePlugin } from "../../kernel/index.js";
import { ModelRegistry } from "./registry.js";
import { resolveStartupModel } from "./startup.js";

export type { ModelsApi, ProviderRegistration, AuthStatus } from "./api.js";

export default definePlugin({
  name: "models",
  dependsOn: ["agent"],
  description: "Model catalog, credentials and model selection.",
  apply(k) {
    const registry = new ModelRegistry(k.config.env);
    k.provide("models", registry);
    const agent = k.service("agent");

    k.hooks.boot.tapPromise(k.name, async () => {
      const choice = resolveStartupModel(registry, k.config.cli, k.config.settings);
      if (choice.warning) k.log.warn(choice.warning);
      if (choice.model) await agent.setModel(choice.model, "startup");
      if (choice.thinkingLevel) await agent.setThinkingLevel(choice.thinkingLevel);
    });

    k.hooks.prompt_preflight.tapPromise(k.name, async () => {
      const model = agent.getModel();
      if (!model) return "No model selected. Use set_model or start with --provider/--model.";
      if (!registry.authStatus(model.provider).configured) {
        return `No API key found for ${model.provider}. Set the provider's API key environment variable or run \`atomic auth set ${model.provider}\`.`;
      }
      return undefined;
    });
  },
});
