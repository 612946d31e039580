/**
 * Plugin `skills`: folders holding a SKILL.md, found in the `skills` setting's paths,
 * `.atomic/skills/` from the cwd up to the repository root, `<agent dir>/skills/` and paths
 * extensions add. Listed in the system prompt (when the read tool is active) so the model reads
 * one when it fits; `/skill:name args` expands to the skill's instructions. Project skills are
 * data, not code: they load without the trust check project extensions need.
 */
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import type {} from "../slash-commands/api.js";
import { packageRoots } from "../packages/api.js";
import { SkillLibrary, type Skill } from "./library.js";
import { MAX_LISTED_SKILLS, renderSkillInvocation, renderSkillsSection, skillsToList } from "./render.js";
import { unknownSkill } from "./unknown.js";

export { SkillLibrary, type Skill } from "./library.js";
export { renderSkillInvocation, renderSkillsSection, skillsToList } from "./render.js";

declare module "../../kernel/config.js" {
  interface Settings {
    skills?: string[];
  }
  interface CliOptions {
    skill?: string[];
    noSkills?: boolean;
  }
}

const PREFIX = "skill:";

export default definePlugin({
  name: "skills",
  description: "Skills (folders with a SKILL.md): listed in the system prompt, invoked with /skill:name.",
  dependsOn: ["slash-commands"],
  requires: ["slashCommands"],
  flags: [
    {
      name: "--skill",
      key: "skill",
      value: "<path>",
      repeatable: true,
      description: "Load this skill (a folder with a SKILL.md, the file, or a folder of skills) for this run; repeatable, also with --no-skills.",
    },
    { name: "--no-skills", alias: "-ns", key: "noSkills", description: "Do not load discovered or configured skills; --skill paths still load." },
  ],
  settings: {
    skills: defineSetting(() => z.array(z.string()), {
      description: "Extra skill paths (a skill folder, a SKILL.md, or a folder of skills); relative to the settings file's folder.",
    }),
  },
  apply(k) {
    const slash = k.service("slashCommands");
    const library = new SkillLibrary({
      config: k.config,
      log: k.log,
      settingPaths: k.config.settings.skills,
      discoveredPaths: async () => (await slash.discoveredPaths()).skillPaths,
      packageRoots: async () => {
        const packages = k.maybeService("packages");
        return packages ? packageRoots(await packages.resolve(), "skills") : [];
      },
      cliPaths: k.config.cli.skill,
      discover: !k.config.cli.noSkills,
    });

    // The skills of the latest listing, by command name: `invoke` follows the `entries` call that found its entry.
    let listed = new Map<string, Skill>();
    slash.addProvider({
      owner: k.name,
      source: "skill",
      handles: (name) => name.startsWith(PREFIX),
      entries: async () => {
        const skills = await library.skills();
        listed = new Map(skills.map((skill) => [PREFIX + skill.name, skill]));
        return skills.map((skill) => ({
          name: PREFIX + skill.name,
          description: skill.description,
          source: "skill" as const,
          location: skill.location,
          path: skill.path,
          sourceInfo: { path: skill.path, ...skill.provenance },
        }));
      },
      // `/skill:` says a skill is meant: a name none has is an error, never text for the model.
      unknown: async (name) => {
        const cli = k.config.cli;
        const off = cli.noSkills ? { noSkills: optionName(cli, "--no-skills"), skill: optionName(cli, "--skill") } : undefined;
        return unknownSkill(
          name.slice(PREFIX.length),
          (await library.skills()).map((skill) => skill.name),
          off,
        );
      },
      invoke: async ({ entry, args }) => {
        const skill = listed.get(entry.name);
        if (!skill) return undefined;
        return { text: renderSkillInvocation(skill, await library.body(skill), args) };
      },
    });

    // After the persona and project context, before the date/cwd footer. Without the read tool
    // the model could not open a skill, so the list would only cost tokens.
    let saidOmitted = 0;
    k.hooks.system_prompt.tapPromise({ name: k.name, after: "context-files" }, async (prompt) => {
      if (!k.tools.isActive("read")) return prompt;
      const { listed, omitted } = skillsToList((await library.skills()).filter((skill) => !skill.hidden));
      if (omitted > 0 && omitted !== saidOmitted) {
        k.log.warn(
          `Listed ${MAX_LISTED_SKILLS} of ${MAX_LISTED_SKILLS + omitted} skills in the system prompt (the most it lists; the project's go first); /skill:<name> still runs the others`,
        );
      }
      saidOmitted = omitted;
      const section = renderSkillsSection(listed);
      if (section === "") return prompt;
      return prompt.trim() === "" ? section : `${prompt.trimEnd()}\n\n${section}`;
    });
  },
});
