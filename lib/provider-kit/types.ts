/**
 * The registry contract a provider plugin needs, declared here so a provider written outside
 * this repository type-checks against the toolkit alone. The `models` service satisfies it.
 */
import type { Model } from "../../kernel/index.js";

export interface ProviderRegistration {
  name: string;
  /** Default API for the provider's models. */
  api: string;
  baseUrl?: string;
  /** In catalog order: the first model is the provider's default. */
  models: Model[];
  /** false: always available, no credential needed (e.g. the offline replay provider). */
  requiresAuth?: boolean;
  /** Environment variable holding the provider's key (built-ins: ANTHROPIC_API_KEY, ...). */
  envKey?: string;
  /**
   * The provider's own key as a config value, as in models.json: a literal key, the name of an
   * environment variable, `$VAR`/`${VAR}`, or `!command` (an extension's `registerProvider`).
   * Used after auth.json, the environment and models.json.
   */
  apiKey?: string;
}

/** What the provider frame and a provider plugin use of the model registry. */
export interface ProviderModelsApi {
  /** Adds (or extends) a provider; models.json patches for it apply as it registers. */
  registerProvider(registration: ProviderRegistration): void;
  /** The API key for a provider, or undefined. Resolves `!command` and env-var-name values. */
  apiKey(provider: string): Promise<string | undefined>;
  /** Extra HTTP headers configured for the model (models.json), values resolved. */
  headers(model: Model): Promise<Record<string, string>>;
}
