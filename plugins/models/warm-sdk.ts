/**
 * Startup stays lean: a provider's SDK is imported only when a model of its API is in use. Once
 * the startup model is known (or the user switches to one), the import is started in the
 * background so the first request does not pay for it.
 */
import { STAGE, type PluginContext } from "../../kernel/index.js";

export function warmSdkWhenUsed(k: PluginContext, apis: readonly string[], load: () => Promise<unknown>): void {
  let warmed = false;
  const warm = (api: string | undefined) => {
    if (warmed || !api || !apis.includes(api)) return;
    warmed = true;
    setImmediate(() => void load().catch(() => undefined));
  };
  // STAGE.LAST and registered after the models plugin: runs once the startup model is chosen.
  k.hooks.boot.tap({ name: k.name, stage: STAGE.LAST }, () => warm(k.service("agent").getModel()?.api));
  k.hooks.model_select.tap(k.name, ({ model }) => warm(model.api));
}
