import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { KernelConfig } from "../../kernel/index.js";
import { SkillLibrary } from "./library.js";
import { renderSkillInvocation, renderSkillsSection, skillsToList } from "./render.js";
import { MAX_DESCRIPTION, parseSkillFile } from "./skill-file.js";
import { unknownSkill } from "./unknown.js";

const dirs: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-skills-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function skill(dir: string, name: string, description = `About ${name}`, body = `Do ${name}.`): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "SKILL.md");
  writeFileSync(path, `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\n---\n${body}\n`);
  return path;
}

function library(options: { agentDir: string; cwd: string; skills?: string[]; discovered?: string[] }) {
  const warnings: string[] = [];
  const config = { agentDir: options.agentDir, cwd: options.cwd, env: {}, settings: {}, cli: { positionals: [] }, trusted: false } as KernelConfig;
  const lib = new SkillLibrary({ config, log: { warn: (m) => warnings.push(m) }, settingPaths: options.skills, discoveredPaths: async () => options.discovered ?? [] });
  return { lib, warnings };
}

describe("parseSkillFile", () => {
  it("keeps every frontmatter key; the name defaults to the folder", async () => {
    const parsed = await parseSkillFile("---\ndescription: D\nallowed-tools: [read]\ndisable-model-invocation: true\n---\nbody", "/s/my-skill/SKILL.md");
    expect(parsed).toEqual({
      ok: true,
      meta: { name: "my-skill", description: "D", frontmatter: { description: "D", "allowed-tools": ["read"], "disable-model-invocation": true }, hidden: true },
    });
  });

  it.each([
    ["no frontmatter at all", "Just instructions", "no frontmatter"],
    ["no description", "---\nname: x\n---\n", "its frontmatter has no description"],
    ["a name with spaces", "---\nname: two words\ndescription: d\n---\n", 'invalid name "two words"'],
    ["a non-string name", "---\nname: 12\ndescription: d\n---\n", "its frontmatter name is not a string"],
    ["broken YAML", "---\ndescription: [\n---\n", "invalid YAML frontmatter"],
  ])("refuses %s", async (_label, text, problem) => {
    const parsed = await parseSkillFile(text, "/s/x/SKILL.md");
    expect(parsed.ok).toBe(false);
    expect((parsed as { problem: string }).problem.startsWith(problem)).toBe(true);
  });
});

describe("unknownSkill", () => {
  const off = { noSkills: "--no-skills", skill: "--skill" };
  it.each([
    ["a slip of a name", "brave-serch", ["brave-search", "git"], undefined, 'Unknown skill "brave-serch". Did you mean "brave-search"?'],
    ["nothing close", "nosuch", ["brave-search", "git"], undefined, 'Unknown skill "nosuch". Available skills: brave-search, git.'],
    ["no skills", "nosuch", [], undefined, 'Unknown skill "nosuch". No skills are loaded (see get_commands).'],
    ["skills off", "nosuch", [], off, 'Unknown skill "nosuch". Skills are off for this run (--no-skills): only --skill paths load.'],
    ["skills off, one --skill", "nosuch", ["mine"], off, 'Unknown skill "nosuch". Available skills: mine. Skills are off for this run (--no-skills): only --skill paths load.'],
    ["no name", "", ["git"], undefined, "/skill: names no skill (write /skill:<name>). Available skills: git."],
  ])("%s", (_label, name, known, how, expected) => {
    expect(unknownSkill(name, known, how)).toBe(expected);
  });

  it("lists 20 names, then points at get_commands", () => {
    const known = Array.from({ length: 25 }, (_, i) => `zz-skill-${i}`);
    expect(unknownSkill("nosuch", known)).toBe(`Unknown skill "nosuch". Available skills: ${known.slice(0, 20).join(", ")} and 5 more (see get_commands).`);
  });
});

describe("bounds", () => {
  it("cuts a description past 1,024 characters and says how long it was", async () => {
    const parsed = await parseSkillFile(`---\nname: s\ndescription: ${"d".repeat(5000)}\n---\nbody`, "/x/s/SKILL.md");
    expect(parsed).toMatchObject({ ok: true, meta: { cutFrom: 5000 } });
    if (parsed.ok) expect(parsed.meta.description).toBe(`${"d".repeat(MAX_DESCRIPTION - 1)}…`);
  });

  it("lists at most the cap, the user's skills before the project's, in discovery order", () => {
    const skill = (name: string, location: "user" | "project") => ({ name, description: "d", path: `/${name}`, location });
    const all = [skill("p1", "project"), skill("p2", "project"), skill("u1", "user"), skill("p3", "project"), skill("u2", "user")];
    expect(skillsToList(all, 10)).toEqual({ listed: all, omitted: 0 });
    const { listed, omitted } = skillsToList(all, 3);
    expect([listed.map((entry) => entry.name), omitted]).toEqual([["p1", "u1", "u2"], 2]);
  });
});

describe("rendering", () => {
  it("lists skills as XML-escaped entries and expands in pi's form", () => {
    const section = renderSkillsSection([{ name: "a&b", description: "Use <this>", path: "/s/a/SKILL.md" }]);
    expect(section).toContain("<available_skills>\n  <skill>\n    <name>a&amp;b</name>\n    <description>Use &lt;this&gt;</description>\n    <location>/s/a/SKILL.md</location>");
    expect(renderSkillsSection([])).toBe("");
    expect(renderSkillInvocation({ name: "a", path: "/s/a/SKILL.md" }, "Steps.", "  go now ")).toBe(
      '<skill name="a" location="/s/a/SKILL.md">\nReferences are relative to /s/a.\n\nSteps.\n</skill>\n\ngo now',
    );
    expect(renderSkillInvocation({ name: "a", path: "/s/a/SKILL.md" }, "Steps.", "")).toMatch(/<\/skill>$/);
  });
});

describe("SkillLibrary", () => {
  it("finds skills in settings paths, project folders up to the repo root, the agent dir and extension paths, first name wins", async () => {
    const root = temp();
    const agentDir = join(root, "agent");
    const repo = join(root, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    const cwd = join(repo, "pkg");
    skill(join(agentDir, "skills", "user-one"), "user-one");
    const shadowed = skill(join(agentDir, "skills", "shared"), "shared");
    const projectShared = skill(join(cwd, ".atomic", "skills", "shared"), "shared");
    skill(join(repo, ".atomic", "skills", "group", "nested"), "nested");
    skill(join(root, ".atomic", "skills", "above-repo"), "above-repo");
    skill(join(root, "extra", "ext"), "from-setting");
    skill(join(root, "ext-path", "e"), "from-extension");
    const { lib, warnings } = library({ agentDir, cwd, skills: [join(root, "extra")], discovered: [join(root, "ext-path")] });
    const skills = await lib.skills();
    expect(skills.map((s) => [s.name, s.location])).toEqual([
      ["from-setting", "path"],
      ["shared", "project"],
      ["nested", "project"],
      ["user-one", "user"],
      ["from-extension", "path"],
    ]);
    expect(skills.find((s) => s.name === "shared")!.path).toBe(projectShared);
    expect(warnings).toEqual([`Skipped skill ${shadowed}: the name "shared" is already used by ${projectShared}`]);
    expect(await lib.body(skills[0]!)).toBe("Do from-setting.");
  });

  it("skips bad files once each, never failing: binary, FIFO, symlink loop, a symlink leaving the project, 1 MB, no description", async () => {
    const root = temp();
    const cwd = join(root, "project");
    const skills = join(cwd, ".atomic", "skills");
    skill(join(skills, "good"), "good");
    mkdirSync(join(skills, "binary"), { recursive: true });
    writeFileSync(join(skills, "binary", "SKILL.md"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x00]));
    mkdirSync(join(skills, "fifo"));
    execFileSync("mkfifo", [join(skills, "fifo", "SKILL.md")]);
    symlinkSync(join(skills, "self"), join(skills, "self"));
    symlinkSync(skills, join(skills, "back"));
    skill(join(root, "outside", "secret"), "secret");
    symlinkSync(join(root, "outside", "secret"), join(skills, "escape"));
    skill(join(skills, "huge"), "huge", "Huge", "x".repeat(1024 * 1024));
    mkdirSync(join(skills, "nodesc"));
    writeFileSync(join(skills, "nodesc", "SKILL.md"), "---\nname: nodesc\n---\n");
    const { lib, warnings } = library({ agentDir: join(root, "agent"), cwd });

    expect((await lib.skills()).map((s) => s.name)).toEqual(["good"]);
    await lib.skills();
    const expected = [
      `Skipped skills folder ${join(skills, "back")}: a symlink loop (it leads back to ${skills})`,
      `Skipped skill ${join(skills, "binary", "SKILL.md")}: a binary file (it contains NUL bytes)`,
      `Skipped skills folder ${join(skills, "escape")}: a symlink leaving the project (it leads to ${join(root, "outside", "secret")})`,
      `Skipped skill ${join(skills, "fifo", "SKILL.md")}: not a regular file (a FIFO, socket or device)`,
      `Skipped skill ${join(skills, "huge", "SKILL.md")}: too large (${statSync(join(skills, "huge", "SKILL.md")).size} bytes; the limit is 262144)`,
      `Skipped skill ${join(skills, "nodesc", "SKILL.md")}: its frontmatter has no description`,
      `Skipped skills folder ${join(skills, "self")}: a symlink loop`,
    ];
    expect([...warnings].sort()).toEqual(expected.sort());
  });

  it("loads only SKILL.md; a skill.md or Skill.md is named once as not loaded", async () => {
    const root = temp();
    const skills = join(root, "agent", "skills");
    skill(join(skills, "good"), "good");
    for (const [folder, file] of [
      ["lower", "skill.md"],
      ["title", "Skill.md"],
    ]) {
      mkdirSync(join(skills, folder));
      writeFileSync(join(skills, folder, file), `---\nname: ${folder}\ndescription: d\n---\n`);
    }
    const { lib, warnings } = library({ agentDir: join(root, "agent"), cwd: join(root, "cwd") });

    expect((await lib.skills()).map((s) => s.name)).toEqual(["good"]);
    await lib.skills();
    expect([...warnings].sort()).toEqual([
      `Skipped skill ${join(skills, "lower", "skill.md")}: a skill's file must be named SKILL.md`,
      `Skipped skill ${join(skills, "title", "Skill.md")}: a skill's file must be named SKILL.md`,
    ]);
  });

  it("sees a skill added, changed or removed on the next request", async () => {
    const root = temp();
    const agentDir = join(root, "agent");
    const { lib } = library({ agentDir, cwd: join(root, "cwd") });
    expect(await lib.skills()).toEqual([]);
    const path = skill(join(agentDir, "skills", "late"), "late", "First");
    expect((await lib.skills()).map((s) => s.description)).toEqual(["First"]);
    writeFileSync(path, "---\nname: late\ndescription: Second, a longer one\n---\n");
    expect((await lib.skills()).map((s) => s.description)).toEqual(["Second, a longer one"]);
    rmSync(join(agentDir, "skills", "late"), { recursive: true });
    expect(await lib.skills()).toEqual([]);
  });
});
