/**
 * pi packages through the built CLI, with no network: `atomic install|remove|list|update` from a
 * local folder, a local git repository and a loopback npm registry (packed with the real npm),
 * the `packages` setting (user, and a project's only when trusted), `-e npm:<spec>` for one run,
 * one stderr line for a package that cannot be installed at startup, manifests that point outside
 * their package, and a package folder whose entry file sits beside its sources.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NpmRegistry, npmEnv } from "./helpers/npm-registry.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";
import { withoutBuiltins } from "./helpers/commands.js";

interface Pkg {
  name: string;
  version?: string;
  /** package.json `pi` key. */
  pi?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  files: Record<string, string>;
}

function makePackage(dir: string, pkg: Pkg): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: pkg.name, version: pkg.version ?? "1.0.0", ...(pkg.pi ? { pi: pkg.pi } : {}), ...pkg.extra }, null, 2));
  for (const [path, text] of Object.entries(pkg.files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const command = (name: string, text = name) =>
  `export default function (pi: any) { pi.registerCommand(${JSON.stringify(name)}, { description: ${JSON.stringify(text)}, handler: async () => {} }); }\n`;
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\nDo ${name}.\n`;

async function commandsOf(agentDir: string, cwd: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ names: string[]; client: RpcClient }> {
  const client = new RpcClient({ agentDir, cwd, env, args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", ...args] });
  const data = (await client.ok({ type: "get_commands" }, 60_000)) as { commands: { name: string }[] };
  await client.close();
  return {
    names: withoutBuiltins(data.commands)
      .map((entry) => entry.name)
      .sort(),
    client,
  };
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" }).toString();

describe("atomic install / list / remove, from a folder and from git", () => {
  it("a folder package: installed into the user's settings (relative to the agent dir), loaded, listed, removed", async () => {
    const root = tempDir("atomic-pkg-");
    const agentDir = join(root, "agent");
    const cwd = join(root, "work");
    mkdirSync(cwd, { recursive: true });
    makePackage(join(root, "tools"), {
      name: "tools",
      files: { "extensions/hello.ts": command("hello"), "skills/greet/SKILL.md": skill("greet"), "prompts/review.md": "---\ndescription: Review\n---\nReview $@\n" },
    });
    const installed = await runCli(["install", "../tools"], { cwd, agentDir });
    expect(installed.stderr).toBe("");
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain("(1 extension, 1 skill, 1 prompt template)");
    expect(JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages).toEqual(["../tools"]);
    expect((await commandsOf(agentDir, cwd)).names).toEqual(["hello", "review", "skill:greet"]);
    const listed = await runCli(["list"], { cwd, agentDir });
    expect(listed.stdout).toContain(`../tools: ${join(root, "tools")} (1.0.0), 1 extension, 1 skill, 1 prompt template`);
    expect((await runCli(["remove", "./nowhere"], { cwd, agentDir })).stderr).toContain("No package ./nowhere in");
    const removed = await runCli(["remove", "../tools"], { cwd, agentDir });
    expect(removed.code).toBe(0);
    expect(existsSync(join(root, "tools", "package.json"))).toBe(true);
    expect((await commandsOf(agentDir, cwd)).names).toEqual([]);
  }, 90_000);

  it("a git package: cloned under <agent dir>/git, pinned refs stay, update moves a branch to its new commit", async () => {
    const root = tempDir("atomic-pkg-git-");
    const agentDir = join(root, "agent");
    const repo = makePackage(join(root, "repo"), { name: "gitpkg", pi: { extensions: ["./main.ts"] }, files: { "main.ts": command("one") } });
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "one");
    git(repo, "tag", "v1");
    const source = `git:file://${repo}`;
    expect((await runCli(["install", source], { cwd: root, agentDir, timeoutMs: 60_000 })).code).toBe(0);
    expect((await runCli(["install", `${source}@v1`, "-l", "--approve"], { cwd: root, agentDir, timeoutMs: 60_000 })).code).toBe(0);
    expect(existsSync(join(agentDir, "git", "local", ...repo.split("/").filter(Boolean), ".git"))).toBe(true);
    writeFileSync(join(repo, "main.ts"), command("two"));
    git(repo, "commit", "-qam", "two");
    const updated = await runCli(["update", "--approve"], { cwd: root, agentDir, timeoutMs: 60_000 });
    expect(updated.code).toBe(0);
    expect(updated.stdout).toMatch(new RegExp(`^${source}: [0-9a-f]{7} -> [0-9a-f]{7}$`, "m"));
    expect(updated.stdout).toMatch(new RegExp(`^${source}@v1 \\(project\\): up to date`, "m"));
    // The project's pinned entry wins over the user's (one package, one identity): still "one".
    expect((await commandsOf(agentDir, root, ["--approve"])).names).toEqual(["one"]);
    expect((await commandsOf(agentDir, root)).names).toEqual(["two"]);
    expect((await runCli(["remove", source], { cwd: root, agentDir })).code).toBe(0);
    expect(existsSync(join(agentDir, "git", "local"))).toBe(false);
  }, 120_000);

  it("project packages need trust: install -l refuses, startup ignores them with one line", async () => {
    const root = tempDir("atomic-pkg-trust-");
    const agentDir = join(root, "agent");
    makePackage(join(root, ".atomic", "local-tools"), { name: "local-tools", files: { "extensions/p.ts": command("project-cmd") } });
    const refused = await runCli(["install", "./.atomic/local-tools", "-l"], { cwd: root, agentDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The project ${root} is not trusted`);
    writeFileSync(join(root, ".atomic", "settings.json"), JSON.stringify({ packages: ["local-tools"] }));
    const untrusted = await commandsOf(agentDir, root);
    expect(untrusted.names).toEqual([]);
    expect(untrusted.client.stderr).toContain(`Ignored "packages" in ${join(root, ".atomic", "settings.json")}: an untrusted project may not set it`);
    expect((await commandsOf(agentDir, root, ["--approve"])).names).toEqual(["project-cmd"]);
  }, 60_000);

  it("atomic list does not promise that an untrusted project's packages are installed at the next start", async () => {
    const root = tempDir("atomic-pkg-list-");
    const agentDir = join(root, "agent");
    mkdirSync(join(root, ".atomic"), { recursive: true });
    writeFileSync(join(root, ".atomic", "settings.json"), JSON.stringify({ packages: ["npm:project-only-tools"] }));
    const untrusted = await runCli(["list"], { cwd: root, agentDir });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toContain("not loaded, the project is not trusted");
    expect(untrusted.stdout).not.toContain("next start");
    expect(untrusted.stdout).toContain("npm:project-only-tools: not installed (nor installed at startup while the project is not trusted)");
    // Trusted, startup would install it: then it says so.
    const trusted = await runCli(["list", "--approve"], { cwd: root, agentDir });
    expect(trusted.stdout).toContain("npm:project-only-tools: not installed (installed at the next start, or run atomic install npm:project-only-tools -l)");
  }, 60_000);
});

describe("npm packages, from a loopback registry", () => {
  const registry = new NpmRegistry();
  let root: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    await registry.start();
    root = tempDir("atomic-pkg-npm-");
    env = npmEnv(registry, join(root, "npm-env"));
    const v1 = makePackage(join(root, "src-1"), {
      name: "@demo/pi-tools",
      pi: { extensions: ["./index.ts"], skills: ["./skills"] },
      files: { "index.ts": command("npm-one"), "skills/npm-skill/SKILL.md": skill("npm-skill") },
    });
    await registry.publish(v1);
  });
  afterAll(() => registry.stop());

  it("install pins what was asked, update brings an unpinned package to the newest version", async () => {
    const agentDir = join(root, "agent-install");
    const installed = await runCli(["install", "npm:@demo/pi-tools"], { cwd: root, agentDir, env, timeoutMs: 90_000 });
    expect(installed.stderr).not.toMatch(/error/i);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(
      `Installed npm:@demo/pi-tools 1.0.0 (1 extension, 1 skill, 0 prompt templates) in ${join(agentDir, "npm", "node_modules", "@demo", "pi-tools")}`,
    );
    expect((await commandsOf(agentDir, root, [], env)).names).toEqual(["npm-one", "skill:npm-skill"]);
    await registry.publish(
      makePackage(join(root, "src-2"), { name: "@demo/pi-tools", version: "1.1.0", pi: { extensions: ["./index.ts"] }, files: { "index.ts": command("npm-two") } }),
    );
    // Offline (pi's PI_OFFLINE, or ATOMIC_OFFLINE): update runs no npm and says so (issue 39, item 8).
    for (const offline of [{ PI_OFFLINE: "1" }, { ATOMIC_OFFLINE: "true" }]) {
      const skipped = await runCli(["update", "npm:@demo/pi-tools"], { cwd: root, agentDir, env: { ...env, ...offline }, timeoutMs: 90_000 });
      expect(skipped.stdout).toBe(`Skipped package updates (offline mode: ${Object.keys(offline)[0]} is set)\n`);
      expect((await commandsOf(agentDir, root, [], env)).names).toEqual(["npm-one", "skill:npm-skill"]);
    }
    const updated = await runCli(["update", "npm:@demo/pi-tools"], { cwd: root, agentDir, env, timeoutMs: 90_000 });
    expect(updated.stdout).toBe("npm:@demo/pi-tools: 1.0.0 -> 1.1.0\n");
    expect((await commandsOf(agentDir, root, [], env)).names).toEqual(["npm-two"]);
    const removed = await runCli(["uninstall", "npm:@demo/pi-tools"], { cwd: root, agentDir, env, timeoutMs: 90_000 });
    expect(removed.code).toBe(0);
    expect(existsSync(join(agentDir, "npm", "node_modules", "@demo", "pi-tools"))).toBe(false);
  }, 240_000);

  it("install says that it runs the package's lifecycle scripts, before it runs them, and which ran", async () => {
    await registry.publish(
      makePackage(join(root, "src-scripted"), {
        name: "scripted-tools",
        pi: { extensions: ["./index.ts"] },
        extra: { scripts: { postinstall: "node -e \"require('fs').writeFileSync('postinstall-ran', 'yes')\"" } },
        files: { "index.ts": command("scripted") },
      }),
    );
    const agentDir = join(root, "agent-scripted");
    const installed = await runCli(["install", "npm:scripted-tools"], { cwd: root, agentDir, env, timeoutMs: 90_000 });
    expect(installed.code).toBe(0);
    const folder = join(agentDir, "npm", "node_modules", "scripted-tools");
    expect(readFileSync(join(folder, "postinstall-ran"), "utf8")).toBe("yes");
    expect(installed.stderr.split("\n")[0]).toBe(
      "atomic: installing npm:scripted-tools runs the lifecycle scripts (preinstall, install, postinstall) of the package and of its dependencies, with your permissions (npm install, as pi does): install only packages you trust",
    );
    expect(installed.stdout).toContain(
      `Installed npm:scripted-tools 1.0.0 (1 extension, 0 skills, 0 prompt templates) in ${folder}; it has a "postinstall" script (run by npm unless ignore-scripts is set); added`,
    );
  }, 120_000);

  it("-e npm:<spec> loads for one run from <agent dir>/tmp/extensions, without touching settings", async () => {
    const agentDir = join(root, "agent-temporary");
    const { names } = await commandsOf(agentDir, root, ["-e", "npm:@demo/pi-tools@1.0.0"], env);
    expect(names).toEqual(["npm-one", "skill:npm-skill"]);
    expect(existsSync(join(agentDir, "tmp", "extensions", "npm", "node_modules", "@demo", "pi-tools", "package.json"))).toBe(true);
    expect(existsSync(join(agentDir, "settings.json"))).toBe(false);
  }, 120_000);

  it("a configured package that cannot be installed at startup is one stderr line; the rest loads", async () => {
    const agentDir = join(root, "agent-failing");
    makePackage(join(agentDir, "fine"), { name: "fine", files: { "extensions/fine.ts": command("fine") } });
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: ["npm:no-such-package-here", "fine"] }));
    const client = new RpcClient({ agentDir, cwd: root, env, args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"] });
    const error = await client.waitFor((record) => record.type === "extension_error" && record.extensionPath === "npm:no-such-package-here", 60_000);
    expect(error.event).toBe("install");
    expect(String(error.error)).toMatch(/^Could not install npm:no-such-package-here: npm install no-such-package-here .* failed/);
    const data = (await client.ok({ type: "get_commands" })) as { commands: { name: string }[] };
    expect(withoutBuiltins(data.commands).map((entry) => entry.name)).toEqual(["fine"]);
    await client.close();
    const lines = client.stderr.split("\n").filter((line) => line.includes("no-such-package-here"));
    expect(lines).toHaveLength(1);
  }, 120_000);
});

describe("what a package folder loads", () => {
  it("a manifest entry that points outside the package is refused, clearly; the rest of it loads", async () => {
    const root = tempDir("atomic-pkg-escape-");
    writeFileSync(join(root, "outside.ts"), command("outside"));
    const pkg = makePackage(join(root, "pkg"), {
      name: "escaper",
      pi: { extensions: ["../outside.ts", "./inside.ts"], skills: ["../"] },
      files: { "inside.ts": command("inside") },
    });
    const { names, client } = await commandsOf(join(root, "agent"), root, ["-e", pkg]);
    expect(names).toEqual(["inside"]);
    expect(client.stderr).toContain(`Refused "../outside.ts" in ${join(pkg, "package.json")} (pi.extensions): it points outside the package folder`);
    expect(client.stderr).toContain(`Refused "../" in ${join(pkg, "package.json")} (pi.skills): it points outside the package folder`);
  }, 60_000);

  it("a package whose main entry sits beside its sources loads one file, once (no double registration)", async () => {
    const root = tempDir("atomic-pkg-main-");
    // As @agentuity/pi ships: src/index.ts and its build dist/index.js, package.json main -> dist.
    const pkg = makePackage(join(root, "pkg"), {
      name: "built",
      extra: { type: "module", main: "./dist/index.js", exports: { ".": { import: "./dist/index.js", types: "./dist/index.d.ts" } } },
      files: { "src/index.ts": command("region"), "dist/index.js": command("region").replace("(pi: any)", "(pi)") },
    });
    const { names, client } = await commandsOf(join(root, "agent"), root, ["-e", pkg]);
    expect(names).toEqual(["region"]);
    expect(client.stderr).not.toContain("extension_error");
    expect(client.records.filter((record) => record.type === "extension_error")).toEqual([]);
  }, 60_000);

  it("settings filters narrow a package: no extensions, one of its skills", async () => {
    const root = tempDir("atomic-pkg-filter-");
    const agentDir = join(root, "agent");
    makePackage(join(agentDir, "bundle"), { name: "bundle", files: { "extensions/x.ts": command("x"), "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b") } });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: [{ source: "bundle", extensions: [], skills: ["!b"] }] }));
    expect((await commandsOf(agentDir, root)).names).toEqual(["skill:a"]);
  }, 60_000);
});
