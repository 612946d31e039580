/**
 * pi's `parseArgs`: pi's command line (the options Atomic's own CLI also accepts, under pi's
 * names) read into pi's `Args` record, for an extension that reads a command line the way pi's
 * CLI would. Nothing is validated beyond what pi checks; problems are `diagnostics`, never thrown.
 * Options it does not know are `unknownFlags` (extension flags), as in pi.
 */
import { THINKING_LEVELS, type ThinkingLevel } from "../../../lib/llm/index.js";

export type Mode = "text" | "json" | "rpc";

export interface Args {
  provider?: string;
  model?: string;
  apiKey?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  thinking?: ThinkingLevel;
  continue?: boolean;
  resume?: boolean;
  help?: boolean;
  version?: boolean;
  mode?: Mode;
  name?: string;
  noSession?: boolean;
  session?: string;
  sessionId?: string;
  fork?: string;
  sessionDir?: string;
  models?: string[];
  tools?: string[];
  excludeTools?: string[];
  noTools?: boolean;
  noBuiltinTools?: boolean;
  extensions?: string[];
  noExtensions?: boolean;
  noMcp?: boolean;
  print?: boolean;
  export?: string;
  noSkills?: boolean;
  skills?: string[];
  promptTemplates?: string[];
  noPromptTemplates?: boolean;
  themes?: string[];
  useTheme?: string;
  noThemes?: boolean;
  noContextFiles?: boolean;
  listModels?: string | true;
  offline?: boolean;
  tuiMode?: "regular" | "fullscreen";
  verbose?: boolean;
  projectTrustOverride?: boolean;
  messages: string[];
  fileArgs: string[];
  unknownFlags: Map<string, boolean | string>;
  diagnostics: { type: "warning" | "error"; message: string }[];
}

type Key = Exclude<keyof Args, "messages" | "fileArgs" | "unknownFlags" | "diagnostics">;
/** `true`: a switch (sets the value given); `text`: takes the next argument; `list`: one more each time; `csv`: a comma list. */
type Option = { key: Key; takes: "switch"; value?: boolean } | { key: Key; takes: "text" | "list" | "csv" };

const OPTIONS: Record<string, Option> = {};
const define = (names: string[], option: Option) => {
  for (const name of names) OPTIONS[name] = option;
};
define(["--help", "-h"], { key: "help", takes: "switch" });
define(["--version", "-v"], { key: "version", takes: "switch" });
define(["--continue", "-c"], { key: "continue", takes: "switch" });
define(["--resume", "-r"], { key: "resume", takes: "switch" });
define(["--no-session"], { key: "noSession", takes: "switch" });
define(["--no-tools", "-nt"], { key: "noTools", takes: "switch" });
define(["--no-builtin-tools", "-nbt"], { key: "noBuiltinTools", takes: "switch" });
define(["--no-extensions", "-ne"], { key: "noExtensions", takes: "switch" });
define(["--no-mcp"], { key: "noMcp", takes: "switch" });
define(["--no-skills", "-ns"], { key: "noSkills", takes: "switch" });
define(["--no-prompt-templates", "-np"], { key: "noPromptTemplates", takes: "switch" });
define(["--no-themes"], { key: "noThemes", takes: "switch" });
define(["--no-context-files", "-nc"], { key: "noContextFiles", takes: "switch" });
define(["--verbose"], { key: "verbose", takes: "switch" });
define(["--offline"], { key: "offline", takes: "switch" });
define(["--approve", "-a"], { key: "projectTrustOverride", takes: "switch", value: true });
define(["--no-approve", "-na"], { key: "projectTrustOverride", takes: "switch", value: false });
for (const [name, key] of [
  ["--provider", "provider"],
  ["--model", "model"],
  ["--api-key", "apiKey"],
  ["--system-prompt", "systemPrompt"],
  ["--session", "session"],
  ["--session-id", "sessionId"],
  ["--fork", "fork"],
  ["--session-dir", "sessionDir"],
  ["--export", "export"],
] as const)
  define([name], { key, takes: "text" });
define(["--append-system-prompt"], { key: "appendSystemPrompt", takes: "list" });
define(["--extension", "-e"], { key: "extensions", takes: "list" });
define(["--skill"], { key: "skills", takes: "list" });
define(["--prompt-template"], { key: "promptTemplates", takes: "list" });
define(["--theme"], { key: "themes", takes: "list" });
define(["--models"], { key: "models", takes: "csv" });
define(["--tools", "-t"], { key: "tools", takes: "csv" });
define(["--exclude-tools", "-xt"], { key: "excludeTools", takes: "csv" });

const commaList = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");

/** `+name` / `-name` entries add to or take from the default tools; they cannot be mixed with names, nor be patterns. */
function toolListError(entries: string[]): string | undefined {
  const modifiers = entries.filter((entry) => entry.startsWith("+") || entry.startsWith("-"));
  if (modifiers.length === 0) return undefined;
  if (modifiers.length < entries.length) return "tool names cannot be mixed with +name or -name entries";
  const pattern = modifiers.find((entry) => entry.includes("*"));
  return pattern ? `+name and -name entries take exact tool names, not patterns: ${pattern}` : undefined;
}

const isOptionLike = (text: string | undefined) => text === undefined || text.startsWith("-");

export function parseArgs(argv: string[]): Args {
  const args: Args = { messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] };
  const set = args as unknown as Record<Key, unknown>;
  const error = (message: string) => args.diagnostics.push({ type: "error", message });
  const positional = (text: string) => (text.startsWith("@") ? args.fileArgs.push(text.slice(1)) : args.messages.push(text));
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const next = argv[index + 1];
    const option = OPTIONS[arg];
    if (arg === "--") {
      for (const rest of argv.slice(index + 1)) positional(rest);
      break;
    }
    if (option?.takes === "switch") {
      set[option.key] = option.value ?? true;
    } else if (option && next !== undefined) {
      index++;
      if (option.takes === "text") set[option.key] = next;
      else if (option.takes === "list") set[option.key] = [...((set[option.key] as string[] | undefined) ?? []), next];
      else {
        const entries = commaList(next);
        const problem = option.key === "tools" ? toolListError(entries) : undefined;
        if (problem) error(`${arg}: ${problem}`);
        else set[option.key] = entries;
      }
    } else if (arg === "--mode") {
      if (isOptionLike(next)) {
        error("--mode requires text, json, or rpc");
        continue;
      }
      index++;
      if (next === "text" || next === "json" || next === "rpc") args.mode = next;
      else error(`Invalid mode "${next}". Valid values: text, json, rpc`);
    } else if (arg === "--name" || arg === "-n") {
      if (next === undefined) error("--name requires a value");
      else args.name = argv[++index];
    } else if (arg === "--thinking" && next !== undefined) {
      index++;
      if ((THINKING_LEVELS as readonly string[]).includes(next)) args.thinking = next as ThinkingLevel;
      else args.diagnostics.push({ type: "warning", message: `Invalid thinking level "${next}". Valid values: ${THINKING_LEVELS.join(", ")}` });
    } else if (arg === "--print" || arg === "-p") {
      args.print = true;
      // The prompt may follow at once (a `---` line of frontmatter is a prompt, not an option).
      if (next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---"))) {
        args.messages.push(next);
        index++;
      }
    } else if (arg === "--list-models") {
      if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) args.listModels = argv[++index]!;
      else args.listModels = true;
    } else if (arg === "--use-theme") {
      if (isOptionLike(next)) error("--use-theme requires a theme name");
      else args.useTheme = argv[++index];
    } else if (arg === "--tui-mode") {
      if (next === "regular" || next === "fullscreen") {
        args.tuiMode = next;
        index++;
      } else if (isOptionLike(next)) {
        error("--tui-mode requires regular or fullscreen");
      } else {
        index++;
        error(`Invalid TUI mode "${next}". Valid values: regular, fullscreen`);
      }
    } else if (arg.startsWith("@")) {
      args.fileArgs.push(arg.slice(1));
    } else if (arg.startsWith("--")) {
      // An extension's flag: `--name=value`, `--name value` or a switch.
      const equals = arg.indexOf("=");
      if (equals !== -1) args.unknownFlags.set(arg.slice(2, equals), arg.slice(equals + 1));
      else if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) args.unknownFlags.set(arg.slice(2), argv[++index]!);
      else args.unknownFlags.set(arg.slice(2), true);
    } else if (arg.startsWith("-")) {
      error(`Unknown option: ${arg}`);
    } else {
      args.messages.push(arg);
    }
  }
  return args;
}
