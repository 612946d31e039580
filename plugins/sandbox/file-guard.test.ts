/** The file guard on a real tree: real paths through symlinks (dangling ones too), `..`, /proc/self/root and hard links. */
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileGuard } from "./file-guard.js";
import { composePolicy, type SandboxMode } from "./policy.js";
import { realPathOf } from "./real-path.js";

let root: string;
beforeEach(async () => {
  root = await realPathOf(await mkdtemp(join(tmpdir(), "atomic-guard-")));
  for (const dir of ["ws", "out", "home/.ssh", "agent", "cache"]) await mkdir(join(root, dir), { recursive: true });
  await writeFile(join(root, "out", "target.txt"), "x");
  await writeFile(join(root, "home", ".ssh", "id_rsa"), "key");
});
afterEach(() => rm(root, { recursive: true, force: true }));

function guard(mode: SandboxMode = "workspace-write", writableRoots: string[] = []) {
  const cwd = join(root, "ws");
  const agentDir = join(root, "agent");
  const { policy } = composePolicy({ user: { mode, writableRoots }, projectTrusted: false, cwd, agentDir, env: { HOME: join(root, "home") } });
  return createFileGuard({ policy, cwd, agentDir });
}
const ws = (...parts: string[]) => join(root, "ws", ...parts);

describe("file guard", () => {
  it("realPathOf resolves the deepest existing ancestor, through links that dangle", async () => {
    await symlink(join(root, "out", "missing", "deeper"), ws("dangling"));
    expect(await realPathOf(ws("new", "file.txt"))).toBe(ws("new", "file.txt"));
    expect(await realPathOf(ws("dangling"))).toBe(join(root, "out", "missing", "deeper"));
    expect(await realPathOf(ws("dangling", "x"))).toBe(join(root, "out", "missing", "deeper", "x"));
  });

  it("allows writes in the workspace and the writable roots only", async () => {
    const files = guard("workspace-write", [join(root, "cache")]);
    await expect(files.check(ws("a", "b.txt"), "write")).resolves.toBe(ws("a", "b.txt"));
    await expect(files.check(join(root, "cache", "x"), "write")).resolves.toBe(join(root, "cache", "x"));
    await expect(files.check(join(root, "out", "x"), "write")).rejects.toThrow(/^blocked by the sandbox: write outside the workspace/);
    await expect(files.check(`/proc/self/root${join(root, "out", "x")}`, "write")).rejects.toThrow(/write outside the workspace/);
  });

  it("follows links planted in the workspace, refuses hard links and protected folders", async () => {
    const files = guard();
    await symlink(join(root, "out"), ws("link"));
    await link(join(root, "out", "target.txt"), ws("hard.txt"));
    await mkdir(ws(".git", "hooks"), { recursive: true });
    await expect(files.check(ws("link", "x"), "write")).rejects.toThrow(`which leads to ${join(root, "out", "x")}`);
    await expect(files.check(ws("hard.txt"), "write")).rejects.toThrow("has other hard links");
    await expect(files.check(ws(".git", "hooks", "pre-commit"), "write")).rejects.toThrow("is protected");
    await expect(files.check(join(root, "agent", "settings.json"), "write")).rejects.toThrow(/write outside the workspace/);
  });

  it("refuses reads under denied folders, whatever the path; read-only refuses every write", async () => {
    const files = guard("read-only");
    await symlink(join(root, "home", ".ssh"), ws("keys"));
    await expect(files.check(join(root, "home", ".ssh", "id_rsa"), "read")).rejects.toThrow(/^blocked by the sandbox: reading .* is not allowed/);
    await expect(files.check(ws("keys", "id_rsa"), "read")).rejects.toThrow("is not allowed");
    await expect(files.check(join(root, "agent", "auth.json"), "read")).rejects.toThrow("is not allowed");
    await expect(files.check(join(root, "out", "target.txt"), "read")).resolves.toBe(join(root, "out", "target.txt"));
    await expect(files.check(ws("x"), "write")).rejects.toThrow("it is read-only");
    expect(await files.deniedWithin(root)).toEqual(expect.arrayContaining(["agent/auth.json", "home/.ssh"]));
    expect(await files.mayFollow(ws("keys"))).toBe(false);
  });
});
