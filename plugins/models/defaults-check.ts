/**
 * Saved defaults (settings `defaultProvider` / `defaultModel`) that startup cannot use, said at
 * startup as warnings: without them, a default naming no provider or no model of its provider was
 * passed over in silence (another model chosen, or "No model selected" naming nothing), and
 * `atomic config`, which reports every startup warning, said "Problems: none".
 */
import type { CliOptions, Settings } from "../../kernel/index.js";
import type { ModelsApi } from "./api.js";
import { closestHint, closestModels, providerMeant } from "./closest.js";
import { hasCliModel, unsupportedDefault } from "./startup.js";

export function savedDefaultProblems(models: ModelsApi, cli: CliOptions, settings: Settings): string[] {
  // A model on the command line replaces the saved defaults: they are not used, so not judged.
  if (hasCliModel(cli)) return [];
  const { defaultProvider, defaultModel } = settings;
  if (!defaultProvider) return defaultModel ? [modelWithoutProvider(models, defaultModel)] : [];
  if (!models.hasProvider(defaultProvider)) {
    // With a model: the protocol's condition (prompts are refused until the default changes).
    const locked = unsupportedDefault(models, cli, settings);
    if (locked) return [locked.message];
    return [
      `Unknown provider "${defaultProvider}" in settings defaultProvider (ignored).${providerMeant(models.providers(), defaultProvider)} Known providers: ${models.providers().join(", ")}.`,
    ];
  }
  if (defaultModel && !models.find(defaultProvider, defaultModel)) {
    const near = closestModels(models.modelsOf(defaultProvider), defaultModel);
    return [`No model "${defaultModel}" of provider "${defaultProvider}" (settings defaultModel; ignored).${closestHint(near)}`];
  }
  return [];
}

/**
 * pi reads `defaultModel` only beside `defaultProvider`; alone it is passed over. Written as
 * "provider/id" (as `--model` takes it), or naming a model some providers serve, it says how to
 * write it.
 */
function modelWithoutProvider(models: ModelsApi, defaultModel: string): string {
  const head = `Settings defaultModel "${defaultModel}" is ignored: it is read only with defaultProvider.`;
  const slash = defaultModel.indexOf("/");
  if (slash > 0) {
    const provider = defaultModel.slice(0, slash);
    const id = defaultModel.slice(slash + 1);
    if (models.find(provider, id)) return `${head} Write it as "defaultProvider": "${provider}", "defaultModel": "${id}".`;
  }
  const serving = models.providers().filter((provider) => models.find(provider, defaultModel));
  if (serving.length > 0) {
    const shown = serving
      .slice(0, 5)
      .map((provider) => `"${provider}"`)
      .join(", ");
    return `${head} Set defaultProvider to the provider that serves it (${shown}${serving.length > 5 ? ", ..." : ""}).`;
  }
  return `${head} Set defaultProvider too (atomic --list-models shows provider and model ids).`;
}
