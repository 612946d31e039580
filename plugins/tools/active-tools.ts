/**
 * `--tools <list>` / `--no-tools`: which registered tools the model is offered for this run (a
 * read-only reviewer: `--tools read,grep,find,ls`). Names are checked once every plugin has
 * registered its tools; an unknown one is a usage error listing the registered ones.
 */
import { UsageError, type CliOptions, type FlagSpec } from "../../kernel/index.js";

export const toolFlags: FlagSpec[] = [
  { name: "--tools", key: "tools", value: "<list>", description: "Comma-separated tools the model is offered, e.g. read,grep,find,ls (default: every registered tool)." },
  { name: "--no-tools", key: "noTools", description: "Offer the model no tools (--tools can add some back)." },
];

/** The active set the flags ask for, or undefined (no flag: every tool). */
export function activeToolsFromCli(cli: CliOptions, registered: readonly string[]): string[] | undefined {
  if (cli.tools === undefined && !cli.noTools) return undefined;
  const names = [...new Set((cli.tools ?? "").split(",").map((name) => name.trim()).filter((name) => name !== ""))];
  const unknown = names.filter((name) => !registered.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown tool${unknown.length > 1 ? "s" : ""} in --tools: ${unknown.join(", ")}. Available: ${registered.join(", ")}`);
  }
  return names;
}

declare module "../../kernel/config.js" {
  interface CliOptions {
    tools?: string;
    noTools?: boolean;
  }
}
