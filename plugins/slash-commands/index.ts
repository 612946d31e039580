/**
 * Plugin `slash-commands`: the registry where extension commands, prompt templates and skills
 * meet; the expansion order (one `input` tap per stage: extension commands, then skills, then
 * templates, so a queued message is stored expanded); the `get_commands` command; and the
 * `resources_discover` hook, asked once for the skill and prompt paths extensions add.
 */
import { z } from "zod";
import { defineCommand, definePlugin, thrownAt } from "../../kernel/index.js";
import { EXPANSION_ORDER, INPUT_GROUP, type SlashCommandEntry, type SlashCommandsApi, type SourceInfo } from "./api.js";
import { slashCommandsHookDeclarations } from "./hooks.js";
import { SlashCommandRegistry } from "./registry.js";

export * from "./api.js";

export default definePlugin({
  name: "slash-commands",
  description: "The /command registry (extension commands, prompt templates, skills), input expansion and get_commands.",
  dependsOn: ["agent"],
  provides: ["slashCommands"],
  hooks: slashCommandsHookDeclarations,
  apply(k) {
    const { resources_discover } = k.ownHooks(slashCommandsHookDeclarations);
    const registry = new SlashCommandRegistry((owner, event, error, thrown) => {
      const at = thrownAt(thrown, owner);
      k.reportError({ source: owner, hook: event, error, ...(at ? { at } : {}) });
    });

    let discovered: Promise<{ skillPaths: string[]; promptPaths: string[] }> | undefined;
    const api: SlashCommandsApi = {
      addProvider: (provider) => registry.addProvider(provider),
      list: () => registry.list(),
      expand: (input) => registry.expand(input),
      discoveredPaths: () =>
        (discovered ??= resources_discover
          .promise({ cwd: k.config.cwd, reason: "startup", skillPaths: [], promptPaths: [], themePaths: [] })
          .then((event) => ({ skillPaths: onlyStrings(event.skillPaths), promptPaths: onlyStrings(event.promptPaths) }))),
    };
    k.provide("slashCommands", api);

    for (const source of EXPANSION_ORDER) {
      // An extension's own message is left alone unless it asked for expansion (then it came through `expand`).
      k.hooks.input.tapPromise({ name: k.name, order: INPUT_GROUP[source] }, async (event) => (event.source === "extension" ? event : registry.dispatch(source, event)));
    }

    k.registerCommand(
      defineCommand({
        name: "get_commands",
        description: "Commands a prompt can invoke with /name: extension commands, prompt templates and skills.",
        input: () => z.object({}),
        output: () =>
          z.object({
            commands: z
              .array(
                z.object({
                  name: z.string().meta({ description: "Invoke with /name; skills are named skill:<name>." }),
                  description: z.string().optional().describe("What it does."),
                  source: z.enum(["extension", "prompt", "skill"]).describe("An extension's command, a prompt template or a skill."),
                  location: z.enum(["user", "project", "path"]).optional().meta({ description: "Where it was found (not for extension commands)." }),
                  path: z.string().optional().describe("The file it was read from (templates and skills)."),
                  sourceInfo: SourceInfoSchema(),
                }),
              )
              .describe("Every command, by name."),
          }),
        run: async () => ({ commands: (await registry.list()).map(wireEntry) }),
      }),
    );
  },
});

/** pi 1.x's `sourceInfo` (its RpcSlashCommand): always present. */
const SourceInfoSchema = () =>
  z
    .object({
      path: z.string().meta({ description: "The file that registered it (the extension, the template, the SKILL.md); `<kind:name>` when there is none." }),
      source: z
        .string()
        .meta({ description: 'How it was found: "auto" (a conventional folder), "local" (a settings entry), "cli" (a flag), "extension" (a path an extension announced).' }),
      scope: z.enum(["user", "project", "temporary"]).meta({ description: "Whose configuration brought it; `temporary`: this run only." }),
      origin: z.enum(["top-level", "package"]).meta({ description: '"package" for a resource of an installed package.' }),
      baseDir: z.string().optional().meta({ description: "The package's folder, for a package resource." }),
    })
    .meta({ description: "Where the command comes from, as pi reports it." });

/** The protocol's field order; `location` only for files found on disk (never for extensions); pi's `sourceInfo` last. */
function wireEntry(entry: SlashCommandEntry): SlashCommandEntry & { sourceInfo: SourceInfo } {
  return {
    name: entry.name,
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    source: entry.source,
    ...(entry.location !== undefined && entry.source !== "extension" ? { location: entry.location } : {}),
    ...(entry.path !== undefined ? { path: entry.path } : {}),
    sourceInfo: entry.sourceInfo ?? derivedSourceInfo(entry),
  };
}

/** For an entry its provider gave no `sourceInfo`: the conventional folders are "auto", anything else was named for this run. */
function derivedSourceInfo(entry: SlashCommandEntry): SourceInfo {
  const path = entry.path ?? `<${entry.source}:${entry.name}>`;
  if (entry.location === "user" || entry.location === "project") return { path, source: "auto", scope: entry.location, origin: "top-level" };
  return { path, source: "local", scope: "temporary", origin: "top-level" };
}

/** A tap may hand back anything: only strings are paths. */
function onlyStrings(values: unknown): string[] {
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === "string" && value !== "") : [];
}
