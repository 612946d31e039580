import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp.js";
import { ancestry, discoverContextFiles, projectBoundary, readCapped, renderProjectContext, repositoryRoot } from "./discover.js";

function tree(): { root: string; agentDir: string; project: string; cwd: string } {
  const root = tempDir("atomic-ctx-files-");
  const agentDir = join(root, "agent");
  const project = join(root, "project");
  const cwd = join(project, "packages", "app");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, agentDir, project, cwd };
}

describe("ancestry", () => {
  it("lists directories from the filesystem root down to the cwd", () => {
    const dirs = ancestry(join(sep, "a", "b", "c"));
    expect(dirs).toEqual([sep, join(sep, "a"), join(sep, "a", "b"), join(sep, "a", "b", "c")]);
  });
});

describe("discoverContextFiles", () => {
  it("puts the agent dir first, then root-to-cwd, taking AGENTS.md over CLAUDE.md per directory", async () => {
    const { root, agentDir, project, cwd } = tree();
    writeFileSync(join(agentDir, "CLAUDE.md"), "global rules");
    writeFileSync(join(project, "AGENTS.md"), "project rules");
    writeFileSync(join(cwd, "CLAUDE.md"), "app claude");
    writeFileSync(join(cwd, "AGENTS.md"), "app agents");
    mkdirSync(join(project, "packages", "AGENTS.md")); // a directory with the name is not a file
    const files = (await discoverContextFiles(agentDir, cwd)).filter((f) => f.path.startsWith(root));
    expect(files).toEqual([
      { path: join(agentDir, "CLAUDE.md"), content: "global rules" },
      { path: join(project, "AGENTS.md"), content: "project rules" },
      { path: join(cwd, "AGENTS.md"), content: "app agents" },
    ]);
  });

  it("reads the agent dir only once when it is also an ancestor of the cwd", async () => {
    const { root, agentDir } = tree();
    writeFileSync(join(agentDir, "AGENTS.md"), "once");
    mkdirSync(join(agentDir, "work"));
    const files = (await discoverContextFiles(agentDir, join(agentDir, "work"))).filter((f) => f.path.startsWith(root));
    expect(files.map((f) => f.content)).toEqual(["once"]);
  });
});

describe("project boundary", () => {
  it("is the repository around the cwd for directories inside it, else the directory itself", async () => {
    const { root, project, cwd } = tree();
    expect(await repositoryRoot(cwd)).toBeUndefined();
    mkdirSync(join(project, ".git"));
    expect(await repositoryRoot(cwd)).toBe(project);
    expect(projectBoundary(cwd, project)).toBe(project);
    expect(projectBoundary(root, project)).toBe(root);
    expect(projectBoundary(cwd, undefined)).toBe(cwd);
  });

  it.skipIf(process.platform === "win32")("skips links leaving the project and non-regular files, reporting each, and tries the next name", async () => {
    const { root, agentDir, project, cwd } = tree();
    writeFileSync(join(root, "secret"), "TOKEN");
    symlinkSync(join(root, "secret"), join(project, "AGENTS.md"));
    writeFileSync(join(project, "CLAUDE.md"), "project rules");
    execFileSync("mkfifo", [join(cwd, "AGENTS.md")]);
    symlinkSync(join(root, "secret"), join(agentDir, "AGENTS.md")); // the user's own dir may link anywhere
    const skipped: string[] = [];
    const files = (await discoverContextFiles(agentDir, cwd, { onSkip: (path, reason) => skipped.push(`${path}: ${reason}`) })).filter((f) => f.path.startsWith(root));
    expect(files).toEqual([
      { path: join(agentDir, "AGENTS.md"), content: "TOKEN" },
      { path: join(project, "CLAUDE.md"), content: "project rules" },
    ]);
    expect(skipped.sort()).toEqual([
      `${join(project, "AGENTS.md")}: it links to ${join(root, "secret")}, outside the project ${project}`,
      `${join(cwd, "AGENTS.md")}: it is a FIFO, not a regular file`,
    ]);
  });
});

describe("readCapped", () => {
  it("cuts an oversized file at the cap without splitting a UTF-8 character", async () => {
    const { root } = tree();
    const path = join(root, "big.md");
    writeFileSync(path, "ab" + "é".repeat(10)); // 2 + 20 bytes; é is 2 bytes
    const file = await readCapped(path, 5); // "ab" + é + half of é
    expect(file).toEqual({ path, content: "abé", truncatedFrom: 22 });
    expect(await readCapped(path, 22)).toEqual({ path, content: "ab" + "é".repeat(10) });
    expect(await readCapped(join(root, "missing.md"), 10)).toBeUndefined();
  });
});

describe("renderProjectContext", () => {
  it("wraps each file in a context_file element under # Project Context, noting truncation", () => {
    const text = renderProjectContext([
      { path: "/p/AGENTS.md", content: "use tabs\n\n" },
      { path: '/q/"odd".md', content: "x", truncatedFrom: 100 },
    ]);
    expect(text).toBe(
      "# Project Context\n\nProject-specific instructions and guidelines:\n\n" +
        '<context_file path="/p/AGENTS.md">\nuse tabs\n</context_file>\n\n' +
        '<context_file path="/q/&quot;odd&quot;.md">\nx\n[Truncated: showing the first 1 of 100 bytes]\n</context_file>',
    );
    expect(renderProjectContext([])).toBe("");
  });
});
