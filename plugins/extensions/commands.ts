/**
 * `pi.registerCommand`: each extension contributes its commands to the slash-command registry as
 * one provider (owner = its path, source "extension"), so `/name args` in a `prompt` runs the
 * handler at the registry's stage and `get_commands` lists it. A name another extension already
 * registered is refused with an error naming both paths: the first one wins.
 */
import type { SlashCommandEntry } from "../slash-commands/api.js";
import { createCommandContext } from "./context.js";
import type { ExtensionHost } from "./host.js";
import { misspelt } from "./misspelt.js";
import type { ExtensionRecord } from "./record.js";
import type { RegisteredCommandOptions } from "./types/api.js";

/** get_commands `sourceInfo` of an extension, by how it was found (pi's words). */
const EXTENSION_PROVENANCE: Record<ExtensionRecord["scope"], { source: string; scope: "user" | "project" | "temporary" }> = {
  cli: { source: "cli", scope: "temporary" },
  settings: { source: "local", scope: "user" },
  user: { source: "auto", scope: "user" },
  project: { source: "auto", scope: "project" },
};

/** Names a prompt can carry after "/": no whitespace, no leading slash. */
const COMMAND_NAME = /^[^\s/][^\s]*$/;

/** Checks a registration as it is made (inside the factory too), so a bad one fails the call. */
export function checkCommand(name: unknown, options: unknown): asserts options is RegisteredCommandOptions {
  if (typeof name !== "string" || !COMMAND_NAME.test(name))
    throw new TypeError(`registerCommand: the name must be a word without spaces or a leading "/" (got ${JSON.stringify(name)})`);
  if (typeof options !== "object" || options === null || typeof (options as RegisteredCommandOptions).handler !== "function") {
    const hint = typeof options === "object" && options !== null ? misspelt(options, "handler") : "";
    throw new TypeError(`registerCommand("${name}"): options need a handler(args, ctx) function${hint}`);
  }
}

/** Adds the command; a name taken by another extension is reported and skipped. */
export function addCommand(host: ExtensionHost, record: ExtensionRecord, name: string, options: RegisteredCommandOptions): void {
  const owner = host.commandOwners.get(name);
  if (owner !== undefined && owner !== record.path) {
    host.report(record.path, "register_command", `Command "/${name}" is already registered by ${owner}; the one from ${record.path} is ignored (the first one wins)`);
    return;
  }
  host.commandOwners.set(name, record.path);
  if (record.commands.size === 0) addProvider(host, record);
  record.commands.set(name, options);
}

/**
 * A handler awaiting what can never settle (nothing else left running to wake it) would end the
 * process with its session half done; it counts as having thrown instead, as a stuck `pi.on`
 * handler does: reported, the prompt handled, and the agent goes on serving.
 */
function stalledCommand(name: string): never {
  throw new Error(`Command /${name} never finished: its handler awaits something that can never settle (nothing else was left running to wake it)`);
}

function addProvider(host: ExtensionHost, record: ExtensionRecord): void {
  host.slash.addProvider({
    owner: record.path,
    source: "extension",
    handles: (name) => record.commands.has(name),
    entries: (): SlashCommandEntry[] =>
      [...record.commands].map(([name, options]) => ({
        name,
        ...(typeof options.description === "string" ? { description: options.description } : {}),
        source: "extension",
        path: record.path,
        sourceInfo: { path: record.path, ...EXTENSION_PROVENANCE[record.scope], origin: "top-level" },
      })),
    // The prompt holds the ordinary lane until the handler is done; an abort releases it.
    invoke: ({ entry, args, input }) =>
      host.gate.run(
        async () => {
          const options = record.commands.get(entry.name)!;
          await options.handler(args, createCommandContext(host, record, { dismiss: host.gate.signal }));
          // The response follows what the handler stored (and its events), as in pi.
          await host.stores.settled();
          return { handled: true as const };
        },
        () => ({ handled: true as const }),
        { seq: input.seq, stalled: () => stalledCommand(entry.name) },
      ),
  });
}
