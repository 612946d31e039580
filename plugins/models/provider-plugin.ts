/**
 * Helpers that keep provider plugins cheap to load: the adapter code and its SDK are imported
 * on the first request (or warmed in the background once a model of that API is selected), so
 * startup only pays for a few lines per provider.
 */
import { STAGE, type AssistantStream, type PluginContext, type StreamRequest } from "../../kernel/index.js";
import type { ModelsApi } from "./api.js";
import type { ProviderBody } from "./provider-stream.js";

const WARM_DELAY_MS = 150;

/** The `stream` hook answer: loads the stream frame and the adapter body, then streams. */
export function lazyProviderStream(models: ModelsApi, request: StreamRequest, loadBody: () => Promise<ProviderBody>): AssistantStream {
  return (async function* lazyStream() {
    const [{ providerStream }, body] = await Promise.all([import("./provider-stream.js"), loadBody()]);
    yield* providerStream(models, request, body);
  })();
}

/**
 * Starts `load` in the background once the startup model (or a later choice) uses one of
 * `apis`, so the first request does not wait for the SDK import.
 */
export function warmSdkWhenUsed(k: PluginContext, apis: readonly string[], load: () => Promise<unknown>): void {
  let warmed = false;
  const warm = (api: string | undefined) => {
    if (warmed || !api || !apis.includes(api)) return;
    warmed = true;
    // After a short pause, not at once: a client's first commands are answered before the SDK
    // import (tens of ms of module loading) competes with them; a prompt that comes sooner loads it itself.
    setTimeout(() => void load().catch(() => undefined), WARM_DELAY_MS).unref();
  };
  // STAGE.LAST and registered after the models plugin: runs once the startup model is chosen.
  k.hooks.boot.tap({ name: k.name, stage: STAGE.LAST }, () => warm(k.service("agent").getModel()?.api));
  k.hooks.model_select.tap(k.name, ({ model }) => warm(model.api));
}
