/**
 * The model registry's service API (`services.get("models")`): the catalog, credentials and
 * model resolution. Provider plugins tap `hooks.stream.for(api)` and read keys from here.
 */
import type { Model } from "../../lib/llm/index.js";
import type { OAuthRequestAuth } from "../../lib/oauth/index.js";
import type { ProviderModelsApi, ProviderRegistration, RequestCredentials } from "../../lib/provider-kit/index.js";
import type { ModelsHooks } from "./hooks.js";
import type { ScopedModel } from "./scope.js";

export type { ScopedModel };

export type { ProviderRegistration };

export interface AuthStatus {
  configured: boolean;
  /** `runtime`: `--api-key`, this process only; `provider`: a key an extension's registerProvider carries. */
  source?: "runtime" | "stored" | "environment" | "models_json" | "provider" | "none";
  label?: string;
}

/** What the registry read and what it found wrong, for `atomic config` and error messages. */
export interface ModelsDiagnostics {
  /** `error`: the whole file is unusable; `problems`: entries or provider blocks dropped from a file otherwise read. */
  modelsJson: { path: string; state: "missing" | "loaded" | "invalid"; providers: string[]; error?: string; problems?: string[] };
  /** Providers with an auth.json entry (never the keys). */
  authFile: { path: string; providers: string[]; error?: string };
  /** Every configuration problem reported so far (models.json, auth.json, compat keys, custom providers), once each. */
  problems: string[];
}

/** A provider's credentials read with a caller's variables first (pi's `env` request option). */
export interface CredentialView {
  apiKey(provider: string, signal?: AbortSignal): Promise<string | undefined>;
  authStatus(provider: string): AuthStatus;
  missingAddressVariables(model: Pick<Model, "provider" | "id" | "baseUrl">): string[];
  requestCredentials(model: Model, signal: AbortSignal): Promise<RequestCredentials>;
}

export interface ModelsApi extends ProviderModelsApi {
  /** The credentials as `env`'s variables make them (over auth.json's and the environment's). */
  withEnv?(env: Readonly<Record<string, string>>): CredentialView;
  /** Every model in the catalog, available or not. */
  all(): Model[];
  /** Models whose provider has credentials (or needs none) and whose address is complete, in catalog order. */
  available(): Model[];
  /** One model of `available()`: its provider has credentials (or needs none) and `missingAddressVariables` is empty. */
  isAvailable(model: Model): boolean;
  /**
   * The `{VARIABLE}` placeholders of the model's base URL (Cloudflare's `{CLOUDFLARE_ACCOUNT_ID}`)
   * set neither in its provider's auth.json entry (`env`) nor in the environment: requests to it
   * fail until they are, so it is not available.
   */
  missingAddressVariables(model: Pick<Model, "provider" | "id" | "baseUrl">): string[];
  find(provider: string, id: string): Model | undefined;
  /** The models `--models` / `enabledModels` scope the session to (what cycle_model moves through); empty: no scope. */
  scope(): readonly ScopedModel[];
  /** Takes one model out of the catalog (an extension's virtual model); a provider left without models goes too. */
  removeModel(provider: string, id: string): boolean;
  /** One provider's models, in catalog order (builds only that provider's catalog). */
  modelsOf(provider: string): Model[];
  /** Every provider's model with this id (case-insensitive), building only the catalogs that list it. */
  modelsWithId(id: string): Model[];
  hasProvider(provider: string): boolean;
  /**
   * Registers a catalog provider whose models are built by `load` when first asked for (a start
   * that uses one provider never builds the others). models.json patches apply as they are built.
   */
  registerCatalogProvider(registration: Omit<ProviderRegistration, "models">, load: () => Model[], ids?: readonly string[] | (() => readonly string[])): void;
  /** A registered provider's API, base URL (models.json's when it sets one) and key variable. */
  providerInfo(provider: string): { api: string; baseUrl?: string; envKey?: string; login?: boolean } | undefined;
  /** models.json's base URL for the provider (registered or not): what its classifier and image models use too, as pi does. */
  baseUrlOverride(provider: string): string | undefined;
  /** Registered provider names, in registration order. */
  providers(): string[];
  authStatus(provider: string): AuthStatus;
  /** Why the provider's auth.json entry is not used (an OAuth login lacking its tokens); undefined when it is or there is none. */
  storedCredentialProblem?(provider: string): string | undefined;
  /** Stores a key in auth.json (mode 0600). */
  storeApiKey(provider: string, key: string): Promise<void>;
  /** Removes the stored auth.json credential; env and models.json keys are untouched. */
  removeStoredKey(provider: string): Promise<boolean>;
  /** A key for this process only (`--api-key`): used first, never stored or shown. */
  setRuntimeApiKey(provider: string, key: string): void;
  diagnostics(): ModelsDiagnostics;
  /** The models.json key (and the file) that set the model's API, e.g. `providers.local.api in <path>`; undefined when none did. */
  apiOrigin?(model: Pick<Model, "provider" | "id" | "api">): string | undefined;
  /**
   * models.json's problems that startup does not look for (`atomic config` asks): an `api` none
   * of `apis` (the APIs a provider serves) is, a key that is a slip of a known one. Reads the file.
   */
  checkConfig(apis: readonly string[]): Promise<string[]>;
  /** Why requests to the model are refused because of a models.json error about it (its entry, its provider, the file). */
  blockedReason(model: Pick<Model, "provider" | "id" | "api">): string | undefined;
  /**
   * Who turns a stored OAuth login into a request's key (plugin `login`: refreshed first when it
   * is about to expire). Without one, a provider whose auth.json entry is a login cannot be used.
   */
  setLoginResolver(resolver: LoginResolver): void;
  /** The provider's stored credential is an OAuth login (pi's `isUsingOAuth`). */
  usesLogin(provider: string): boolean;
  /** Reads auth.json again if it changed (a login or logout in this process or another). */
  reloadCredentials(): Promise<void>;
}

/** The key (and for some providers an address or headers) of a provider's stored OAuth login; undefined when it has none. */
export type LoginResolver = (provider: string, signal?: AbortSignal) => Promise<OAuthRequestAuth | undefined>;

declare module "../../kernel/services.js" {
  interface Services {
    models: ModelsApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends ModelsHooks {}
}

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { modelsHookDeclarations } from "./hooks.js";

/** `--model` and `--models` resolution, for the pi-compatible lookups extensions call (plugin extensions). */
export { resolveModelPattern } from "./resolve.js";
export { resolveScope } from "./scope.js";
