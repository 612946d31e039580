import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { KernelConfig } from "../../kernel/index.js";
import { describeTemplate, TemplateLibrary } from "./library.js";

const dirs: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-prompts-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function library(options: { agentDir: string; cwd: string; prompts?: string[]; discovered?: string[] }) {
  const warnings: string[] = [];
  const config = { agentDir: options.agentDir, cwd: options.cwd, env: {}, settings: {}, cli: { positionals: [] }, trusted: false } as KernelConfig;
  const lib = new TemplateLibrary({ config, log: { warn: (m) => warnings.push(m) }, settingPaths: options.prompts, discoveredPaths: async () => options.discovered ?? [] });
  return { lib, warnings };
}

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("describeTemplate", () => {
  it("takes the frontmatter description, else the first line of the body, cut at 60", async () => {
    expect(await describeTemplate("---\ndescription: Fix tests\n---\nbody")).toEqual({ ok: true, description: "Fix tests" });
    expect(await describeTemplate("\n\n  First line here\nsecond")).toEqual({ ok: true, description: "First line here" });
    expect(await describeTemplate("y".repeat(80))).toEqual({ ok: true, description: `${"y".repeat(60)}...` });
    expect(await describeTemplate("---\ndescription: [\n---\n")).toMatchObject({ ok: false });
  });
});

describe("TemplateLibrary", () => {
  it("settings paths, then the project, then the agent dir, then extension paths; first name wins; not recursive", async () => {
    const root = temp();
    const agentDir = join(root, "agent");
    const cwd = join(root, "cwd");
    write(join(agentDir, "prompts", "user-only.md"), "User template");
    const shadowed = write(join(agentDir, "prompts", "review.md"), "User review");
    const winner = write(join(cwd, ".atomic", "prompts", "review.md"), "---\ndescription: Project review\n---\nReview $1");
    write(join(cwd, ".atomic", "prompts", "sub", "deep.md"), "not found: prompts are not searched recursively");
    write(join(cwd, ".atomic", "prompts", "notes.txt"), "not a template");
    const single = write(join(root, "one", "single.md"), "From a file path");
    write(join(root, "ext", "ext.md"), "From an extension");
    const { lib, warnings } = library({ agentDir, cwd, prompts: [single], discovered: [join(root, "ext")] });
    const templates = await lib.templates();
    expect(templates.map((t) => [t.name, t.location, t.description])).toEqual([
      ["single", "path", "From a file path"],
      ["review", "project", "Project review"],
      ["user-only", "user", "User template"],
      ["ext", "path", "From an extension"],
    ]);
    expect(templates[1]!.path).toBe(winner);
    expect(warnings).toEqual([`Skipped prompt template ${shadowed}: the name "review" is already used by ${winner}`]);
    expect(await lib.body(templates[1]!)).toBe("Review $1");
  });

  it("skips a 1 MB template, a binary one, a FIFO and a symlink leaving the project, once each", async () => {
    const root = temp();
    const cwd = join(root, "cwd");
    const prompts = join(cwd, ".atomic", "prompts");
    write(join(prompts, "ok.md"), "fine");
    write(join(prompts, "huge.md"), "x".repeat(1024 * 1024));
    write(join(prompts, "bin.md"), "\u0000\u0001");
    execFileSync("mkfifo", [join(prompts, "pipe.md")]);
    const secret = write(join(root, "secret.md"), "outside");
    symlinkSync(secret, join(prompts, "leak.md"));
    write(join(prompts, "two words.md"), "x");
    const { lib, warnings } = library({ agentDir: join(root, "agent"), cwd });
    expect((await lib.templates()).map((t) => t.name)).toEqual(["ok"]);
    await lib.templates();
    expect([...warnings].sort()).toEqual(
      [
        `Skipped prompt template ${join(prompts, "bin.md")}: a binary file (it contains NUL bytes)`,
        `Skipped prompt template ${join(prompts, "huge.md")}: too large (1048576 bytes; the limit is 262144)`,
        `Skipped prompt template ${join(prompts, "leak.md")}: a symlink leaving the project (it leads to ${secret})`,
        `Skipped prompt template ${join(prompts, "pipe.md")}: not a regular file (a FIFO, socket or device)`,
        `Skipped prompt template ${join(prompts, "two words.md")}: its name has spaces (it could not be invoked as /name)`,
      ].sort(),
    );
  });

  it("a missing settings path is reported; a missing default folder is not", async () => {
    const root = temp();
    const { lib, warnings } = library({ agentDir: join(root, "agent"), cwd: join(root, "cwd"), prompts: [join(root, "nope")] });
    expect(await lib.templates()).toEqual([]);
    expect(warnings).toEqual([`Skipped prompts folder ${join(root, "nope")}: it does not exist`]);
  });
});
