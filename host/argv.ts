/**
 * Command-line flags composed from the plugins that accept them: one table per process, so
 * parsing, validation and --help never disagree. Unknown flags are collected rather than
 * rejected at once: extensions may register theirs while loading, and the host re-parses then.
 */
import { ErrorCode, KernelError, UsageError, type FlagSpec, type PluginDefinition } from "../kernel/index.js";
import { closest, typoDistance } from "../lib/closest/index.js";

/** Flags the host itself reads. */
export const CORE_FLAGS: readonly FlagSpec[] = [
  {
    name: "--mode",
    key: "mode",
    value: "<mode>",
    description:
      "Transport: rpc (JSON lines on stdin/stdout), json (one prompt, every event as a JSON line), print (one prompt, the answer as text; as -p), acp (Agent Client Protocol, for editors), or one a plugin registers. Default: settings `mode`, else rpc.",
  },
  { name: "--approve", key: "approve", description: "Trust this project for this run: its .atomic/extensions load and its execution settings apply." },
  { name: "--help", alias: "-h", key: "help", description: "Show this help." },
  { name: "--version", alias: "-v", key: "version", description: "Print the version." },
  { name: "--verbose", key: "verbose", description: "Also show on stderr what is otherwise only logged: MCP servers' own stderr (always in <agent dir>/mcp.log)." },
];

/**
 * pi's options that only concern its terminal UI (docs/decisions.md, Following pi 1.x): accepted, so a wrapper written for
 * pi starts Atomic, and ignored with one stderr line. Values are taken as pi takes them.
 */
export const TERMINAL_UI_FLAGS: readonly FlagSpec[] = [
  { name: "--no-themes", key: "ignoredNoThemes", description: "pi's terminal UI option: accepted and ignored." },
  { name: "--theme", key: "ignoredTheme", value: "<path>", repeatable: true, description: "pi's terminal UI option: accepted and ignored." },
  { name: "--use-theme", key: "ignoredUseTheme", value: "<name>", description: "pi's terminal UI option: accepted and ignored." },
  { name: "--tui-mode", key: "ignoredTuiMode", value: "<mode>", description: "pi's terminal UI option: accepted and ignored." },
];

/** The one stderr line for the terminal-UI options given, or undefined when none was. */
export function ignoredFlagsNotice(cli: Record<string, unknown>): string | undefined {
  const given = TERMINAL_UI_FLAGS.filter((flag) => cli[flag.key] !== undefined).map((flag) => flag.name);
  if (given.length === 0) return undefined;
  return `ignoring ${given.join(", ")}: pi's terminal-UI option${given.length > 1 ? "s have" : " has"} no effect in Atomic, which has no terminal UI`;
}

/** Flags with their owners; a name (or alias) claimed twice fails naming both owners. */
export function composeFlags(plugins: readonly PluginDefinition[]): { flag: FlagSpec; owner: string }[] {
  const byName = new Map<string, string>();
  const out: { flag: FlagSpec; owner: string }[] = [];
  const add = (owner: string, flags: readonly FlagSpec[]) => {
    for (const flag of flags) {
      for (const name of [flag.name, flag.alias].filter((n): n is string => !!n)) {
        const existing = byName.get(name);
        if (existing) throw new KernelError(ErrorCode.DUPLICATE, `Flag ${name} is declared by both "${existing}" and "${owner}"`, { plugin: owner });
        byName.set(name, owner);
      }
      out.push({ flag, owner });
    }
  };
  add("kernel", CORE_FLAGS);
  add("kernel", TERMINAL_UI_FLAGS);
  for (const plugin of plugins) if (plugin.flags) add(plugin.name, plugin.flags);
  return out;
}

export interface ParsedFlags {
  values: Record<string, unknown>;
  /** Arguments that are not flags, in order (prompts in print mode). */
  positionals: string[];
  /** Flags no table entry knows, as written (without a value). */
  unknown: string[];
}

/** A flag no plugin or extension declares; `option` is the flag as written (entry points may explain it). */
export class UnknownOptionError extends UsageError {
  readonly option: string;

  /** `known`: the flags there are, to name the one a typo most likely meant. */
  constructor(option: string, known: readonly FlagSpec[] = []) {
    const near = nearestFlag(option, known);
    // A word with spaces is a prompt that starts with "-", not a flag: `--` ends the options.
    const prompt = /\s/.test(option) ? ` (a prompt that starts with "-" goes after --: atomic -p -- ${JSON.stringify(option)})` : "";
    super(`Unknown option: ${option}${near ? ` (did you mean ${near}?)` : prompt}`);
    this.option = option;
  }
}

/**
 * The long flag meant: one whose `seeAlso` names the option, else the nearest a slip away (`--mdoe`,
 * `--sesion`): one edit in a name of up to four letters (`--port` is not `--fork`), two up to nine,
 * three beyond; a swapped pair of letters is one edit.
 */
function nearestFlag(option: string, known: readonly FlagSpec[]): string | undefined {
  if (!option.startsWith("--")) return undefined;
  const meant = known.find((flag) => flag.seeAlso?.includes(option));
  if (meant) return meant.name;
  const wanted = option.slice(2).toLowerCase();
  if (wanted.length < 3) return undefined;
  const allowed = wanted.length <= 4 ? 1 : wanted.length <= 9 ? 2 : 3;
  // Ties go to the name of the same length (`--modle`: --model, not --mode), then the first.
  let nearest: { name: string; score: number } | undefined;
  for (const flag of known) {
    const name = flag.name.replace(/^--/, "").toLowerCase();
    const distance = typoDistance(wanted, name);
    const score = distance + Math.min(Math.abs(name.length - wanted.length), 1) / 2;
    if (distance <= allowed && score < (nearest?.score ?? Number.POSITIVE_INFINITY)) nearest = { name: flag.name, score };
  }
  return nearest?.name;
}

/**
 * Parses argv against `flags`. `--name=value` and `--name value` both work; a value may not
 * start with "-" (so a forgotten value is reported instead of swallowing the next flag). An
 * unknown flag is collected; if the next argument does not look like a flag it is taken as that
 * flag's value, so a later re-parse (with extension flags known) sees the same positionals.
 * Two given flags that declare each other (either side) in `conflicts` are a usage error naming both.
 */
export function parseFlags(argv: readonly string[], flags: readonly FlagSpec[]): ParsedFlags {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const unknown: string[] = [];
  const given: { flag: FlagSpec; as: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const flag = flags.find((f) => f.name === name || f.alias === name);
    if (!flag) {
      unknown.push(name);
      if (eq < 0 && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("-")) i++;
      continue;
    }
    if (!given.some((entry) => entry.flag === flag)) given.push({ flag, as: name });
    if (!flag.value) {
      if (eq > 0) throw new UsageError(`Option ${name} takes no value`);
      values[flag.key] = true;
      continue;
    }
    if (flag.optionalValue && eq < 0 && (argv[i + 1] === undefined || argv[i + 1]!.startsWith("-"))) {
      values[flag.key] = true;
      continue;
    }
    const raw = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (raw === undefined || (eq < 0 && raw.startsWith("-") && raw.length > 1)) throw new UsageError(`Option ${name} needs a value ${flag.value}`);
    const value = raw.trim();
    if (flag.repeatable) values[flag.key] = [...((values[flag.key] as string[] | undefined) ?? []), value];
    else values[flag.key] = value;
  }
  checkConflicts(given);
  return { values, positionals, unknown };
}

/** Named as written, in the order given. */
function checkConflicts(given: readonly { flag: FlagSpec; as: string }[]): void {
  for (let a = 0; a < given.length; a++) {
    for (let b = a + 1; b < given.length; b++) {
      const first = given[a]!;
      const second = given[b]!;
      if (first.flag.conflicts?.includes(second.flag.name) || second.flag.conflicts?.includes(first.flag.name)) {
        throw new UsageError(`Options ${first.as} and ${second.as} cannot be used together`);
      }
    }
  }
}

/** The --help table; the ignored terminal-UI options are one line at its end. */
export function flagHelp(flags: readonly FlagSpec[]): string[] {
  const ignored = flags.filter((f) => TERMINAL_UI_FLAGS.includes(f));
  const lines = flags
    .filter((f) => !ignored.includes(f))
    .map((f) => {
      const names = [f.name, f.alias].filter(Boolean).join(", ");
      const left = `  ${names}${f.value ? ` ${f.value}` : ""}`;
      return `${left.padEnd(32)} ${f.description}`;
    });
  if (ignored.length > 0) lines.push(`  ${ignored.map((f) => f.name).join(", ")}: pi's terminal-UI options, accepted and ignored.`);
  return lines;
}

/**
 * Keys of flags given in code (the SDK's `flags`) that no flag has, once extensions registered
 * theirs: one line each, with the key meant. Unchecked, `{ recrod: "x" }` was dropped in silence.
 */
export function unknownFlagKeys(given: Record<string, unknown>, flags: readonly FlagSpec[], where: string): string[] {
  const keys = new Set(flags.map((flag) => flag.key));
  return Object.keys(given)
    .filter((key) => !keys.has(key))
    .map((key) => {
      const [near] = closest([...keys], key, { limit: 1 });
      return `Unknown flag "${key}" in ${where}${near ? ` (did you mean "${near}"?)` : ""}: no plugin reads it, ignored`;
    });
}
