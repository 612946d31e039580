/**
 * What the model registry (registry.ts) read from models.json and auth.json: each provider's
 * models.json block, what the file broke (the requests it refuses rather than send them where
 * the file did not), and the diagnostics, with every configuration problem reported so far.
 * Apart from the catalog itself, which applies these blocks as providers register.
 */
import type { Model } from "../../lib/llm/index.js";
import type { ModelsDiagnostics } from "./api.js";
import type { AuthStore } from "./auth-store.js";
import { modelsJsonPath, readModelsJson, type ModelsJsonBlocks, type ProviderConfig } from "./models-json.js";

export class ConfigFiles {
  /** models.json blocks by provider; applied whenever that provider registers. */
  readonly providers = new Map<string, ProviderConfig>();
  /** What models.json broke: refused instead of sent where the file did not send it. */
  #blocks: ModelsJsonBlocks = { providers: new Map(), models: new Map() };
  readonly #agentDir: string;
  readonly #auth: AuthStore;
  readonly #diagnostics: ModelsDiagnostics;
  /** Warns, and keeps the message (once) among the diagnostics' problems. */
  readonly warn: (message: string) => void;

  constructor(agentDir: string, auth: AuthStore, warn: ((message: string) => void) | undefined) {
    this.#agentDir = agentDir;
    this.#auth = auth;
    this.#diagnostics = {
      modelsJson: { path: modelsJsonPath(agentDir), state: "missing", providers: [] },
      authFile: { path: auth.path, providers: [] },
      problems: [],
    };
    const report = warn ?? (() => {});
    this.warn = (message) => {
      if (!this.#diagnostics.problems.includes(message)) this.#diagnostics.problems.push(message);
      report(message);
    };
  }

  /** Reads auth.json and models.json. */
  async load(): Promise<void> {
    const authError = await this.#auth.load(this.warn);
    if (authError) this.#diagnostics.authFile.error = authError;
    this.#diagnostics.authFile.providers = this.#auth.providers();
    const path = modelsJsonPath(this.#agentDir);
    const result = await readModelsJson(path);
    this.#blocks = result.blocks;
    if (result.error) {
      this.#diagnostics.modelsJson = { path, state: "invalid", providers: [], error: result.error };
      this.warn(`${result.error} (models.json ignored: every provider refuses requests until it is fixed)`);
      return;
    }
    for (const problem of result.problems) this.warn(problem);
    for (const note of result.notes) this.warn(note);
    const providers = Object.entries(result.file?.providers ?? {});
    for (const [name, config] of providers) this.providers.set(name, config);
    if (result.file) {
      const problems = result.problems.length > 0 ? { problems: [...result.problems] } : {};
      this.#diagnostics.modelsJson = { path, state: "loaded", providers: providers.map(([name]) => name), ...problems };
    }
  }

  /**
   * Why requests to `model` are refused, when models.json had an error about it: an entry about
   * the model, its provider's own fields, or the whole file (nothing is sent where the file might
   * have sent it elsewhere). The offline replay provider sends nothing and is never refused.
   */
  blockedReason(model: Pick<Model, "provider" | "id" | "api">): string | undefined {
    const blocks = this.#blocks;
    const own = blocks.models.get(`${model.provider}\0${model.id}`) ?? blocks.providers.get(model.provider);
    return own ?? (model.api === "replay" ? undefined : blocks.all);
  }

  diagnostics(): ModelsDiagnostics {
    const { modelsJson, authFile, problems } = this.#diagnostics;
    return {
      modelsJson: { ...modelsJson, providers: [...modelsJson.providers], ...(modelsJson.problems ? { problems: [...modelsJson.problems] } : {}) },
      authFile: { ...authFile, providers: this.#auth.providers() },
      problems: [...problems],
    };
  }
}
