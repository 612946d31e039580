/**
 * Which registered tools the model is offered, as pi 1.6 chooses them: by default pi's four
 * (read, bash, edit, write) and every tool a plugin or extension registers active; grep, find and
 * ls are registered but offered only when named. The `tools` setting and `--tools` either name
 * the selection (plain names or `*` patterns) or change the defaults (`+name` / `-name` entries
 * only); `--no-builtin-tools` drops the built-in tools from the defaults, `--no-tools` offers
 * none, and `--exclude-tools` removes names or patterns after everything else. The rule is
 * asked for every tool, so one registered later (an extension's, at run time) follows it too.
 */
import { UsageError, type CliOptions, type FlagSpec, type ToolDefinition, type ToolSelection } from "../../kernel/index.js";

export const toolFlags: FlagSpec[] = [
  {
    name: "--tools",
    alias: "-t",
    key: "tools",
    value: "<list>",
    description:
      "Comma-separated tools the model is offered (names or * patterns), replacing the defaults read,bash,edit,write; only +name/-name entries change the defaults instead (e.g. +grep,-write).",
  },
  { name: "--no-tools", alias: "-nt", key: "noTools", description: "Offer the model no tools (--tools can add some back)." },
  {
    name: "--exclude-tools",
    alias: "-xt",
    key: "excludeTools",
    value: "<list>",
    description: "Never offer these tools (comma-separated names or * patterns), whatever else selects them.",
  },
  {
    name: "--no-builtin-tools",
    alias: "-nbt",
    key: "noBuiltinTools",
    description: "Leave the built-in tools (read, bash, edit, write, grep, find, ls) out of the defaults; extension tools stay.",
  },
];

/** The tools Atomic itself ships (the `tools` and `bash` plugins). */
export const BUILTIN_TOOLS: ReadonlySet<string> = new Set(["read", "bash", "edit", "write", "grep", "find", "ls"]);

/** A parsed list: plain names or patterns (a selection), or `+`/`-` entries (changes to the defaults). */
type ToolList = { kind: "names"; entries: string[] } | { kind: "changes"; add: string[]; remove: string[] };

function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    ),
  ];
}

function parseList(entries: readonly string[], where: string): ToolList {
  const signed = entries.filter((entry) => entry.startsWith("+") || entry.startsWith("-"));
  if (signed.length === 0) return { kind: "names", entries: [...entries] };
  if (signed.length < entries.length)
    throw new UsageError(`${where} mixes tool names with +name/-name entries: use names (the whole selection) or +name/-name (changes to the defaults), not both`);
  return { kind: "changes", add: signed.filter((e) => e.startsWith("+")).map((e) => e.slice(1)), remove: signed.filter((e) => e.startsWith("-")).map((e) => e.slice(1)) };
}

const isPattern = (entry: string) => entry.includes("*");

/** `*` matches any characters; everything else is literal. */
function matcher(entries: readonly string[]): (name: string) => boolean {
  const exact = new Set(entries.filter((entry) => !isPattern(entry)));
  const patterns = entries.filter(isPattern).map((entry) => new RegExp(`^${entry.split("*").map(escapeRegExp).join(".*")}$`));
  return (name) => exact.has(name) || patterns.some((pattern) => pattern.test(name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface ToolChoiceInput {
  cli: CliOptions;
  /** The `tools` setting. */
  setting: readonly string[] | undefined;
  /** Every tool registered by the end of boot (names the flags give are checked against them). */
  registered: readonly string[];
  warn(message: string): void;
}

/**
 * The selection the flags and the setting ask for; undefined when none is given (the registry's
 * default: every `defaultActive` tool). A name the command line gives that no tool has is a usage
 * error listing the registered tools; one the setting gives is a warning (an extension may be gone).
 */
export function toolSelection({ cli, setting, registered, warn }: ToolChoiceInput): ToolSelection {
  const flagList = cli.tools === undefined ? undefined : parseList(splitList(cli.tools), "--tools");
  const exclude = cli.excludeTools === undefined ? undefined : splitList(cli.excludeTools);
  if (flagList === undefined && exclude === undefined && setting === undefined && !cli.noTools && !cli.noBuiltinTools) return undefined;

  const known = new Set(registered);
  const unknownOf = (names: readonly string[]) => names.filter((name) => !isPattern(name) && !known.has(name));
  const flagNames = flagList ? (flagList.kind === "names" ? flagList.entries : [...flagList.add, ...flagList.remove]) : [];
  const unknown = unknownOf(flagNames);
  if (unknown.length > 0) throw new UsageError(`Unknown tool${unknown.length > 1 ? "s" : ""} in --tools: ${unknown.join(", ")}. Available: ${registered.join(", ")}`);
  for (const name of unknownOf(exclude ?? [])) warn(`--exclude-tools: no tool is named ${name}`);

  let settingList: ToolList | undefined;
  if (setting !== undefined) {
    try {
      settingList = parseList(setting, "The tools setting");
      const names = settingList.kind === "names" ? settingList.entries : [...settingList.add, ...settingList.remove];
      const missing = unknownOf(names);
      if (missing.length > 0) warn(`The tools setting names ${missing.length > 1 ? "tools that are" : "a tool that is"} not registered: ${missing.join(", ")} (left out)`);
    } catch (error) {
      warn(`${(error as Error).message}; the setting is ignored`);
      settingList = undefined;
    }
  }

  const defaults = defaultRule(settingList, Boolean(cli.noBuiltinTools));
  let rule: (name: string, definition: ToolDefinition) => boolean;
  if (flagList?.kind === "names") rule = matcher(flagList.entries);
  else if (cli.noTools) rule = flagList ? changed(() => false, flagList) : () => false;
  else rule = flagList ? changed(defaults, flagList) : defaults;
  if (!exclude) return rule;
  const excluded = matcher(exclude);
  return (name, definition) => !excluded(name) && rule(name, definition);
}

/** The defaults: each tool's `defaultActive`, or the setting's names for the built-in tools, then its changes. */
function defaultRule(setting: ToolList | undefined, noBuiltin: boolean): (name: string, definition: ToolDefinition) => boolean {
  const named = setting?.kind === "names" ? matcher(setting.entries) : undefined;
  const base = (name: string, definition: ToolDefinition) => {
    // As pi's defaultTools: names choose the built-in tools (and may switch on a tool registered inactive); other tools keep their default.
    if (named?.(name)) return !(noBuiltin && BUILTIN_TOOLS.has(name));
    if (BUILTIN_TOOLS.has(name)) return !noBuiltin && !named && definition.defaultActive !== false;
    return definition.defaultActive !== false;
  };
  return setting?.kind === "changes" ? changed(base, setting) : base;
}

function changed(base: (name: string, definition: ToolDefinition) => boolean, list: Extract<ToolList, { kind: "changes" }>): (name: string, definition: ToolDefinition) => boolean {
  const add = new Set(list.add);
  const remove = new Set(list.remove);
  return (name, definition) => (remove.has(name) ? false : add.has(name) ? true : base(name, definition));
}

declare module "../../kernel/config.js" {
  interface CliOptions {
    tools?: string;
    noTools?: boolean;
    excludeTools?: string;
    noBuiltinTools?: boolean;
  }
  interface Settings {
    tools?: string[];
    defaultTools?: string[];
  }
}

/**
 * pi's `defaultTools` setting as the `tools` setting reads it. Across files a project list of only
 * `+name`/`-name` entries changes the user's list (appended), any other replaces it; within one list
 * the plain names are the selection and the `+`/`-` entries then apply in order.
 */
export function piDefaultTools(layers: { user?: unknown; project?: unknown }): string[] | undefined {
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : undefined);
  const user = list(layers.user);
  const project = list(layers.project);
  const isChange = (entry: string) => entry.startsWith("+") || entry.startsWith("-");
  const merged = project === undefined ? user : user !== undefined && project.every(isChange) ? [...user, ...project] : project;
  if (merged === undefined) return undefined;
  const plain = merged.filter((entry) => !isChange(entry));
  if (plain.length === 0 && merged.length > 0) return merged;
  const names = [...plain];
  for (const entry of merged.filter(isChange)) {
    const name = entry.slice(1);
    const at = names.indexOf(name);
    if (entry.startsWith("+") && at === -1) names.push(name);
    if (entry.startsWith("-") && at !== -1) names.splice(at, 1);
  }
  return names;
}
