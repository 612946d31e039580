/**
 * One SKILL.md: YAML frontmatter with `name` (default: its folder's name) and a required
 * `description`, then the instructions. Other keys are kept; `disable-model-invocation: true`
 * keeps a skill out of the system prompt (only `/skill:name` runs it).
 */
import { basename, dirname } from "node:path";
import { parseFrontmatter, stringField, type Frontmatter } from "../../lib/resource-files/index.js";

export interface SkillMeta {
  name: string;
  description: string;
  /** Every frontmatter key, including ones Atomic does not use (license, allowed-tools, ...). */
  frontmatter: Frontmatter;
  /** Not listed in the system prompt. */
  hidden: boolean;
  /** Set when the description was cut to MAX_DESCRIPTION characters: how long it was. */
  cutFrom?: number;
}

/** Names are used as `/skill:<name>`: no whitespace, a sane length. */
const MAX_NAME = 64;
/**
 * Descriptions go into every request's system prompt: an untrusted repository's skills must
 * not make each request megabytes (200 skills of 256 KB made it 50 MB). The Agent Skills
 * limit, which pi warns about; a longer one is cut, not refused (pi still loads it).
 */
export const MAX_DESCRIPTION = 1024;

/** The skill's metadata, or why the file is not a usable skill. */
export async function parseSkillFile(text: string, path: string): Promise<{ ok: true; meta: SkillMeta } | { ok: false; problem: string }> {
  const parsed = await parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  if (!parsed.present) return { ok: false, problem: "no frontmatter (it must start with a --- block holding name and description)" };
  const data = parsed.data;
  const rawName = data.name;
  if (rawName !== undefined && typeof rawName !== "string") return { ok: false, problem: "its frontmatter name is not a string" };
  const name = (rawName ?? basename(dirname(path))).trim();
  if (name === "" || name.length > MAX_NAME || /\s/.test(name)) return { ok: false, problem: `invalid name "${name}" (1-${MAX_NAME} characters, no spaces)` };
  const description = stringField(data, "description");
  if (description === undefined) return { ok: false, problem: "its frontmatter has no description" };
  const cut = description.length > MAX_DESCRIPTION ? { description: `${description.slice(0, MAX_DESCRIPTION - 1)}…`, cutFrom: description.length } : { description };
  return { ok: true, meta: { name, ...cut, frontmatter: data, hidden: data["disable-model-invocation"] === true } };
}

/** The instructions: the file without its frontmatter. */
export async function skillBody(text: string): Promise<string> {
  const parsed = await parseFrontmatter(text);
  return (parsed.ok ? parsed.body : text).trim();
}
