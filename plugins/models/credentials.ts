/**
 * What a provider's requests are sent with: its key (`--api-key` > a stored login > auth.json >
 * the provider's env variable > models.json > the registration; every value but `--api-key` may
 * be a literal, an env-var name or a `!command`), the model's headers, and its address with the
 * `{VARIABLE}` placeholders filled. The registry owns the catalog; this reads the registrations
 * and models.json blocks it holds, and whether a provider counts as configured.
 */
import type { Model } from "../../lib/llm/index.js";
import type { RequestCredentials } from "../../lib/provider-kit/index.js";
import { fillAddressVariables, missingAddressVariables, needsAddressVariables, type VariableLookup } from "./address-variables.js";
import type { AuthStatus, CredentialView, LoginResolver, ProviderRegistration } from "./api.js";
import type { AuthStore } from "./auth-store.js";
import { describeConfigValue, resolveConfigValue } from "./config-value.js";
import type { ProviderConfig } from "./models-json.js";

/** The registry's side: where credentials and addresses are read from. */
export interface CredentialSources {
  env: NodeJS.ProcessEnv;
  auth: AuthStore;
  warn: (message: string) => void;
  /** The provider's registration as registered (only its credential fields are read: its models may not be built yet). */
  registration(provider: string): ProviderRegistration | undefined;
  /** The provider's models.json block. */
  config(provider: string): ProviderConfig | undefined;
  /** The address a request to `model` uses: the original of a base URL listed redacted. */
  requestBaseUrl(model: Pick<Model, "provider" | "id" | "baseUrl">): string;
}

export class ProviderCredentials {
  /** `--api-key` values: memory only. */
  readonly #runtimeKeys: Map<string, string>;
  #loginResolver?: LoginResolver;
  readonly #sources: CredentialSources;
  /** A caller's provider-scoped variables (pi's `env` request option): over auth.json's and the environment. */
  readonly #overlay: Readonly<Record<string, string>>;

  constructor(sources: CredentialSources, shared?: { runtimeKeys: Map<string, string>; overlay: Readonly<Record<string, string>> }) {
    this.#sources = sources;
    this.#runtimeKeys = shared?.runtimeKeys ?? new Map();
    this.#overlay = shared?.overlay ?? {};
  }

  /** The same credentials read with `overlay`'s variables first (key variables, `$VAR` values, address placeholders). */
  withEnv(overlay: Readonly<Record<string, string>>): ProviderCredentials {
    const view = new ProviderCredentials({ ...this.#sources, env: { ...this.#sources.env, ...overlay } }, { runtimeKeys: this.#runtimeKeys, overlay });
    if (this.#loginResolver) view.setLoginResolver(this.#loginResolver);
    return view;
  }

  /** What a request needs of these credentials; `blocked` says why a model may not be called (the registry's rules). */
  view(blocked: (model: Model) => string | undefined): CredentialView {
    return {
      apiKey: (provider, signal) => this.apiKey(provider, signal),
      authStatus: (provider) => this.authStatus(provider),
      missingAddressVariables: (model) => this.missingAddressVariables(model),
      requestCredentials: async (model, signal) => {
        const reason = blocked(model);
        if (reason) throw new Error(reason);
        return this.forRequest(model, signal);
      },
    };
  }

  setLoginResolver(resolver: LoginResolver): void {
    this.#loginResolver = resolver;
  }

  setRuntimeApiKey(provider: string, key: string): void {
    this.#runtimeKeys.set(provider, key);
  }

  usesLogin(provider: string): boolean {
    return !this.#runtimeKeys.has(provider) && this.#sources.auth.isLogin(provider);
  }

  async reload(): Promise<void> {
    // Read again only when the file changed on disk.
    await this.#sources.auth.load(this.#sources.warn);
  }

  async apiKey(provider: string, signal?: AbortSignal): Promise<string | undefined> {
    const { env, auth } = this.#sources;
    const options = (where: string) => ({ env, label: `the ${where} key of provider ${provider}`, ...(signal ? { signal } : {}) });
    // --api-key is taken as given: a literal, never an env-var name or a command.
    const runtime = this.#runtimeKeys.get(provider);
    if (runtime) return runtime;
    const login = await this.#login(provider, signal);
    if (login) return login.apiKey;
    const stored = auth.key(provider);
    if (stored) return resolveConfigValue(stored, options("auth.json"));
    const variable = this.#envVariable(provider);
    if (variable) return env[variable];
    const fromFile = this.#sources.config(provider)?.apiKey;
    if (fromFile) return resolveConfigValue(fromFile, options("models.json"));
    const registered = this.#sources.registration(provider)?.apiKey;
    return registered ? resolveConfigValue(registered, options("registered")) : undefined;
  }

  async headers(model: Model, signal?: AbortSignal): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(model.headers ?? {})) {
      const resolved = await resolveConfigValue(value, { env: this.#sources.env, label: `header ${name} of provider ${model.provider}`, ...(signal ? { signal } : {}) });
      if (resolved !== undefined) out[name] = resolved;
    }
    return out;
  }

  /** Key, headers and address of a request to `model` (auth.json read again first when it changed). */
  async forRequest(model: Model, signal: AbortSignal): Promise<RequestCredentials> {
    await this.reload();
    const login = this.#runtimeKeys.has(model.provider) ? undefined : await this.#login(model.provider, signal);
    if (login) return this.#loginCredentials(model, login, signal);
    const [apiKey, headers] = await Promise.all([this.apiKey(model.provider, signal), this.headers(model, signal)]);
    const registration = this.#sources.registration(model.provider);
    if (apiKey && (this.#sources.config(model.provider)?.authHeader ?? registration?.authHeader)) headers.Authorization = `Bearer ${apiKey}`;
    // A local server, or an SDK that finds its own credentials (AWS, Google ADC), needs no key.
    const keyless = !apiKey && (registration?.requiresAuth === false || this.#ambientGroup(model.provider) !== undefined);
    const baseUrl = this.#filledBaseUrl(model);
    return { ...(apiKey ? { apiKey } : {}), headers, baseUrl, ...(keyless ? { keyless } : {}) };
  }

  authStatus(provider: string): AuthStatus {
    const registration = this.#sources.registration(provider);
    if (registration?.requiresAuth === false) return { configured: true, source: "none" };
    if (this.#runtimeKeys.has(provider)) return { configured: true, source: "runtime", label: "--api-key" };
    if (this.#sources.auth.has(provider)) return { configured: true, source: "stored", label: "auth.json" };
    const variable = this.#envVariable(provider);
    if (variable) return { configured: true, source: "environment", label: variable };
    const ambient = this.#ambientGroup(provider);
    if (ambient) return { configured: true, source: "environment", label: ambient.join(" + ") };
    const fromFile = this.#sources.config(provider)?.apiKey;
    const configured = fromFile ?? registration?.apiKey;
    if (configured) {
      const described = describeConfigValue(configured, { env: this.#sources.env });
      if (described.resolvable) {
        // A key that names an env var is environment auth, and reported as such.
        if (described.kind === "env") return { configured: true, source: "environment", label: described.envName! };
        return fromFile ? { configured: true, source: "models_json", label: "models.json" } : { configured: true, source: "provider", label: "registered by the provider" };
      }
    }
    return { configured: false };
  }

  /** The `{VARIABLE}` placeholders of the model's address set neither in its auth.json entry nor in the environment. */
  missingAddressVariables(model: Pick<Model, "provider" | "id" | "baseUrl">): string[] {
    return missingAddressVariables(this.#sources.requestBaseUrl(model), this.#addressLookup(model.provider));
  }

  /** The provider's OAuth login as a request uses it, when auth.json holds one (refreshed first when due). */
  async #login(provider: string, signal?: AbortSignal) {
    if (!this.#sources.auth.isLogin(provider)) return undefined;
    if (!this.#loginResolver) throw new Error(`auth.json holds an OAuth login for ${provider}, but the login plugin that uses it is not loaded.`);
    return this.#loginResolver(provider, signal);
  }

  /**
   * A login's key, headers (over the model's) and address: the account's own (Copilot's, named by
   * its token) unless models.json sets the provider's base URL.
   */
  async #loginCredentials(model: Model, login: NonNullable<Awaited<ReturnType<LoginResolver>>>, signal: AbortSignal): Promise<RequestCredentials> {
    const headers = { ...(await this.headers(model, signal)), ...login.headers };
    const listed = this.#filledBaseUrl(model);
    const baseUrl = login.baseUrl && this.#sources.config(model.provider)?.baseUrl === undefined ? login.baseUrl : listed;
    return { apiKey: login.apiKey, headers, baseUrl };
  }

  /**
   * The model's address with its `{VARIABLE}` placeholders (Cloudflare's `{CLOUDFLARE_ACCOUNT_ID}`)
   * filled; one that is set nowhere fails the request, naming it (and the model is not available).
   */
  #filledBaseUrl(model: Model): string {
    const baseUrl = this.#sources.requestBaseUrl(model);
    const lookup = this.#addressLookup(model.provider);
    const missing = missingAddressVariables(baseUrl, lookup);
    if (missing.length > 0) throw new Error(needsAddressVariables(model.provider, missing, model.baseUrl));
    return fillAddressVariables(baseUrl, lookup);
  }

  /** Where address variables come from: a caller's overlay, the provider's stored credential (`env` of its auth.json entry), then the environment. */
  #addressLookup(provider: string): VariableLookup {
    const stored = this.#sources.auth.env(provider);
    return (name) => this.#overlay[name] ?? stored?.[name] ?? this.#sources.env[name];
  }

  /** The first of the provider's key variables that is set (`envKey`, then `altEnvKeys`). */
  #envVariable(provider: string): string | undefined {
    const registration = this.#sources.registration(provider);
    return [registration?.envKey, ...(registration?.altEnvKeys ?? [])].find((name): name is string => Boolean(name && this.#sources.env[name]));
  }

  /** The first credential group of `ambientAuth` whose variables are all set. */
  #ambientGroup(provider: string): string[] | undefined {
    return this.#sources.registration(provider)?.ambientAuth?.find((group) => group.every((name) => Boolean(this.#sources.env[name])));
  }
}
