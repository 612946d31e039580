/**
 * pi's system prompt inputs (`systemPromptOptions` in before_agent_start, the command context's
 * `getSystemPromptOptions()`), made from what Atomic knows: the folder, the active tools, and
 * what extension tools contribute. In before_agent_start one object is shared by the run's
 * handlers (later ones see earlier changes) and read back once they are done: `selectedTools`
 * becomes the active set, `forceSystemPrompt` replaces the prompt, `promptGuidelines` and
 * `sections` are added to it.
 */
import type { ExtensionHost } from "./host.js";
import type { SystemPromptOptions } from "./types/events.js";

export function systemPromptOptions(host: ExtensionHost): SystemPromptOptions {
  const { k } = host;
  const active = k.tools.activeNames();
  const toolGuidelines: Record<string, string[]> = {};
  for (const [name, lines] of host.toolGuidelines) if (k.tools.isActive(name)) toolGuidelines[name] = [...lines];
  const toolSnippets: Record<string, string> = {};
  for (const [name, meta] of host.toolMeta) if (meta.promptSnippet && k.tools.isActive(name)) toolSnippets[name] = meta.promptSnippet;
  return {
    cwd: k.config.cwd,
    selectedTools: active,
    hiddenTools: [],
    toolSnippets,
    toolGuidelines,
    promptGuidelines: [],
    appendSystemPrompt: "",
    sections: {},
    contextFiles: [],
    skills: [],
  };
}

/** One run's options, shared by its before_agent_start handlers (keyed by the run's `inject` list, which every handler's payload shares). */
export class RunPromptOptions {
  readonly #byRun = new WeakMap<object, { options: SystemPromptOptions; tools: string[] }>();

  for(host: ExtensionHost, run: object): SystemPromptOptions {
    let entry = this.#byRun.get(run);
    if (!entry) {
      const options = systemPromptOptions(host);
      entry = { options, tools: [...options.selectedTools] };
      this.#byRun.set(run, entry);
    }
    return entry.options;
  }

  /** The run's prompt once every handler ran: the chained prompt with the options' changes applied. */
  apply(host: ExtensionHost, run: object, systemPrompt: string): string {
    const entry = this.#byRun.get(run);
    if (!entry) return systemPrompt;
    const { options, tools } = entry;
    const selected = Array.isArray(options.selectedTools) ? options.selectedTools.filter((name): name is string => typeof name === "string") : tools;
    if (selected.join("\n") !== tools.join("\n")) host.setActiveToolsFromPrompt(selected);
    if (typeof options.forceSystemPrompt === "string") return options.forceSystemPrompt;
    const additions: string[] = [];
    const guidelines = Array.isArray(options.promptGuidelines) ? options.promptGuidelines.filter((line) => typeof line === "string" && line.trim() !== "") : [];
    if (guidelines.length > 0) additions.push(guidelines.map((line) => `- ${line.trim()}`).join("\n"));
    for (const [name, text] of Object.entries(options.sections ?? {})) {
      if (typeof text === "string" && text.trim() !== "") additions.push(`<${name}>\n${text.trim()}\n</${name}>`);
    }
    return additions.length === 0 ? systemPrompt : `${systemPrompt.trimEnd()}\n\n${additions.join("\n\n")}`;
  }
}
