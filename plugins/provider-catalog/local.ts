/**
 * Which local servers this start asks for their models. Asking costs a connection attempt, so a
 * start asks only the servers it may use: one whose base URL the user set (its environment
 * variable, or a models.json block), or one the command line or the saved default names. Listing
 * models (`--list-models`) asks every local server, quietly: a server that is not running is just
 * not listed; in offline mode (lib/offline) only the servers the user named or configured are
 * asked (their models are what this start runs on).
 */
import type { KernelConfig } from "../../kernel/index.js";
import type { CatalogProvider } from "../../lib/model-catalog/index.js";
import { offlineVariable } from "../../lib/offline/index.js";

export interface LocalServer {
  provider: CatalogProvider;
  /** The user asked for this server: a failure is reported (otherwise it is not). */
  wanted: boolean;
}

export function localServersToAsk(providers: readonly CatalogProvider[], config: KernelConfig, modelsJsonProviders: readonly string[]): LocalServer[] {
  const { cli, settings, env } = config;
  const named = new Set<string>();
  const add = (ref: string | undefined) => {
    if (!ref) return;
    const slash = ref.indexOf("/");
    if (slash > 0) named.add(ref.slice(0, slash));
  };
  if (cli.provider) named.add(cli.provider);
  add(cli.model);
  for (const pattern of (cli.models ?? "").split(",")) add(pattern.trim());
  if (!cli.provider && !cli.model) {
    if (settings.defaultProvider) named.add(settings.defaultProvider);
    for (const pattern of settings.enabledModels ?? []) add(pattern);
  }
  const listing = cli.listModels !== undefined && !offlineVariable(env);
  const out: LocalServer[] = [];
  for (const provider of providers) {
    if (!provider.local) continue;
    const wanted = named.has(provider.provider) || Boolean(env[provider.local.baseUrlEnv]) || modelsJsonProviders.includes(provider.provider);
    if (wanted || listing) out.push({ provider, wanted });
  }
  return out;
}
