/**
 * The model registry's service API (`services.get("models")`): the catalog, credentials and
 * model resolution. Provider plugins tap `hooks.stream.for(api)` and read keys from here.
 */
import type { Model } from "../../kernel/index.js";
import type { ProviderModelsApi, ProviderRegistration } from "../../lib/provider-kit/index.js";

export type { ProviderRegistration };

export interface AuthStatus {
  configured: boolean;
  source?: "stored" | "environment" | "models_json" | "provider" | "none";
  label?: string;
}

export interface ModelsApi extends ProviderModelsApi {
  /** Every model in the catalog, available or not. */
  all(): Model[];
  /** Models whose provider has credentials (or needs none), in catalog order. */
  available(): Model[];
  find(provider: string, id: string): Model | undefined;
  hasProvider(provider: string): boolean;
  /** Registered provider names, in registration order. */
  providers(): string[];
  authStatus(provider: string): AuthStatus;
  /** Stores a key in auth.json (mode 0600). */
  storeApiKey(provider: string, key: string): Promise<void>;
  /** Removes the stored auth.json credential; env and models.json keys are untouched. */
  removeStoredKey(provider: string): Promise<boolean>;
}

declare module "../../kernel/services.js" {
  interface Services {
    models: ModelsApi;
  }
}
