/** Command-line flags: one table, so parsing, validation and --help never disagree. */
import type { CliOptions } from "../kernel/index.js";

export class UsageError extends Error {}

interface FlagSpec {
  names: string[];
  key: string;
  value?: string;
  description: string;
  repeatable?: boolean;
}

export const FLAGS: FlagSpec[] = [
  { names: ["--mode"], key: "mode", value: "<mode>", description: "Transport: rpc (JSON lines on stdin/stdout). Default: settings `transport`, else rpc." },
  { names: ["--provider"], key: "provider", value: "<name>", description: "LLM provider (anthropic, openai, google, replay, or one from models.json)." },
  { names: ["--model"], key: "model", value: "<pattern>", description: "Model: provider/id, a bare id or a fuzzy pattern, with optional :<thinking> suffix." },
  { names: ["--name", "-n"], key: "name", value: "<name>", description: "Session display name at startup." },
  { names: ["--no-session"], key: "noSession", description: "Keep the session in memory only (nothing written to disk)." },
  { names: ["--session-dir"], key: "sessionDir", value: "<path>", description: "Directory for session files (default: <agent dir>/sessions)." },
  { names: ["--record"], key: "record", value: "<cassette>", description: "Record every model stream into <agent dir>/cassettes/<cassette>.jsonl for offline replay." },
  { names: ["--help", "-h"], key: "help", description: "Show this help." },
  { names: ["--version", "-v"], key: "version", description: "Print the version." },
];

export interface ParsedArgs extends CliOptions {
  help: boolean;
  version: boolean;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const options: ParsedArgs = { mode: "", noSession: false, approve: false, extensions: [], help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const flag = FLAGS.find((f) => f.names.includes(name));
    if (!flag) throw new UsageError(arg.startsWith("-") ? `Unknown option: ${name}` : `Unexpected argument: ${arg}`);
    if (!flag.value) {
      if (eq > 0) throw new UsageError(`Option ${name} takes no value`);
      options[flag.key] = true;
      continue;
    }
    let value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith("-") && value.length > 1)) throw new UsageError(`Option ${name} needs a value ${flag.value}`);
    value = value.trim();
    if (flag.repeatable) (options[flag.key] as string[]).push(value);
    else options[flag.key] = value;
  }
  return options;
}

export function helpText(): string {
  const rows = FLAGS.map((f) => {
    const left = `  ${f.names.join(", ")}${f.value ? ` ${f.value}` : ""}`;
    return `${left.padEnd(30)} ${f.description}`;
  });
  return [
    "atomic - a headless coding agent driven over JSON lines",
    "",
    "Usage:",
    "  atomic --mode rpc [options]       serve the RPC protocol on stdin/stdout",
    "  atomic auth set <provider>        store an API key (read from stdin)",
    "  atomic auth clear <provider>      remove a stored API key",
    "  atomic auth list                  show which providers have credentials",
    "",
    "Options:",
    ...rows,
    "",
    "Environment: ATOMIC_CODING_AGENT_DIR (agent dir, default ~/.atomic/agent),",
    "ATOMIC_CODING_AGENT_SESSION_DIR, ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY.",
    "",
  ].join("\n");
}
