/**
 * pi's DefaultPackageManager over the packages plugin's installer (the real one, from a booted
 * agent): a local folder, a local extension file and a `git:file://` repository (no network), through the settings files
 * a SettingsManager reads and writes.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PackagesApi } from "../../packages/api.js";
import { bootExtensions, type Harness } from "../harness.test-support.js";
import { packageManagerClass, type ProgressEvent } from "./package-manager.js";
import { SettingsManager } from "./settings-manager.js";

let h: Harness;
let DefaultPackageManager: ReturnType<typeof packageManagerClass>;
const dirs: string[] = [];

beforeAll(async () => {
  h = await bootExtensions([]);
  DefaultPackageManager = packageManagerClass(() => h.host.kernel.services.get("packages") as PackagesApi);
}, 60_000);
afterAll(async () => {
  await h.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function place() {
  const root = mkdtempSync(join(tmpdir(), "atomic-pm-"));
  dirs.push(root);
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, agentDir, cwd };
}

function makePackage(dir: string, name: string, command: string): string {
  mkdirSync(join(dir, "extensions"), { recursive: true });
  mkdirSync(join(dir, "skills", "greet"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
  writeFileSync(join(dir, "extensions", `${command}.ts`), `export default (pi) => pi.registerCommand("${command}", { handler: async () => {} });\n`);
  writeFileSync(join(dir, "skills", "greet", "SKILL.md"), "---\nname: greet\ndescription: Greets\n---\nSay hello.\n");
  return dir;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" })
    .toString()
    .trim();

describe("DefaultPackageManager over the packages plugin", () => {
  it("a local folder: installAndPersist writes it relative to the settings file, resolve reads it, removeAndPersist leaves the folder", async () => {
    const { root, agentDir, cwd } = place();
    const pkg = makePackage(join(root, "tools"), "tools", "hello");
    const settingsManager = SettingsManager.create(cwd, agentDir);
    const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager });
    await manager.installAndPersist("../tools");
    expect(JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages).toEqual(["../tools"]);
    expect(manager.addSourceToSettings(pkg)).toBe(false);
    expect(manager.listConfiguredPackages()).toEqual([{ source: "../tools", scope: "user", filtered: false, installedPath: pkg }]);
    const resolved = await manager.resolve();
    expect(resolved.extensions.map((resource) => resource.path)).toEqual([join(pkg, "extensions", "hello.ts")]);
    expect(resolved.extensions[0]!.metadata).toMatchObject({ source: "../tools", scope: "user", origin: "package", packageRoot: pkg });
    expect(resolved.skills.map((resource) => resource.path)).toEqual([join(pkg, "skills", "greet", "SKILL.md")]);
    expect(resolved.installFailures).toEqual([]);
    expect(await manager.removeAndPersist("../tools")).toBe(true);
    expect(JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages).toEqual([]);
    expect(existsSync(join(pkg, "package.json"))).toBe(true);
    expect(manager.removeSourceFromSettings("../tools")).toBe(false);
  });

  it("a local extension file is a package of that one extension (pi's metadata: its folder as base, no package root); another file fails", async () => {
    const { root, agentDir, cwd } = place();
    const file = join(root, "single.ts");
    writeFileSync(file, `export default (pi) => pi.registerCommand("single", { handler: async () => {} });\n`);
    writeFileSync(join(root, "notes.txt"), "hello\n");
    const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir) });
    await manager.installAndPersist("../single.ts");
    await expect(manager.installAndPersist("../notes.txt")).rejects.toThrow(`Not a package: ${join(root, "notes.txt")} is neither a folder nor an extension file`);
    const resolved = await manager.resolve();
    expect(resolved.extensions.map((resource) => resource.path)).toEqual([file]);
    expect(resolved.extensions[0]!.metadata).toEqual({ source: "../single.ts", scope: "user", origin: "package", baseDir: root });
    expect(resolved.installFailures).toEqual([]);
  });

  it("a git repository: cloned where `atomic install` puts it, updated to a new commit, removed", async () => {
    const { root, agentDir, cwd } = place();
    const repo = makePackage(join(root, "repo"), "gitpkg", "one");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "one");
    const source = `git:file://${repo}`;
    const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir), commandOutput: "capture" });
    const events: ProgressEvent[] = [];
    manager.setProgressCallback((event) => events.push(event));
    await manager.installAndPersist(source);
    const clone = join(agentDir, "git", "local", ...repo.split("/").filter(Boolean));
    expect(manager.getInstalledPath(source, "user")).toBe(clone);
    expect(existsSync(join(clone, "extensions", "one.ts"))).toBe(true);
    expect(events.map((event) => `${event.type} ${event.action}`)).toEqual(["start install", "complete install"]);
    writeFileSync(join(repo, "extensions", "two.ts"), "export default () => {};\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "two");
    events.length = 0;
    await manager.update();
    expect(events.map((event) => `${event.type} ${event.action}`)).toEqual(["start update", "complete update", "result update"]);
    expect(events.at(-1)!.message).toMatch(new RegExp(`^${source} [0-9a-f]{40} -> ${git(repo, "rev-parse", "HEAD")}$`));
    expect((await manager.resolve()).extensions.map((resource) => resource.path)).toEqual([join(clone, "extensions", "one.ts"), join(clone, "extensions", "two.ts")]);
    await expect(manager.update("npm:not-configured")).rejects.toThrow(`No matching package found for npm:not-configured (configured: ${source})`);
    expect(await manager.removeAndPersist(source)).toBe(true);
    expect(existsSync(clone)).toBe(false);
    expect(manager.getInstalledPath(source, "user")).toBeUndefined();
  }, 60_000);

  it("a configured package that is missing: onMissing skips it or reports it; installed by default", async () => {
    const { root, agentDir, cwd } = place();
    const repo = makePackage(join(root, "repo"), "lazy", "lazy");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "one");
    const source = `git:file://${repo}`;
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: [source] }));
    const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir), commandOutput: "capture" });
    expect((await manager.resolve(async () => "skip")).extensions).toEqual([]);
    expect((await manager.resolve(async () => "error")).installFailures).toEqual([{ source, scope: "user", message: `Missing source: ${source}` }]);
    const installed = await manager.resolve();
    expect(installed.extensions.map((resource) => resource.path)).toEqual([join(manager.getInstalledPath(source, "user")!, "extensions", "lazy.ts")]);
  }, 60_000);

  it("top-level resources: the settings' own paths and the conventional folders, the project's only when trusted", async () => {
    const { agentDir, cwd } = place();
    mkdirSync(join(agentDir, "extensions"), { recursive: true });
    writeFileSync(join(agentDir, "extensions", "mine.ts"), "export default () => {};\n");
    mkdirSync(join(cwd, ".atomic", "prompts"), { recursive: true });
    writeFileSync(join(cwd, ".atomic", "prompts", "review.md"), "Review\n");
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ extensions: ["!nope.ts"] }));
    const resolved = await new DefaultPackageManager({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir) }).resolve();
    expect(resolved.extensions).toEqual([
      { path: join(agentDir, "extensions", "mine.ts"), enabled: true, metadata: { source: "local", scope: "user", origin: "top-level", baseDir: agentDir } },
    ]);
    expect(resolved.prompts.map((resource) => resource.path)).toEqual([join(cwd, ".atomic", "prompts", "review.md")]);
    expect(resolved.installFailures?.[0]?.message).toContain('entry "!nope.ts" is a pattern');
    const untrusted = new DefaultPackageManager({ cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: false }) });
    expect((await untrusted.resolve()).prompts).toEqual([]);
    await expect(untrusted.install("./x", { local: true })).rejects.toThrow(`The project ${cwd} is not trusted`);
  });

  it("what Atomic does elsewhere is refused with the way to do it", async () => {
    const { agentDir, cwd } = place();
    const settingsManager = SettingsManager.create(cwd, agentDir);
    expect(() => new DefaultPackageManager({ cwd, agentDir, settingsManager, builtinExtensions: ["mcp"] })).toThrow(/Atomic has no built-in extensions/);
    const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager });
    await expect(manager.checkForAvailableUpdates()).rejects.toThrow("run `atomic update`");
    await expect(manager.resolveExtensionSources(["builtin:mcp"])).rejects.toThrow(/builtin:mcp: Atomic has no built-in extensions/);
    await expect(manager.install("./missing")).rejects.toThrow(`Path does not exist: ${join(cwd, "missing")}`);
  });
});
