/**
 * Keys of an mcp.json that Atomic does not read: one that is a slip of a key it reads (`comand`,
 * `arg`, `mcpServer`) is named with the key meant, and VS Code's `servers` with the key Atomic
 * reads instead. Without this such a key is ignored without a word, and the server is missing or
 * starts without its arguments. Keys other clients read (Cline's `autoApprove`, VS Code's
 * `envFile`) are no slip of any key and are still accepted as before.
 */
import { nearestName } from "../../lib/closest/index.js";

/** Every key of a server entry the schemas in config.ts read. */
export const ENTRY_KEYS: readonly string[] = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "type",
  "description",
  "enabled",
  "disabled",
  "timeout",
  "exposure",
  "toolExposure",
  "oauth",
];

/** The keys of the file itself. */
const FILE_KEYS: readonly string[] = ["mcpServers", "autoEnableCodemode"];

/** The first key of `entry` that is none of `known` but a slip of one of `meant`: the key and the one meant. */
export function slippedKey(entry: object, known: readonly string[], meant: readonly string[] = known): { key: string; meant: string } | undefined {
  for (const key of Object.keys(entry)) {
    if (known.includes(key)) continue;
    const near = nearestName(meant, key);
    if (near) return { key, meant: near };
  }
  return undefined;
}

/** `; found "comand": did you mean "command"?` for such a key of `entry`, else "". */
export function slipHint(entry: object, known: readonly string[], meant: readonly string[]): string {
  const slip = slippedKey(entry, known, meant);
  return slip ? `; found "${slip.key}": did you mean "${slip.meant}"?` : "";
}

/** A problem with the file as a whole, and what became of it. */
export interface FileProblem {
  message: string;
  effect: string;
}

/**
 * The file's keys that hold servers Atomic does not read. VS Code's `.vscode/mcp.json` says
 * `servers` with entries of the shape Atomic reads; it is not read as an alias because VS Code's
 * `inputs` prompts and `${input:...}` / `${env:...}` variables are not Atomic's, and a copied
 * entry would start with those left as literal text (docs/mcp.md).
 */
export function fileKeyProblems(file: Record<string, unknown>): FileProblem[] {
  const effect = file.mcpServers === undefined ? "no server is read from the file" : "its servers are ignored";
  const problems: FileProblem[] = [];
  if (file.servers !== undefined) {
    const message = `"servers" is VS Code's key; Atomic reads "mcpServers" (its entries have the same shape: type, command, args, env, url, headers): rename the key`;
    problems.push({ message, effect });
  }
  const slip = slippedKey(file, [...FILE_KEYS, "servers"], FILE_KEYS);
  if (slip) problems.push({ message: `Unknown key "${slip.key}" (did you mean "${slip.meant}"?)`, effect: slip.meant === "mcpServers" ? effect : "ignored" });
  return problems;
}
