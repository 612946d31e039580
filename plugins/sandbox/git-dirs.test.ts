/** Finding the git plumbing to pin and protect, on a real tree laid out as git lays it out (no git needed). */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileGuard } from "./file-guard.js";
import { gitPlumbing, submodulePaths } from "./git-dirs.js";
import { composePolicy } from "./policy.js";
import { realPathOf } from "./real-path.js";

let root: string;
beforeEach(async () => {
  root = await realPathOf(await mkdtemp(join(tmpdir(), "atomic-git-dirs-")));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function gitDir(dir: string): Promise<void> {
  await mkdir(join(dir, "hooks"), { recursive: true });
  await writeFile(join(dir, "HEAD"), "ref: refs/heads/main\n");
  await writeFile(join(dir, "config"), "[core]\n\tbare = false\n");
}

const at = (...parts: string[]) => join(root, ...parts);
const protectedIn = (dir: string) => ["config", "config.worktree", "hooks", "commondir"].map((name) => join(dir, name));

describe("git plumbing", () => {
  it("a repository: its git dir, its submodules' (names with slashes, nested, embedded) and their .git files, its linked worktrees'", async () => {
    await gitDir(at("ws", ".git"));
    await gitDir(at("ws", ".git", "modules", "libs", "a"));
    await gitDir(at("ws", ".git", "modules", "libs", "a", "modules", "b"));
    await gitDir(at("ws", "vendor", "c", ".git"));
    await mkdir(at("ws", "libs", "a", "b"), { recursive: true });
    await writeFile(at("ws", ".gitmodules"), '[submodule "libs/a"]\n\tpath = libs/a\n\turl = ../a\n[submodule "c"]\n\tpath = "vendor/c"\n');
    await writeFile(at("ws", "libs", "a", ".gitmodules"), '[submodule "b"]\n\tpath = b\n');
    await writeFile(at("ws", "libs", "a", ".git"), "gitdir: ../../.git/modules/libs/a\n");
    await writeFile(at("ws", "libs", "a", "b", ".git"), "gitdir: ../../../.git/modules/libs/a/modules/b\n");
    await mkdir(at("ws", ".git", "worktrees", "topic"), { recursive: true });
    await writeFile(at("ws", ".git", "worktrees", "topic", "commondir"), "../..\n");

    const found = await gitPlumbing(at("ws"));
    const gitDirs = [".git", "vendor/c/.git", ".git/modules/libs/a", ".git/worktrees/topic", ".git/modules/libs/a/modules/b"].map((dir) => at("ws", dir));
    // Each before those inside it (bubblewrap binds them in this order).
    expect(found.pinned).toEqual(gitDirs);
    expect(found.protectedPaths.sort()).toEqual([...gitDirs.flatMap(protectedIn), at("ws", "libs", "a", ".git"), at("ws", "libs", "a", "b", ".git")].sort());
  });

  it("a linked worktree: its .git file, its git dir and the common dir that holds the config and hooks", async () => {
    await gitDir(at("main", ".git"));
    await mkdir(at("main", ".git", "worktrees", "wt"), { recursive: true });
    await writeFile(at("main", ".git", "worktrees", "wt", "commondir"), "../..\n");
    await mkdir(at("wt"));
    await writeFile(at("wt", ".git"), `gitdir: ${at("main", ".git", "worktrees", "wt")}\n`);

    const found = await gitPlumbing(at("wt"));
    expect(found.pinned).toEqual([at("main", ".git"), at("main", ".git", "worktrees", "wt")]);
    expect(found.protectedPaths).toEqual(expect.arrayContaining([at("wt", ".git"), at("main", ".git", "config"), at("main", ".git", "hooks")]));
    expect(await gitPlumbing(at("nothing-here"))).toEqual({ pinned: [], protectedPaths: [] });
  });

  it("the file tools refuse the same paths, absent ones included, and leave the rest of the git dir writable", async () => {
    await gitDir(at("ws", ".git"));
    await gitDir(at("ws", ".git", "modules", "lib"));
    await writeFile(at("ws", ".gitmodules"), '[submodule "lib"]\n\tpath = lib\n');
    await mkdir(at("ws", "lib"));
    await writeFile(at("ws", "lib", ".git"), "gitdir: ../.git/modules/lib\n");
    const cwd = at("ws");
    const { policy } = composePolicy({ user: { mode: "workspace-write" }, projectTrusted: false, cwd, agentDir: at("agent"), env: { HOME: at("home") } });
    const files = createFileGuard({ policy, cwd, agentDir: at("agent") });
    for (const path of [".git/commondir", ".git/config.worktree", ".git/modules/lib/config", ".git/modules/lib/hooks/post-checkout", "lib/.git"])
      await expect(files.check(at("ws", path), "write"), path).rejects.toThrow("is protected");
    await expect(files.check(at("ws", ".git", "index"), "write")).resolves.toBe(at("ws", ".git", "index"));
    await expect(files.check(at("ws", ".git", "modules", "lib", "HEAD"), "write")).resolves.toBe(at("ws", ".git", "modules", "lib", "HEAD"));
  });

  it("reads the submodules' paths from a .gitmodules' text", () => {
    expect(submodulePaths('[submodule "a"]\n\tpath = libs/a\n\turl = x\n[submodule "b"]\n  Path = "with space"\n\tpath =\n')).toEqual(["libs/a", "with space"]);
  });
});
