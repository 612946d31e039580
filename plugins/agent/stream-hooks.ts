/**
 * The `stream` hook map (providers, keyed by API name) and the error for a model whose API no
 * provider serves. The map keeps the names it made a hook for, so that error can list the APIs
 * there are and the one probably meant: an API name is typed by hand in models.json, and
 * `openai-completion` for `openai-completions` otherwise fails only at the first prompt, naming
 * neither the file nor what would have worked. Keeping a name is one push per API a provider
 * taps at startup; the listing and the lookup of where the API was set run on the error only.
 */
import { HookMap, SyncBailHook } from "tapable";
import { didYouMean } from "../../lib/closest/index.js";
import type { AssistantStream, Model, StreamRequest } from "../../lib/llm/index.js";

export type StreamHook = SyncBailHook<[StreamRequest], AssistantStream | undefined>;

export class StreamHooks extends HookMap<StreamHook> {
  readonly #keys: string[];

  constructor() {
    const keys: string[] = [];
    super((api: string) => {
      keys.push(api);
      return new SyncBailHook<[StreamRequest], AssistantStream | undefined>(["request"], `stream:${api}`);
    });
    this.#keys = keys;
  }

  /** The APIs some provider serves (its hook has a tap), sorted. */
  apis(): string[] {
    return this.#keys.filter((api) => this.get(api)?.isUsed()).sort();
  }
}

/**
 * `No provider is registered for API "x" (model p/m, from providers.p.api in <file>). Registered
 * APIs: .... Did you mean "y"?`; `origin` says where the model's API was set, when the models
 * plugin knows (a models.json key).
 */
export function noProviderMessage(hooks: StreamHooks, model: Model, origin: string | undefined): string {
  const apis = hooks.apis();
  const where = `model ${model.provider}/${model.id}${origin ? `, from ${origin}` : ""}`;
  return `No provider is registered for API "${model.api}" (${where}). Registered APIs: ${apis.join(", ") || "none"}.${didYouMean(apis, model.api)}`;
}
