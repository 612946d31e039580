/**
 * The registry contract a provider plugin needs, declared here so a provider written outside
 * this repository type-checks against the toolkit alone. The `models` service satisfies it.
 */
import type { Model } from "../llm/index.js";
import type { ProviderRequestHooks } from "./request-hooks.js";

export interface ProviderRegistration {
  name: string;
  /** Default API for the provider's models. */
  api: string;
  baseUrl?: string;
  /** In catalog order: the first model is the provider's default. */
  models: Model[];
  /** false: always available, no credential needed (e.g. the offline replay provider). */
  requiresAuth?: boolean;
  /** pi signs in to it with OAuth (a subscription or an account): `atomic login <name>` works for it. */
  login?: boolean;
  /** Environment variable holding the provider's key (built-ins: ANTHROPIC_API_KEY, ...). */
  envKey?: string;
  /** Further environment variables tried after `envKey`, in order. */
  altEnvKeys?: string[];
  /**
   * The provider's own key as a config value, as in models.json: a literal key, the name of an
   * environment variable, `$VAR`/`${VAR}`, or `!command` (an extension's `registerProvider`).
   * Used after auth.json, the environment and models.json.
   */
  apiKey?: string;
  /** Also send the key as `Authorization: Bearer <key>` (as models.json's `authHeader`). */
  authHeader?: boolean;
  /**
   * Credentials the provider's SDK finds itself, without a key: configured when every variable
   * of any one group is set (AWS: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY`, or `AWS_PROFILE`).
   */
  ambientAuth?: string[][];
}

export interface ProviderHttpOptions {
  /** A connection that sends nothing for this long fails the request (0: no limit); default 300 s. */
  idleTimeoutMs?: number;
}

/** What one request needs from the registry, resolved at request time. */
export interface RequestCredentials {
  apiKey?: string;
  /** Extra HTTP headers (models.json, an auth header it asks for), values resolved. */
  headers: Record<string, string>;
  /** The base URL to call (a model's listed URL may have its query secrets redacted). */
  baseUrl: string;
  /**
   * No key is needed: a local server, or credentials the SDK finds itself (`ambientAuth`). The
   * frame then calls the adapter with an empty key instead of failing.
   */
  keyless?: boolean;
}

/** What the provider frame and a provider plugin use of the model registry. */
export interface ProviderModelsApi {
  /** Optional: the request hooks the frame applies to every provider HTTP request. */
  readonly requestHooks?: ProviderRequestHooks;
  /** Optional: how the frame's fetch treats every provider connection (settings `httpIdleTimeoutMs`). */
  readonly httpOptions?: ProviderHttpOptions;
  /** Adds (or extends) a provider; models.json patches for it apply as it registers. */
  registerProvider(registration: ProviderRegistration): void;
  /** The API key for a provider, or undefined. Resolves `!command` and env-var-name values. */
  apiKey(provider: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Extra HTTP headers configured for the model (models.json), values resolved. */
  headers(model: Model, signal?: AbortSignal): Promise<Record<string, string>>;
  /**
   * Optional: key, headers and base URL for one request at once. `signal` aborts a running
   * `!command` (its process is killed). Without it the frame uses `apiKey` and `headers`.
   */
  requestCredentials?(model: Model, signal: AbortSignal): Promise<RequestCredentials>;
}

/** Price tiers and retirement dates live on the kernel's `Model` (they cross the protocol). */
export type { CostTier } from "../llm/index.js";
export type CatalogModel = Model;
