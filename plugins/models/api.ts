/**
 * The model registry's service API (`services.get("models")`): the catalog, credentials and
 * model resolution. Provider plugins tap `hooks.stream.for(api)` and read keys from here.
 */
import type { Model } from "../../kernel/index.js";

export interface ProviderRegistration {
  name: string;
  /** Default API for the provider's models. */
  api: string;
  baseUrl?: string;
  models: Model[];
  /** false: always available, no credential needed (e.g. the offline replay provider). */
  requiresAuth?: boolean;
  /** Environment variable holding the provider's key (built-ins: ANTHROPIC_API_KEY, ...). */
  envKey?: string;
}

export interface AuthStatus {
  configured: boolean;
  source?: "stored" | "environment" | "models_json" | "none";
  label?: string;
}

export interface ModelsApi {
  registerProvider(registration: ProviderRegistration): void;
  /** Every model in the catalog, available or not. */
  all(): Model[];
  /** Models whose provider has credentials (or needs none), in catalog order. */
  available(): Model[];
  find(provider: string, id: string): Model | undefined;
  hasProvider(provider: string): boolean;
  /** Registered provider names, in registration order. */
  providers(): string[];
  /** The API key for a provider, or undefined. Resolves `!command` and env-var-name values. */
  apiKey(provider: string): Promise<string | undefined>;
  /** Extra HTTP headers configured for the model (models.json), values resolved. */
  headers(model: Model): Promise<Record<string, string>>;
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
