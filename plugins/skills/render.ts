/**
 * What skills look like to the model: the system prompt section listing them (name,
 * description, where the file is) and the block `/skill:name args` expands to (pi's form).
 */
import { dirname } from "node:path";

export interface ListedSkill {
  name: string;
  description: string;
  path: string;
  location?: "user" | "project" | "path";
}

/** The most skills the system prompt lists (each costs every request its description). */
export const MAX_LISTED_SKILLS = 100;

/**
 * The skills the system prompt lists: all of them up to the cap; past it, the user's own
 * (settings paths, the agent dir, extensions) before a project's, so a cloned repository's
 * skills cannot push them out. The order among those kept is the discovery order.
 */
export function skillsToList<S extends ListedSkill>(skills: readonly S[], max = MAX_LISTED_SKILLS): { listed: S[]; omitted: number } {
  if (skills.length <= max) return { listed: [...skills], omitted: 0 };
  const own = skills.filter((skill) => skill.location !== "project");
  const kept = new Set([...own, ...skills.filter((skill) => skill.location === "project")].slice(0, max));
  return { listed: skills.filter((skill) => kept.has(skill)), omitted: skills.length - max };
}

/** The system prompt section, or "" when no skill is listed. */
export function renderSkillsSection(skills: readonly ListedSkill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map(
    (skill) =>
      `  <skill>\n    <name>${escapeXml(skill.name)}</name>\n    <description>${escapeXml(skill.description)}</description>\n    <location>${escapeXml(skill.path)}</location>\n  </skill>`,
  );
  return [
    "# Skills",
    "",
    "Skills are instructions for specific kinds of tasks, kept in files. When a task matches a skill's description, read its file with the read tool before you start and follow it. Paths inside a skill are relative to the folder holding its SKILL.md.",
    "",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

/** `/skill:name args`: the skill block, then a blank line and the arguments (when there are any). */
export function renderSkillInvocation(skill: { name: string; path: string }, body: string, args: string): string {
  const block = `<skill name="${escapeXml(skill.name)}" location="${escapeXml(skill.path)}">\nReferences are relative to ${dirname(skill.path)}.\n\n${body}\n</skill>`;
  const trimmed = args.trim();
  return trimmed === "" ? block : `${block}\n\n${trimmed}`;
}

export function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
