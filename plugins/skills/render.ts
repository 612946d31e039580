/**
 * What skills look like to the model: the system prompt section listing them (name,
 * description, where the file is) and the block `/skill:name args` expands to (pi's form).
 */
import { dirname } from "node:path";

export interface ListedSkill {
  name: string;
  description: string;
  path: string;
}

/** The system prompt section, or "" when no skill is listed. */
export function renderSkillsSection(skills: readonly ListedSkill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map(
    (skill) => `  <skill>\n    <name>${escapeXml(skill.name)}</name>\n    <description>${escapeXml(skill.description)}</description>\n    <location>${escapeXml(skill.path)}</location>\n  </skill>`,
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
