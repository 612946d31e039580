/**
 * Where installed packages live and how they get there, with the clients the user already has:
 * npm packages in a private npm project (`<agent dir>/npm`, a project's `.atomic/npm`,
 * `<agent dir>/tmp/extensions/npm` for `-e`), git packages as clones (`.../git/<host>/<path>`).
 * Peer dependencies are not installed (`--legacy-peer-deps`): packages peer on pi's modules, which
 * Atomic serves itself. A clone is made beside its place and moved in when complete, so an
 * interrupted install leaves nothing half-made.
 */
import { access, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { secureRandomHex } from "../../lib/random-ids/index.js";
import { localPackageProblem, npmSatisfied, type GitSource, type NpmSource, type PackageSource } from "../../lib/packages/index.js";
import { gitRoot, type InstallScope, installPath, npmRoot } from "./install-paths.js";
import { runCommand, type CommandOutput, type CommandRunner } from "./run.js";
import { makeFolder } from "../../lib/make-folder/index.js";

export type { InstallScope };

export interface StoreOptions {
  agentDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The npm client and its leading arguments (settings `npmCommand`), default `npm`. */
  npmCommand?: readonly string[];
  output: CommandOutput;
  run?: CommandRunner;
}

export interface Change {
  from?: string;
  to?: string;
}

export class PackageStore {
  readonly #run: CommandRunner;

  constructor(private readonly options: StoreOptions) {
    this.#run = options.run ?? runCommand;
  }

  /** Where the package's files are (local: the path itself). */
  path(source: PackageSource, scope: InstallScope): string {
    return installPath(this.options, source, scope);
  }

  /** Installed, and (npm) at a version the source accepts. */
  async installed(source: PackageSource, scope: InstallScope): Promise<boolean> {
    if (source.type === "local") return exists(source.path);
    if (source.type === "git") return exists(join(this.path(source, scope), ".git"));
    const version = await this.installedVersion(source, scope);
    return version !== undefined && npmSatisfied(source, version);
  }

  async installedVersion(source: NpmSource, scope: InstallScope): Promise<string | undefined> {
    try {
      const pkg = JSON.parse(await readFile(join(this.path(source, scope), "package.json"), "utf8")) as { version?: unknown };
      return typeof pkg.version === "string" ? pkg.version : undefined;
    } catch {
      return undefined;
    }
  }

  async install(source: PackageSource, scope: InstallScope, deadline?: number): Promise<void> {
    if (source.type === "local") {
      const problem = await localPackageProblem(source.path);
      if (problem !== undefined) throw new Error(`${problem}${(await exists(source.path)) ? "" : npmNameHint(source.raw)}`);
      return;
    }
    if (source.type === "npm") return this.#npmInstall(source.spec, scope, deadline);
    const target = this.path(source, scope);
    if (await exists(join(target, ".git"))) {
      await this.update(source, scope, deadline);
      return;
    }
    await makeFolder(dirname(target));
    const staging = `${target}.partial-${secureRandomHex(4)}`;
    try {
      await this.#git(["clone", "--quiet", source.repo, staging], undefined, deadline);
      if (source.ref !== undefined) await this.#git(["checkout", "--quiet", source.ref], staging, deadline);
      await this.#dependencies(staging, deadline);
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  async remove(source: PackageSource, scope: InstallScope): Promise<void> {
    if (source.type === "local") return;
    if (source.type === "npm") {
      const root = this.#npmRoot(scope);
      if (!(await exists(join(root, "package.json")))) return;
      await this.#npm(["uninstall", source.name, "--prefix", root, "--legacy-peer-deps", "--no-audit", "--no-fund"], undefined);
      return;
    }
    const dir = this.path(source, scope);
    await rm(dir, { recursive: true, force: true });
    // The host and owner folders it was the last clone in go too.
    const root = this.#gitRoot(scope);
    for (let parent = dirname(dir); parent.startsWith(root + sep) && parent !== root; parent = dirname(parent)) {
      if ((await readdir(parent).catch(() => ["?"])).length > 0) break;
      await rm(parent, { recursive: true, force: true });
    }
  }

  /** Brings an installed package up to its source: the newest matching npm version, the branch or ref's commit. */
  async update(source: PackageSource, scope: InstallScope, deadline?: number): Promise<Change> {
    if (source.type === "local") return {};
    if (source.type === "npm") {
      const from = await this.installedVersion(source, scope);
      if (source.pinned && from === source.version) return { from, to: from };
      await this.#npmInstall(source.version === undefined ? `${source.name}@latest` : source.spec, scope, deadline);
      const to = await this.installedVersion(source, scope);
      return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
    }
    const dir = this.path(source, scope);
    if (!(await exists(join(dir, ".git")))) {
      await this.install(source, scope, deadline);
      return { to: await this.#head(dir) };
    }
    const from = await this.#head(dir);
    await this.#git(["fetch", "--quiet", "origin", ...(source.ref !== undefined ? [source.ref] : [])], dir, deadline);
    const target = source.ref !== undefined ? "FETCH_HEAD" : await this.#upstream(dir, deadline);
    await this.#git(["reset", "--quiet", "--hard", target], dir, deadline);
    const to = await this.#head(dir);
    if (to !== from) {
      await this.#git(["clean", "-fdxq"], dir, deadline);
      await this.#dependencies(dir, deadline);
    }
    return { from, to };
  }

  #npmRoot(scope: InstallScope): string {
    return npmRoot(this.options, scope);
  }

  #gitRoot(scope: InstallScope): string {
    return gitRoot(this.options, scope);
  }

  async #npmInstall(spec: string, scope: InstallScope, deadline: number | undefined): Promise<void> {
    const root = this.#npmRoot(scope);
    await makeFolder(root);
    if (!(await exists(join(root, "package.json")))) await writeFile(join(root, "package.json"), `${JSON.stringify({ name: "atomic-packages", private: true }, null, 2)}\n`);
    // A project's install folder is local state, never something to commit.
    if (!(await exists(join(root, ".gitignore")))) await writeFile(join(root, ".gitignore"), "*\n");
    await this.#npm(["install", spec, "--prefix", root, "--legacy-peer-deps", "--no-audit", "--no-fund"], deadline);
  }

  /** A clone's own dependencies (production only), when it declares any. */
  async #dependencies(dir: string, deadline: number | undefined): Promise<void> {
    let pkg: { dependencies?: unknown };
    try {
      pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { dependencies?: unknown };
    } catch {
      return;
    }
    if (typeof pkg.dependencies !== "object" || pkg.dependencies === null || Object.keys(pkg.dependencies).length === 0) return;
    await this.#npm(["install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"], deadline, dir);
  }

  async #upstream(dir: string, deadline: number | undefined): Promise<string> {
    try {
      return (await this.#git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"], dir, deadline, "capture")).trim();
    } catch {
      return "origin/HEAD";
    }
  }

  async #head(dir: string): Promise<string | undefined> {
    try {
      return (await this.#git(["rev-parse", "HEAD"], dir, undefined, "capture")).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  #npm(args: string[], deadline: number | undefined, cwd?: string): Promise<string> {
    const [command, ...lead] = this.options.npmCommand && this.options.npmCommand.length > 0 ? this.options.npmCommand : [process.platform === "win32" ? "npm.cmd" : "npm"];
    return this.#run(command!, [...lead, ...args], {
      env: this.options.env,
      output: this.options.output,
      ...(cwd ? { cwd } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
    });
  }

  #git(args: string[], cwd: string | undefined, deadline: number | undefined, output: CommandOutput = this.options.output): Promise<string> {
    return this.#run("git", args, { env: this.options.env, output, ...(cwd ? { cwd } : {}), ...(deadline !== undefined ? { deadline } : {}) });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

export type { GitSource, NpmSource };

/** `pi-subagents` with no folder of that name is most likely the npm package, which needs its prefix. */
function npmNameHint(raw: string): string {
  const named = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[^\s/]+)?$/i.test(raw) && !raw.startsWith(".");
  return named ? ` (for the npm package, write npm:${raw}; for a git repository, git:<host>/<owner>/<repo>)` : "";
}
