/**
 * pi's synchronous skill loading for extensions (pi's `loadSkills`, `loadSkillsFromDir`,
 * `formatSkillsForPrompt`, `parseSkillBlock`), with pi's rules: a folder holding `SKILL.md` is
 * one skill (not searched further); a root folder's own `.md` files with a description are skills
 * too; hidden folders, node_modules and `.gitignore`d paths are skipped; the first of two skills
 * with one name wins (a collision diagnostic). The agent's own skills plugin is separate (it
 * scans asynchronously, with limits); these read what an extension asks for, when it asks.
 */
import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createSyntheticSourceInfo, parseFrontmatter, type SourceInfo } from "./text.js";

export interface Skill {
  name: string;
  description: string;
  filePath: string;
  baseDir: string;
  sourceInfo: SourceInfo;
  disableModelInvocation: boolean;
}
export interface ResourceDiagnostic {
  type: "warning" | "error" | "collision";
  message: string;
  path?: string;
  collision?: { resourceType: string; name: string; winnerPath: string; loserPath: string };
}
export interface LoadSkillsResult {
  skills: Skill[];
  diagnostics: ResourceDiagnostic[];
}

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];

type Ignore = { add(patterns: string[]): unknown; ignores(path: string): boolean };
const newIgnore = () => (createRequire(import.meta.url)("ignore") as () => Ignore)();
const posix = (path: string) => path.split(sep).join("/");

/** The ignore files of `dir`, their patterns made relative to `root`. */
function addIgnoreFiles(ignore: Ignore, dir: string, root: string): void {
  const prefix = relative(root, dir) ? `${posix(relative(root, dir))}/` : "";
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = readFileSync(join(dir, name), "utf8");
    } catch {
      continue;
    }
    const patterns = text.split(/\r?\n/).flatMap((line) => {
      if (!line.trim() || (line.trim().startsWith("#") && !line.trim().startsWith("\\#"))) return [];
      const negated = line.startsWith("!");
      const pattern = (negated ? line.slice(1) : line.startsWith("\\!") ? line.slice(1) : line).replace(/^\//, "");
      return [`${negated ? "!" : ""}${prefix}${pattern}`];
    });
    if (patterns.length > 0) ignore.add(patterns);
  }
}

function sourceInfo(filePath: string, baseDir: string, source: string): SourceInfo {
  if (source === "user" || source === "project") return createSyntheticSourceInfo(filePath, { source: "local", scope: source, baseDir });
  return createSyntheticSourceInfo(filePath, { source: source === "path" ? "local" : source, baseDir });
}

function loadSkillFile(filePath: string, source: string): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
  const diagnostics: ResourceDiagnostic[] = [];
  const declared = basename(filePath) === "SKILL.md";
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatter(readFileSync(filePath, "utf8")).frontmatter;
  } catch (error) {
    if (declared || (error as NodeJS.ErrnoException).code) diagnostics.push({ type: "warning", message: error instanceof Error ? error.message : String(error), path: filePath });
    return { diagnostics };
  }
  const description = frontmatter.description;
  const described = typeof description === "string" && description.trim() !== "";
  if (!declared && !described) return { diagnostics };
  const warn = (message: string) => diagnostics.push({ type: "warning", message, path: filePath });
  if (!described) warn("description is required");
  else if (description.length > MAX_DESCRIPTION) warn(`description exceeds ${MAX_DESCRIPTION} characters (${description.length})`);
  const baseDir = dirname(filePath);
  const name = (typeof frontmatter.name === "string" && frontmatter.name) || basename(baseDir);
  if (name.length > MAX_NAME) warn(`name exceeds ${MAX_NAME} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name)) warn("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
  if (name.startsWith("-") || name.endsWith("-")) warn("name must not start or end with a hyphen");
  if (name.includes("--")) warn("name must not contain consecutive hyphens");
  if (!described) return { diagnostics };
  return {
    skill: { name, description, filePath, baseDir, sourceInfo: sourceInfo(filePath, baseDir, source), disableModelInvocation: frontmatter["disable-model-invocation"] === true },
    diagnostics,
  };
}

function kindOf(path: string, entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): "file" | "dir" | undefined {
  if (!entry.isSymbolicLink()) return entry.isFile() ? "file" : entry.isDirectory() ? "dir" : undefined;
  try {
    const stats = statSync(path);
    return stats.isFile() ? "file" : stats.isDirectory() ? "dir" : undefined;
  } catch {
    return undefined;
  }
}

function scan(dir: string, source: string, rootFiles: boolean, ignore: Ignore = newIgnore(), root = dir): LoadSkillsResult {
  const result: LoadSkillsResult = { skills: [], diagnostics: [] };
  const add = (found: { skill?: Skill; diagnostics: ResourceDiagnostic[] } | LoadSkillsResult) => {
    if ("skills" in found) result.skills.push(...found.skills);
    else if (found.skill) result.skills.push(found.skill);
    result.diagnostics.push(...found.diagnostics);
  };
  if (!existsSync(dir)) return result;
  addIgnoreFiles(ignore, dir, root);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return result;
  }
  const skillFile = entries.find((entry) => entry.name === "SKILL.md" && kindOf(join(dir, entry.name), entry) === "file");
  if (skillFile && !ignore.ignores(posix(relative(root, join(dir, "SKILL.md"))))) {
    add(loadSkillFile(join(dir, "SKILL.md"), source));
    return result;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    const kind = kindOf(path, entry);
    const rel = posix(relative(root, path));
    if (kind === undefined || ignore.ignores(kind === "dir" ? `${rel}/` : rel)) continue;
    if (kind === "dir") add(scan(path, source, false, ignore, root));
    else if (rootFiles && entry.name.endsWith(".md")) add(loadSkillFile(path, source));
  }
  return result;
}

export function loadSkillsFromDir(options: { dir: string; source: string }): LoadSkillsResult {
  return scan(options.dir, options.source, true);
}

const within = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};
const expand = (path: string, cwd: string) => resolve(cwd, path.trim().replace(/^~(?=$|\/)/, process.env.HOME ?? "~"));

/**
 * Skills from the agent dir's `skills/` and the project's `.atomic/skills/` (`includeDefaults`)
 * and from `skillPaths` (folders or `.md` files, relative to `cwd`).
 */
export function loadSkills(options: { cwd: string; agentDir: string; skillPaths: string[]; includeDefaults: boolean }): LoadSkillsResult {
  const cwd = resolve(options.cwd);
  const userDir = join(resolve(options.agentDir), "skills");
  const projectDir = join(cwd, ".atomic", "skills");
  const byName = new Map<string, Skill>();
  const files = new Set<string>();
  const diagnostics: ResourceDiagnostic[] = [];
  const collisions: ResourceDiagnostic[] = [];
  const add = (found: LoadSkillsResult) => {
    diagnostics.push(...found.diagnostics);
    for (const skill of found.skills) {
      let key = skill.filePath;
      try {
        key = realpathSync(skill.filePath);
      } catch {}
      if (files.has(key)) continue;
      const winner = byName.get(skill.name);
      if (winner) {
        collisions.push({
          type: "collision",
          message: `name "${skill.name}" collision`,
          path: skill.filePath,
          collision: { resourceType: "skill", name: skill.name, winnerPath: winner.filePath, loserPath: skill.filePath },
        });
        continue;
      }
      byName.set(skill.name, skill);
      files.add(key);
    }
  };
  if (options.includeDefaults) {
    add(scan(userDir, "user", true));
    add(scan(projectDir, "project", true));
  }
  for (const raw of options.skillPaths) {
    const path = expand(raw, cwd);
    const source = !options.includeDefaults && within(userDir, path) ? "user" : !options.includeDefaults && within(projectDir, path) ? "project" : "path";
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(path);
    } catch {
      diagnostics.push({ type: "warning", message: "skill path does not exist", path });
      continue;
    }
    if (stats.isDirectory()) add(scan(path, source, true));
    else if (stats.isFile() && path.endsWith(".md")) {
      const found = loadSkillFile(path, source);
      add({ skills: found.skill ? [found.skill] : [], diagnostics: found.diagnostics });
    } else diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
  }
  return { skills: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

/** The system prompt section pi lists skills in (those the model may invoke), or "". */
export function formatSkillsForPrompt(skills: Skill[], fileReadTool: "read" | "bash" | "indirect" = "read"): string {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  if (visible.length === 0) return "";
  const how = { read: "Use the read tool to load", bash: "Use bash to load", indirect: "Load" }[fileReadTool];
  return [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    `${how} a skill's file when the task matches its description.`,
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
    ...visible.flatMap((skill) => [
      "  <skill>",
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.filePath)}</location>`,
      "  </skill>",
    ]),
    "</available_skills>",
  ].join("\n");
}

export interface ParsedSkillBlock {
  name: string;
  location: string;
  content: string;
  userMessage: string | undefined;
}

/** A `/skill:name` expansion (`<skill name=".." location="..">...</skill>`, then the user's text), or null. */
export function parseSkillBlock(text: string): ParsedSkillBlock | null {
  const match = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/.exec(text);
  if (!match) return null;
  return { name: match[1]!, location: match[2]!, content: match[3]!, userMessage: match[4]?.trim() || undefined };
}
