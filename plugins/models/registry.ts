/**
 * The model catalog: providers and their models (built-ins, models.json, plugin providers) and
 * which providers have credentials. Key lookup order: auth.json > environment > models.json.
 */
import type { Model } from "../../kernel/index.js";
import type { AuthStatus, ModelsApi, ProviderRegistration } from "./api.js";
import { AuthStore } from "./auth-store.js";
import { describeConfigValue, resolveConfigValue } from "./config-value.js";
import { applyProviderConfig, customProvider, customProviderProblem, modelsJsonPath, readModelsJson, type ProviderConfig } from "./models-json.js";

export interface RegistryOptions {
  env: NodeJS.ProcessEnv;
  agentDir: string;
  /** Where configuration problems go (stderr through the kernel logger). */
  warn?: (message: string) => void;
}

export class ModelRegistry implements ModelsApi {
  readonly #providers = new Map<string, ProviderRegistration>();
  /** models.json blocks by provider; applied whenever that provider registers. */
  readonly #config = new Map<string, ProviderConfig>();
  readonly #env: NodeJS.ProcessEnv;
  readonly #agentDir: string;
  readonly #warn: (message: string) => void;
  readonly auth: AuthStore;

  constructor(options: RegistryOptions) {
    this.#env = options.env;
    this.#agentDir = options.agentDir;
    this.#warn = options.warn ?? (() => {});
    this.auth = new AuthStore(options.agentDir);
  }

  /** Reads auth.json and models.json. Call before registering providers so overrides apply. */
  async loadConfig(): Promise<void> {
    await this.auth.load(this.#warn);
    const path = modelsJsonPath(this.#agentDir);
    const result = await readModelsJson(path);
    if (result.error) {
      this.#warn(`${result.error} (models.json ignored; built-in models kept)`);
      return;
    }
    for (const [name, config] of Object.entries(result.file?.providers ?? {})) this.#config.set(name, config);
  }

  /** Registers models.json providers that no plugin provides (custom OpenAI-compatible servers...). */
  registerCustomProviders(): void {
    for (const [name, config] of this.#config) {
      if (this.#providers.has(name) || !config.models?.length) continue;
      const problem = customProviderProblem(name, config);
      if (problem) {
        this.#warn(`Invalid models file ${modelsJsonPath(this.#agentDir)}: ${problem} (provider skipped)`);
        continue;
      }
      this.registerProvider(customProvider(name, config));
    }
  }

  registerProvider(registration: ProviderRegistration): void {
    const existing = this.#providers.get(registration.name);
    let merged = registration;
    if (existing) {
      const byId = new Map(existing.models.map((m) => [m.id, m]));
      for (const model of registration.models) byId.set(model.id, model);
      merged = { ...existing, ...registration, models: [...byId.values()] };
    }
    const config = this.#config.get(registration.name);
    this.#providers.set(registration.name, config ? applyProviderConfig(merged, config) : merged);
  }

  all(): Model[] {
    return [...this.#providers.values()].flatMap((p) => p.models);
  }

  available(): Model[] {
    return [...this.#providers.values()].filter((p) => this.authStatus(p.name).configured).flatMap((p) => p.models);
  }

  find(provider: string, id: string): Model | undefined {
    return this.#providers.get(provider)?.models.find((m) => m.id === id);
  }

  hasProvider(provider: string): boolean {
    return this.#providers.has(provider);
  }

  providers(): string[] {
    return [...this.#providers.keys()];
  }

  async apiKey(provider: string): Promise<string | undefined> {
    const stored = this.auth.key(provider);
    if (stored) return stored;
    const variable = this.#providers.get(provider)?.envKey;
    if (variable && this.#env[variable]) return this.#env[variable];
    const configured = this.#config.get(provider)?.apiKey ?? this.#providers.get(provider)?.apiKey;
    return configured ? resolveConfigValue(configured, { env: this.#env }) : undefined;
  }

  async headers(model: Model): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(model.headers ?? {})) {
      const resolved = await resolveConfigValue(value, { env: this.#env, bareNameIsEnv: false });
      if (resolved !== undefined) out[name] = resolved;
    }
    return out;
  }

  authStatus(provider: string): AuthStatus {
    if (this.#providers.get(provider)?.requiresAuth === false) return { configured: true, source: "none" };
    if (this.auth.has(provider)) return { configured: true, source: "stored", label: "auth.json" };
    const variable = this.#providers.get(provider)?.envKey;
    if (variable && this.#env[variable]) return { configured: true, source: "environment", label: variable };
    const fromFile = this.#config.get(provider)?.apiKey;
    const configured = fromFile ?? this.#providers.get(provider)?.apiKey;
    if (configured) {
      const described = describeConfigValue(configured, { env: this.#env });
      if (described.resolvable) {
        // A key that names an env var is environment auth, and reported as such.
        if (described.kind === "env") return { configured: true, source: "environment", label: described.envName! };
        return fromFile ? { configured: true, source: "models_json", label: "models.json" } : { configured: true, source: "provider", label: "registered by the provider" };
      }
    }
    return { configured: false };
  }

  storeApiKey(provider: string, key: string): Promise<void> {
    return this.auth.set(provider, key);
  }

  removeStoredKey(provider: string): Promise<boolean> {
    return this.auth.remove(provider);
  }
}
