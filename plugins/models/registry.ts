/**
 * The model catalog: providers and their models (provider plugins, models.json, custom
 * providers), and through credentials.ts which of them have credentials and what their requests
 * are sent with. Models are listed with secrets in their base URL redacted; requests get the
 * original through `requestCredentials`. What models.json and auth.json said (and the problems
 * found in them) is kept by config-files.ts.
 */
import type { ProviderHttpOptions, ProviderRequestHooks } from "../../lib/provider-kit/index.js";
import type { Model } from "../../lib/llm/index.js";
import type { RequestCredentials } from "../../lib/provider-kit/index.js";
import type { AuthStatus, CredentialView, LoginResolver, ModelsApi, ModelsDiagnostics, ProviderRegistration } from "./api.js";
import { AuthStore } from "./auth-store.js";
import { ProviderCredentials } from "./credentials.js";
import { ConfigFiles } from "./config-files.js";
import { applyProviderConfig, customProvider, customProviderProblem, modelsJsonPath, type ProviderConfig } from "./models-json.js";
import { apiOrigin, checkModelsJson, compatNotes } from "./models-json-check.js";
import { redactUrl } from "./redact-url.js";
import type { ScopedModel } from "./scope.js";

export interface RegistryOptions {
  env: NodeJS.ProcessEnv;
  agentDir: string;
  /** Where configuration problems go (stderr through the kernel logger). */
  warn?: (message: string) => void;
  /** The credential store (the process scope's, shared by sibling agents); default: one of its own. */
  auth?: AuthStore;
}

export class ModelRegistry implements ModelsApi {
  readonly #providers = new Map<string, ProviderRegistration>();
  /** Catalog providers whose models are not built yet: built on first use (most starts use one provider). */
  readonly #pending = new Map<string, () => Model[]>();
  /** The model ids of a pending catalog (lower case), when its catalog lists them: a bare id builds only its owners. */
  readonly #pendingIds = new Map<string, Set<string> | readonly string[] | (() => readonly string[])>();
  /** Original base URLs of models listed with a redacted one, by `provider\0id`. */
  readonly #realBaseUrls = new Map<string, string>();
  readonly #warnedCompat = new Set<string>();
  readonly #env: NodeJS.ProcessEnv;
  readonly #agentDir: string;
  readonly #warn: (message: string) => void;
  readonly auth: AuthStore;
  /** models.json's blocks by provider, what it broke, and the diagnostics (config-files.ts). */
  readonly #files: ConfigFiles;
  readonly #config: Map<string, ProviderConfig>;
  readonly #credentials: ProviderCredentials;
  /** Set by the models plugin: the provider request hooks every provider frame applies. */
  requestHooks?: ProviderRequestHooks;
  /** Set by the models plugin: how every provider request's connection behaves (settings). */
  httpOptions?: ProviderHttpOptions;

  constructor(options: RegistryOptions) {
    this.#env = options.env;
    this.#agentDir = options.agentDir;
    this.auth = options.auth ?? new AuthStore(options.agentDir);
    this.#files = new ConfigFiles(options.agentDir, this.auth, options.warn);
    this.#config = this.#files.providers;
    this.#warn = this.#files.warn;
    this.#credentials = new ProviderCredentials({
      env: this.#env,
      auth: this.auth,
      warn: this.#warn,
      registration: (provider) => this.#providers.get(provider),
      config: (provider) => this.#config.get(provider),
      requestBaseUrl: (model) => this.#requestBaseUrl(model),
    });
  }

  /** Reads auth.json and models.json. Call before registering providers so overrides apply. */
  async loadConfig(): Promise<void> {
    await this.#files.load();
  }

  blockedReason(model: Pick<Model, "provider" | "id" | "api">): string | undefined {
    return this.#files.blockedReason(model);
  }

  apiOrigin(model: Pick<Model, "provider" | "id" | "api">): string | undefined {
    return apiOrigin(this.#config.get(model.provider), model, modelsJsonPath(this.#agentDir));
  }

  checkConfig(apis: readonly string[]): Promise<string[]> {
    return checkModelsJson(modelsJsonPath(this.#agentDir), apis);
  }

  diagnostics(): ModelsDiagnostics {
    return this.#files.diagnostics();
  }

  setLoginResolver(resolver: LoginResolver): void {
    this.#credentials.setLoginResolver(resolver);
  }

  usesLogin(provider: string): boolean {
    return this.#credentials.usesLogin(provider);
  }

  reloadCredentials(): Promise<void> {
    return this.#credentials.reload();
  }

  setRuntimeApiKey(provider: string, key: string): void {
    this.#credentials.setRuntimeApiKey(provider, key);
  }

  /** Registers models.json providers that no plugin provides (custom OpenAI-compatible servers...). */
  registerCustomProviders(): void {
    const file = modelsJsonPath(this.#agentDir);
    for (const [name, config] of this.#config) {
      if (this.#providers.has(name) || !config.models?.length) continue;
      const problem = customProviderProblem(name, config);
      if (problem) {
        this.#warn(`Invalid models file ${file}: ${problem} (provider skipped)`);
        continue;
      }
      this.registerProvider(customProvider(name, config));
      // Registered anyway, so choosing one of its models explains itself instead of "not found".
      if (!this.authStatus(name).configured) {
        this.#warn(
          `Custom provider "${name}" in ${file} has no API key: add providers.${name}.apiKey (a key, an env-var name or !command; any placeholder for a server that needs none) or run \`atomic auth set ${name}\`. Its models are unavailable until then.`,
        );
      }
    }
  }

  registerCatalogProvider(registration: Omit<ProviderRegistration, "models">, load: () => Model[], ids?: readonly string[] | (() => readonly string[])): void {
    // An existing provider, or one models.json patches (its problems are reported at startup): built now.
    if (this.#providers.has(registration.name) || this.#config.has(registration.name)) {
      this.registerProvider({ ...registration, models: load() });
      return;
    }
    this.#providers.set(registration.name, { ...registration, models: [] });
    this.#pending.set(registration.name, load);
    // Read only when a bare id is looked up (most starts name a provider or nothing).
    if (ids) this.#pendingIds.set(registration.name, ids);
  }

  registerProvider(registration: ProviderRegistration): void {
    const existing = this.#registration(registration.name);
    let merged = registration;
    if (existing) {
      const byId = new Map(existing.models.map((m) => [m.id, m]));
      for (const model of registration.models) byId.set(model.id, model);
      merged = { ...existing, ...registration, models: [...byId.values()] };
    }
    const config = this.#config.get(registration.name);
    const applied = config ? applyProviderConfig(merged, config) : merged;
    this.#providers.set(registration.name, { ...applied, models: applied.models.map((model) => this.#listed(model)) });
    // One warning per unknown `compat` key: models.json keys no adapter reads.
    if (config) for (const note of compatNotes(registration.name, applied.models, modelsJsonPath(this.#agentDir), this.#warnedCompat)) this.#warn(note);
  }

  /** Where `scope()` reads from: the model selection, once it exists. */
  scopeSource: () => readonly ScopedModel[] = () => [];

  scope(): readonly ScopedModel[] {
    return this.scopeSource();
  }

  removeModel(provider: string, id: string): boolean {
    const registration = this.#providers.get(provider);
    if (!registration?.models.some((model) => model.id === id)) return false;
    const models = registration.models.filter((model) => model.id !== id);
    if (models.length === 0) this.#providers.delete(provider);
    else this.#providers.set(provider, { ...registration, models });
    return true;
  }

  all(): Model[] {
    return [...this.#providers.keys()].flatMap((name) => this.#registration(name)!.models);
  }

  available(): Model[] {
    return [...this.#providers.keys()]
      .filter((name) => this.authStatus(name).configured)
      .flatMap((name) => this.#registration(name)!.models.filter((model) => this.missingAddressVariables(model).length === 0));
  }

  isAvailable(model: Model): boolean {
    return this.authStatus(model.provider).configured && this.missingAddressVariables(model).length === 0;
  }

  missingAddressVariables(model: Pick<Model, "provider" | "id" | "baseUrl">): string[] {
    return this.#credentials.missingAddressVariables(model);
  }

  modelsWithId(id: string): Model[] {
    const lower = id.toLowerCase();
    return [...this.#providers.keys()].flatMap((name) => {
      const ids = this.#pending.has(name) ? this.#lowerIds(name) : undefined;
      if (ids && !ids.has(lower)) return [];
      return this.#registration(name)!.models.filter((m) => m.id.toLowerCase() === lower);
    });
  }

  modelsOf(provider: string): Model[] {
    return this.#registration(provider)?.models ?? [];
  }

  find(provider: string, id: string): Model | undefined {
    return this.#registration(provider)?.models.find((m) => m.id === id);
  }

  providerInfo(provider: string): { api: string; baseUrl?: string; envKey?: string; login?: boolean } | undefined {
    const registration = this.#providers.get(provider);
    if (!registration) return undefined;
    const { api, baseUrl, envKey, login } = registration;
    return { api, ...(baseUrl !== undefined ? { baseUrl } : {}), ...(envKey ? { envKey } : {}), ...(login ? { login } : {}) };
  }

  baseUrlOverride(provider: string): string | undefined {
    return this.#config.get(provider)?.baseUrl;
  }

  hasProvider(provider: string): boolean {
    return this.#providers.has(provider);
  }

  providers(): string[] {
    return [...this.#providers.keys()];
  }

  apiKey(provider: string, signal?: AbortSignal): Promise<string | undefined> {
    return this.#credentials.apiKey(provider, signal);
  }

  headers(model: Model, signal?: AbortSignal): Promise<Record<string, string>> {
    return this.#credentials.headers(model, signal);
  }

  async requestCredentials(model: Model, signal: AbortSignal): Promise<RequestCredentials> {
    const blocked = this.blockedReason(model);
    if (blocked) throw new Error(blocked);
    return this.#credentials.forRequest(model, signal);
  }

  authStatus(provider: string): AuthStatus {
    return this.#credentials.authStatus(provider);
  }

  storedCredentialProblem(provider: string): string | undefined {
    return this.auth.problem(provider);
  }

  withEnv(env: Readonly<Record<string, string>>): CredentialView {
    return this.#credentials.withEnv(env).view((model) => this.blockedReason(model));
  }

  storeApiKey(provider: string, key: string): Promise<void> {
    return this.auth.set(provider, key);
  }

  removeStoredKey(provider: string): Promise<boolean> {
    return this.auth.remove(provider);
  }

  /** The address a request uses: the original of a base URL listed redacted, unless the listed one was changed since. */
  #requestBaseUrl(model: Pick<Model, "provider" | "id" | "baseUrl">): string {
    const real = this.#realBaseUrls.get(`${model.provider}\0${model.id}`);
    return real && redactUrl(real) === model.baseUrl ? real : model.baseUrl;
  }

  /** A pending catalog's ids in lower case, as a set (built on first use). */
  #lowerIds(name: string): Set<string> | undefined {
    const ids = this.#pendingIds.get(name);
    if (ids === undefined || ids instanceof Set) return ids;
    const set = new Set((typeof ids === "function" ? ids() : ids).map((id) => id.toLowerCase()));
    this.#pendingIds.set(name, set);
    return set;
  }

  /** The provider's registration, its catalog models built first if they were not yet. */
  #registration(name: string): ProviderRegistration | undefined {
    const load = this.#pending.get(name);
    if (load) {
      this.#pending.delete(name);
      this.#pendingIds.delete(name);
      const registration = this.#providers.get(name)!;
      this.#providers.set(name, { ...registration, models: load().map((model) => this.#listed(model)) });
    }
    return this.#providers.get(name);
  }

  /** The model as listed: a base URL with secrets is shown redacted, its original kept for requests. */
  #listed(model: Model): Model {
    const redacted = redactUrl(model.baseUrl);
    if (redacted === model.baseUrl) return model;
    this.#realBaseUrls.set(`${model.provider}\0${model.id}`, model.baseUrl);
    return { ...model, baseUrl: redacted };
  }
}
