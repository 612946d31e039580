/**
 * The slash-command registry's public surface (`k.service("slashCommands")`): sources (extension
 * commands, prompt templates, skills) contribute entries and run or expand `/name args` when a
 * `prompt`, `steer` or `follow_up` starts with one of their names. Types and pure helpers only.
 */
import type { SourceInfo } from "../../lib/resource-files/index.js";
import type { InputEvent } from "../agent/api.js";

export type { SourceInfo } from "../../lib/resource-files/index.js";
import type { SlashCommandsHooks } from "./hooks.js";

export type { ResourcesDiscoverEvent, SlashCommandsHooks } from "./hooks.js";

/** get_commands `source`, and the expansion stage an entry runs in. */
export type SlashCommandSource = "extension" | "prompt" | "skill";

/** get_commands `location`: not present for extension commands. */
export type SlashCommandLocation = "user" | "project" | "path";

/** One get_commands entry. */
export interface SlashCommandEntry {
  /** Invoked as `/<name>`; skills are named `skill:<name>`. */
  name: string;
  description?: string;
  source: SlashCommandSource;
  location?: SlashCommandLocation;
  /** Absolute path of the file it came from (the extension, the template, the SKILL.md). */
  path?: string;
  /** pi 1.x's `sourceInfo`: the file and how it was found; absent: derived from `location` and `path`. */
  sourceInfo?: SourceInfo;
}

export interface SlashInvocation {
  entry: SlashCommandEntry;
  /** The text after the name and the whitespace that follows it ("" when none). */
  args: string;
  /** The input as it reached this stage; return an outcome instead of editing it. */
  input: Readonly<InputEvent>;
}

/**
 * `{text}` replaces the input text (an expansion; sent or queued by the agent); `{handled: true}`
 * consumes the input (an extension command ran: nothing is sent or queued); `undefined` leaves it.
 */
export type SlashOutcome = { text: string } | { handled: true } | undefined;

export interface SlashCommandProvider {
  /** A plugin name or an extension's path: named in diagnostics and `extension_error`. */
  owner: string;
  source: SlashCommandSource;
  /** A cheap test that `name` could be one of its entries (skills: the `skill:` prefix); spares a scan for other `/words`. */
  handles?(name: string): boolean;
  /** The current entries; asked on every listing and every `/word` input, so keep it cheap. */
  entries(): readonly SlashCommandEntry[] | Promise<readonly SlashCommandEntry[]>;
  /**
   * pi's built-in commands (`/mcp`, `/llama`): asked after every other provider of the source,
   * and a name another provider also lists is theirs (in pi an extension's `/mcp` replaces the
   * built-in one), so the built-in entry is neither listed nor run.
   */
  builtin?: boolean;
  /**
   * The input's error for a name it `handles` that no provider lists (skills: `/skill:name` can
   * mean nothing else, so a slip is refused, not sent to the model as typed). Undefined, or no
   * `unknown`: the input passes on untouched.
   */
  unknown?(name: string): string | undefined | Promise<string | undefined>;
  /**
   * Runs or expands one of its entries. Extension commands are invoked only for `prompt` (the
   * registry refuses them for `steer`/`follow_up`). A throw is reported as `extension_error`:
   * an extension command then counts as handled, an expansion leaves the input as it was.
   */
  invoke(call: SlashInvocation): SlashOutcome | Promise<SlashOutcome>;
}

export interface SlashCommandsApi {
  /** Adds a source of commands (also after boot: extensions); returns a function that removes it. */
  addProvider(provider: SlashCommandProvider): () => void;
  /** Every entry: extension commands, then prompt templates, then skills (get_commands). */
  list(): Promise<SlashCommandEntry[]>;
  /**
   * Runs every stage on `input`, as the `input` hook does for clients. Input an extension sends
   * (`source: "extension"`) is not expanded by the hook (as in pi, so an extension's own message
   * cannot loop through commands); an extension that asks for expansion (`sendUserMessage` with
   * `expandPromptTemplates`) runs it through here first.
   */
  expand(input: InputEvent): Promise<InputEvent>;
  /**
   * Extra skill and prompt paths extensions announce through the `resources_discover` hook
   * (asked once, on first use, then remembered).
   */
  discoveredPaths(): Promise<{ skillPaths: string[]; promptPaths: string[] }>;
}

/**
 * The `input` hook's expansion stages, in order: extension commands run first (group `pre`,
 * before extensions' own `input` handlers, which load later), then skill expansion, then
 * template expansion (group `post`, in this order). One pass, no recursion: an expansion is
 * never expanded again.
 */
export const EXPANSION_ORDER: readonly SlashCommandSource[] = ["extension", "skill", "prompt"];
export const INPUT_GROUP: Readonly<Record<SlashCommandSource, "pre" | "post">> = Object.freeze({ extension: "pre", skill: "post", prompt: "post" });

/** The order get_commands lists sources in (the protocol's example). */
export const SOURCE_ORDER: readonly SlashCommandSource[] = ["extension", "prompt", "skill"];

/** The exact error for an extension command sent by steer/follow_up (docs/decisions.md#error-strings). */
export function cannotQueueExtensionCommand(name: string): string {
  return `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`;
}

/**
 * `/name args` split at the first whitespace: the name (without the slash) and the rest with
 * that whitespace removed. Undefined when the text does not start with `/` followed by a name.
 */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  if (text.charCodeAt(0) !== 0x2f) return undefined;
  const match = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trimEnd() };
}

declare module "../../kernel/services.js" {
  interface Services {
    slashCommands: SlashCommandsApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends SlashCommandsHooks {}
}

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { slashCommandsHookDeclarations } from "./hooks.js";
