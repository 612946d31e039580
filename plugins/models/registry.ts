/** The model catalog: providers, their models, and which of them have credentials. */
import type { Model } from "../../kernel/index.js";
import type { AuthStatus, ModelsApi, ProviderRegistration } from "./api.js";

/** Environment variables holding each built-in provider's API key. */
export const ENV_KEYS: Record<string, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GEMINI_API_KEY",
};

export class ModelRegistry implements ModelsApi {
  readonly #providers = new Map<string, ProviderRegistration>();
  readonly #env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv) {
    this.#env = env;
  }

  registerProvider(registration: ProviderRegistration): void {
    const existing = this.#providers.get(registration.name);
    if (!existing) {
      this.#providers.set(registration.name, registration);
      return;
    }
    const byId = new Map(existing.models.map((m) => [m.id, m]));
    for (const model of registration.models) byId.set(model.id, model);
    this.#providers.set(registration.name, { ...existing, ...registration, models: [...byId.values()] });
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

  async apiKey(provider: string): Promise<string | undefined> {
    const variable = ENV_KEYS[provider];
    return variable ? this.#env[variable] || undefined : undefined;
  }

  async headers(model: Model): Promise<Record<string, string>> {
    return model.headers ?? {};
  }

  authStatus(provider: string): AuthStatus {
    const registration = this.#providers.get(provider);
    if (registration?.requiresAuth === false) return { configured: true, source: "none" };
    const variable = ENV_KEYS[provider];
    if (variable && this.#env[variable]) return { configured: true, source: "environment", label: variable };
    return { configured: false };
  }
}
