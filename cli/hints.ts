/**
 * What the executable says when it is used the way a person tries it first: a bare `atomic` on
 * a terminal (a protocol mode waits for JSON lines, so it says so, once, on stderr), and a prompt
 * given as an argument to a mode that reads stdin (the error shows the `-p` command to run).
 */
import type { TransportDefinition } from "../kernel/index.js";
import { nearestName } from "../lib/closest/index.js";
import { shellWord } from "../lib/shell-words/index.js";

/** The stderr note for a transport that reads stdin when stdin is a terminal. */
export function terminalNote(mode: string, transport: TransportDefinition): string {
  return [
    `atomic: serving --mode ${mode}: ${transport.description.replace(/\.$/, "")}. Waiting for input on this terminal; Ctrl-D ends it.`,
    `  This mode is for programs. For one answer: atomic -p "your prompt"; every mode and flag: atomic --help.`,
    "",
  ].join("\n");
}

/** The executable's subcommands: a first argument close to one is a slip of its name, not a prompt. */
const SUBCOMMANDS = ["auth", "config", "install", "list", "login", "logout", "mcp", "models", "remove", "schema", "serve", "uninstall", "update"];

/** The usage error for prompts passed as arguments to a transport that reads stdin. */
export function promptArgumentsMessage(mode: string, positionals: readonly string[]): string {
  const first = positionals[0] ?? "";
  if (first === "help") return `Unexpected argument "help": for the modes, flags and subcommands, run atomic --help`;
  const meant = /^[a-z]+$/.test(first) ? nearestName(SUBCOMMANDS, first) : undefined;
  const printed = positionals.map(shellQuote).join(" ");
  if (meant) return `Unexpected argument "${first}": did you mean atomic ${meant}? For a prompt, use print mode: atomic -p ${printed}`;
  return (
    `Unexpected argument ${JSON.stringify(first)}: --mode ${mode} reads commands on stdin, not prompts as arguments. ` +
    `To answer it and exit, use print mode: atomic -p ${printed}`
  );
}

/** One argument as a POSIX shell reads it back, quoted to read well in a sentence. */
export function shellQuote(text: string): string {
  return shellWord(text, "readable");
}
