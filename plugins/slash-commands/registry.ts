/**
 * The slash-command registry: providers by source, the listing get_commands returns, and the
 * dispatch each `input` stage runs. Input that does not start with `/name` of a known entry
 * passes through untouched (it may be a path or an ordinary message).
 */
import type { InputEvent } from "../agent/api.js";
import {
  cannotQueueExtensionCommand,
  parseSlash,
  EXPANSION_ORDER,
  SOURCE_ORDER,
  type SlashCommandEntry,
  type SlashCommandProvider,
  type SlashCommandSource,
  type SlashOutcome,
} from "./api.js";

/** How a failing provider is reported: `extension_error` plus a stderr line. */
/** `thrown`: the error itself, for the report to name where in the owner's file it was thrown. */
export type ReportFailure = (owner: string, event: string, error: string, thrown?: unknown) => void;

/** The `extension_error` event name for a failure while running or expanding an entry. */
const FAILURE_EVENT: Record<SlashCommandSource, string> = { extension: "command", skill: "skill_expansion", prompt: "prompt_expansion" };

export class SlashCommandRegistry {
  readonly #providers: SlashCommandProvider[] = [];
  /** Inputs a stage produced: one pass, so an expansion is never expanded by a later stage. */
  readonly #expanded = new WeakSet<InputEvent>();

  constructor(private readonly reportFailure: ReportFailure) {}

  addProvider(provider: SlashCommandProvider): () => void {
    this.#providers.push(provider);
    return () => {
      const index = this.#providers.indexOf(provider);
      if (index >= 0) this.#providers.splice(index, 1);
    };
  }

  /** Every entry, by source in get_commands order, then by provider order. Sources are asked concurrently. */
  async list(): Promise<SlashCommandEntry[]> {
    const providers = this.#ordered().sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source));
    const lists = await Promise.all(providers.map((provider) => this.#entriesOf(provider)));
    const taken = new Set(lists.flatMap((entries, i) => (providers[i]!.builtin ? [] : entries.map((entry) => `${providers[i]!.source}/${entry.name}`))));
    return lists.flatMap((entries, i) => {
      const provider = providers[i]!;
      const visible = provider.builtin ? entries.filter((entry) => !taken.has(`${provider.source}/${entry.name}`)) : entries;
      return visible.map((entry) => ({ ...entry, source: provider.source }));
    });
  }

  /** Every stage in order (extension commands, skills, templates): what the input hook does, on demand. */
  async expand(event: InputEvent): Promise<InputEvent> {
    let current = event;
    for (const source of EXPANSION_ORDER) current = await this.dispatch(source, current);
    return current;
  }

  /** One `input` stage: runs or expands `/name args` when a provider of `source` owns `name`. */
  async dispatch(source: SlashCommandSource, event: InputEvent): Promise<InputEvent> {
    if (event.handled || event.rejected !== undefined || this.#expanded.has(event)) return event;
    const slash = parseSlash(event.text);
    if (!slash) return event;
    const found = await this.#find(source, slash.name);
    if (!found) {
      const refusal = await this.#unknown(source, slash.name);
      return refusal === undefined ? event : { ...event, rejected: refusal };
    }
    if (source === "extension" && event.via !== "prompt") return { ...event, rejected: cannotQueueExtensionCommand(slash.name) };
    let outcome: SlashOutcome;
    try {
      outcome = await found.provider.invoke({ entry: found.entry, args: slash.args, input: event });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.reportFailure(found.provider.owner, FAILURE_EVENT[source], message, error);
      // A failed command still ran (its text must not reach the model). A failed expansion is
      // the prompt's error response: sent as typed, the model would get `/name args` instead.
      return source === "extension" ? { ...event, handled: true } : { ...event, rejected: `Cannot expand /${slash.name}: ${message}` };
    }
    if (!outcome) return event;
    if ("handled" in outcome) return { ...event, handled: true };
    const expanded = { ...event, text: outcome.text };
    this.#expanded.add(expanded);
    return expanded;
  }

  async #find(source: SlashCommandSource, name: string): Promise<{ provider: SlashCommandProvider; entry: SlashCommandEntry } | undefined> {
    for (const provider of this.#ordered()) {
      if (provider.source !== source || (provider.handles && !provider.handles(name))) continue;
      const entry = (await this.#entriesOf(provider)).find((candidate) => candidate.name === name);
      if (entry) return { provider, entry: { ...entry, source } };
    }
    return undefined;
  }

  /** The first refusal of a provider of `source` that claims `name`, unless a later stage lists it (then it is that stage's). */
  async #unknown(source: SlashCommandSource, name: string): Promise<string | undefined> {
    const claimants = this.#ordered().filter((provider) => provider.source === source && provider.unknown && (!provider.handles || provider.handles(name)));
    if (claimants.length === 0) return undefined;
    for (const later of EXPANSION_ORDER.slice(EXPANSION_ORDER.indexOf(source) + 1)) if (await this.#find(later, name)) return undefined;
    for (const provider of claimants) {
      try {
        const refusal = await provider.unknown!(name);
        if (refusal !== undefined) return refusal;
      } catch (error) {
        // It could not say why: the input passes on as it would have without it.
        this.reportFailure(provider.owner, FAILURE_EVENT[source], error instanceof Error ? error.message : String(error), error);
      }
    }
    return undefined;
  }

  /** Registration order, built-in providers last (the first provider listing a name owns it). */
  #ordered(): SlashCommandProvider[] {
    return [...this.#providers.filter((provider) => !provider.builtin), ...this.#providers.filter((provider) => provider.builtin)];
  }

  /** A provider whose listing fails contributes nothing this time, and the failure is reported. */
  async #entriesOf(provider: SlashCommandProvider): Promise<readonly SlashCommandEntry[]> {
    try {
      return await provider.entries();
    } catch (error) {
      this.reportFailure(provider.owner, "commands", error instanceof Error ? error.message : String(error));
      return [];
    }
  }
}
