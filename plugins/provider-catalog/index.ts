/**
 * Plugin `provider-catalog`: registers every built-in provider of the data catalog
 * (lib/model-catalog) with the `models` registry — the three vendors, the gateways and hosts
 * reachable with one API key, the cloud routes and the local servers — each provider's models
 * built only when first asked for. Local servers (Ollama, llama.cpp, vLLM, LM Studio) list their
 * own models: they are asked (`GET <baseUrl>/models`) when this start uses them, or lists models.
 */
import { definePlugin } from "../../kernel/index.js";
import { expandModels, providerRegistration, readCatalog } from "../../lib/model-catalog/index.js";
import type {} from "../models/api.js";
import { localServersToAsk } from "./local.js";

export default definePlugin({
  name: "provider-catalog",
  requires: ["models"],
  description: "The built-in providers and their models (data files), and the models local servers list.",
  async apply(k) {
    const models = k.service("models");
    const catalog = await readCatalog(k.config.agentDir);
    for (const problem of catalog.problems) k.log.warn(problem);
    for (const provider of catalog.providers) {
      models.registerCatalogProvider(
        providerRegistration(provider),
        () => expandModels(provider, catalog.entries(provider.provider)),
        () => catalog.ids(provider.provider),
      );
    }
    const ask = localServersToAsk(catalog.providers, k.config, models.diagnostics().modelsJson.providers);
    if (ask.length > 0) {
      const { discoverLocalModels } = await import("./discover.js");
      await discoverLocalModels(ask, models, k.config.env, (message) => k.log.warn(message));
    }
  },
});
