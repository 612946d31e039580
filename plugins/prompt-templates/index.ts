/**
 * Plugin `prompt-templates`: Markdown files invoked as `/name args`, expanded before the prompt
 * is sent or queued (`$1`, `$@`, `$ARGUMENTS`, defaults and slices; see expand.ts). Found in the
 * `prompts` setting's paths, `.atomic/prompts/`, `<agent dir>/prompts/` and paths extensions
 * add. Project templates are data, not code: they load without the trust check.
 */
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import type {} from "../slash-commands/api.js";
import { packageRoots } from "../packages/api.js";
import { expandTemplate, splitArguments } from "./expand.js";
import { TemplateLibrary, type PromptTemplate } from "./library.js";

export { expandTemplate, splitArguments } from "./expand.js";
export { TemplateLibrary, type PromptTemplate } from "./library.js";

declare module "../../kernel/config.js" {
  interface Settings {
    prompts?: string[];
  }
  interface CliOptions {
    promptTemplate?: string[];
    noPromptTemplates?: boolean;
  }
}

export default definePlugin({
  name: "prompt-templates",
  description: "Prompt templates (.md files) invoked as /name with shell-like arguments.",
  dependsOn: ["slash-commands"],
  requires: ["slashCommands"],
  flags: [
    {
      name: "--prompt-template",
      key: "promptTemplate",
      value: "<path>",
      repeatable: true,
      description: "Load this prompt template (a .md file or a folder of them) for this run; repeatable, also with --no-prompt-templates.",
    },
    {
      name: "--no-prompt-templates",
      alias: "-np",
      key: "noPromptTemplates",
      description: "Do not load discovered or configured prompt templates; --prompt-template paths still load.",
    },
  ],
  settings: {
    prompts: defineSetting(() => z.array(z.string()), {
      description: "Extra prompt template paths (a .md file or a folder of them); relative to the settings file's folder.",
    }),
  },
  apply(k) {
    const slash = k.service("slashCommands");
    const library = new TemplateLibrary({
      config: k.config,
      log: k.log,
      settingPaths: k.config.settings.prompts,
      discoveredPaths: async () => (await slash.discoveredPaths()).promptPaths,
      packageRoots: async () => {
        const packages = k.maybeService("packages");
        return packages ? packageRoots(await packages.resolve(), "prompts") : [];
      },
      cliPaths: k.config.cli.promptTemplate,
      discover: !k.config.cli.noPromptTemplates,
    });

    // The templates of the latest listing: `invoke` follows the `entries` call that found its entry.
    let listed = new Map<string, PromptTemplate>();
    slash.addProvider({
      owner: k.name,
      source: "prompt",
      entries: async () => {
        const templates = await library.templates();
        listed = new Map(templates.map((template) => [template.name, template]));
        return templates.map((template) => ({
          name: template.name,
          ...(template.description !== "" ? { description: template.description } : {}),
          source: "prompt" as const,
          location: template.location,
          path: template.path,
          sourceInfo: { path: template.path, ...template.provenance },
        }));
      },
      invoke: async ({ entry, args }) => {
        const template = listed.get(entry.name);
        if (!template) return undefined;
        return { text: expandTemplate(await library.body(template), splitArguments(args)) };
      },
    });
  },
});
