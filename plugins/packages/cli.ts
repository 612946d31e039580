/**
 * `atomic install|remove|list|update`: pi's package commands. They run without booting an agent:
 * installs go where startup looks (store.ts), the settings file gains or loses the entry, and the
 * registry client's own output goes to stderr so stdout carries only the summary. `-l` works on
 * the project's settings, which needs the project to be trusted (as at startup: `--approve` or
 * the user's trustedProjects).
 */
import { offlineVariable } from "../../lib/offline/index.js";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { localPackageProblem, packageResources } from "../../lib/packages/index.js";
import { parseSource, sourceIdentity, type PackageSource } from "../../lib/packages/source.js";
import type { PackageSetting } from "./api.js";
import {
  addPackage,
  entrySource,
  identityOf,
  packageEntries,
  projectTrusted,
  readSettings,
  removePackage,
  settingsPlace,
  sourceForSettings,
  type SettingsPlace,
  type SettingsScope,
} from "./settings-file.js";
import { filterOf } from "./configured.js";
import { PackageStore } from "./store.js";
import type { CliIo } from "../../lib/cli-io/index.js";

export type PackagesCliIo = Pick<CliIo, "agentDir" | "cwd" | "env" | "stdout" | "stderr">;

const USAGE = `Usage:
  atomic install <source> [-l]   install a package and add it to your settings (-l: the project's)
  atomic remove <source> [-l]    remove it from the settings and delete what was installed (alias: uninstall)
  atomic list                    the packages in your settings and the project's, and where they are installed
  atomic update [source]         update unpinned npm packages and git packages (all, or the one named)

Sources: npm:<name>[@version], git:<host>/<owner>/<repo>[@ref] (or an https://, ssh:// or file:// URL),
or a folder. --approve trusts the project for this command.
`;

class UsageError extends Error {}

export async function runPackagesCommand(argv: readonly string[], io: PackagesCliIo): Promise<number> {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((arg) => arg.startsWith("-")));
  const args = rest.filter((arg) => !arg.startsWith("-"));
  try {
    if (flags.has("--help") || flags.has("-h")) {
      io.stdout.write(USAGE);
      return 0;
    }
    const unknown = [...flags].filter((flag) => !["-l", "--local", "--approve", "-a", "--extensions"].includes(flag));
    if (unknown.length > 0) throw new UsageError(`Unknown option for atomic ${command}: ${unknown[0]}`);
    const local = flags.has("-l") || flags.has("--local");
    const approve = flags.has("--approve") || flags.has("-a");
    const context = new CommandContext(io, approve);
    if (command === "list") {
      if (args.length > 0) throw new UsageError(`atomic list takes no arguments (got "${args[0]}")`);
      return await context.list();
    }
    if (command === "update") {
      if (args.length > 1) throw new UsageError("atomic update takes at most one source");
      return await context.update(args[0]);
    }
    if (args.length !== 1) throw new UsageError(`atomic ${command} takes one source`);
    const scope: SettingsScope = local ? "project" : "user";
    if (command === "install") return await context.install(args[0]!, scope);
    return await context.remove(args[0]!, scope);
  } catch (error) {
    io.stderr.write(`atomic: ${(error as Error).message}\n${error instanceof UsageError ? USAGE : ""}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

class CommandContext {
  constructor(
    private readonly io: PackagesCliIo,
    private readonly approve: boolean,
  ) {}

  async install(raw: string, scope: SettingsScope): Promise<number> {
    const place = await this.#place(scope);
    const source = parseSource(raw, this.io.cwd, this.io.env);
    const store = await this.#store();
    // Said before, not after: by the time the install ends, the scripts have run.
    if (source.type !== "local") this.io.stderr.write(`atomic: ${scriptsNotice(raw, source.type)}\n`);
    await store.install(source, scope);
    const root = store.path(source, scope);
    const resources = await packageResources(root);
    for (const problem of resources.problems) this.io.stderr.write(`atomic: warning: ${problem}\n`);
    const written = sourceForSettings(raw, source, place);
    const replaced = await addPackage(place, written, sourceIdentity(source), this.io.env);
    const version = resources.version !== undefined ? ` ${resources.version}` : "";
    const ran = source.type === "local" ? [] : await lifecycleScripts(root, source.type);
    // npm's ignore-scripts (in an .npmrc) is the one way they did not run.
    const scripts =
      ran.length === 0
        ? ""
        : `; it has ${ran.length === 1 ? "a " : ""}${ran.map((name) => `"${name}"`).join(", ")} script${ran.length === 1 ? "" : "s"} (run by npm unless ignore-scripts is set)`;
    this.io.stdout.write(`Installed ${raw}${version} (${describe(resources)}) in ${root}${scripts}; ${replaced ? "updated" : "added"} "${written}" in ${place.file}\n`);
    if (resources.extensions.length + resources.skills.length + resources.prompts.length === 0) {
      this.io.stderr.write(`atomic: warning: ${raw} provides no extensions, skills or prompt templates (no pi manifest, no extensions/ skills/ prompts/ folders, no entry file)\n`);
    }
    return 0;
  }

  async remove(raw: string, scope: SettingsScope): Promise<number> {
    const place = await this.#place(scope);
    const source = parseSource(raw, this.io.cwd, this.io.env);
    const removed = await removePackage(place, sourceIdentity(source), this.io.env);
    if (removed.length === 0) {
      const configured = packageEntries(await readSettings(place.file), place.file).map(entrySource);
      throw new Error(`No package ${raw} in ${place.file}${configured.length > 0 ? ` (it has: ${configured.join(", ")})` : ""}`);
    }
    // The installed copy is the one that entry pointed at (a local folder is the user's own: left alone).
    const configured = parseSource(entrySource(removed[0]!), place.base, this.io.env);
    await (await this.#store()).remove(configured, scope);
    this.io.stdout.write(`Removed ${entrySource(removed[0]!)} from ${place.file}${configured.type === "local" ? "" : " and deleted its installed files"}\n`);
    return 0;
  }

  async list(): Promise<number> {
    const store = await this.#store();
    const trusted = await projectTrusted(this.io.agentDir, this.io.cwd, this.approve, this.io.env);
    const files = await Promise.all(
      (["user", "project"] as const).map(async (scope) => {
        const place = settingsPlace(scope, this.io.agentDir, this.io.cwd);
        return { scope, place, entries: packageEntries(await readSettings(place.file), place.file) };
      }),
    );
    const loaded = loadedEntries(files, trusted, this.io.env);
    const lines: string[] = [];
    for (const { scope, place, entries } of files) {
      if (entries.length === 0) continue;
      lines.push(
        `${scope === "user" ? "User" : "Project"} packages (${place.file})${scope === "project" && !trusted ? ": not loaded, the project is not trusted (--approve or trustedProjects)" : ""}:`,
      );
      const untrusted = scope === "project" && !trusted;
      for (const entry of entries) {
        const winner = loaded.get(identityOf(entry, place.base, this.io.env) ?? "");
        // An untrusted project's entries do not load at all (its heading says so): they neither shadow nor are shadowed.
        const shadowed = !untrusted && winner !== undefined && winner.entry !== entry;
        const where = winner?.scope === scope ? "above" : "in the project's settings";
        lines.push(
          shadowed
            ? `  ${entrySource(entry)}${typeof entry === "object" ? " [filtered]" : ""}: not loaded: the same package as ${entrySource(winner.entry)} ${where}, which loads`
            : `  ${await this.#describeEntry(entry, place, store, untrusted)}`,
        );
      }
    }
    this.io.stdout.write(lines.length === 0 ? "No packages configured. Add one with: atomic install npm:<name>\n" : `${lines.join("\n")}\n`);
    return 0;
  }

  async update(raw: string | undefined): Promise<number> {
    const offline = offlineVariable(this.io.env);
    if (offline) {
      this.io.stdout.write(`Skipped package updates (offline mode: ${offline} is set)\n`);
      return 0;
    }
    const store = await this.#store();
    const trusted = await projectTrusted(this.io.agentDir, this.io.cwd, this.approve, this.io.env);
    const wanted = raw === undefined ? undefined : sourceIdentity(parseSource(raw, this.io.cwd, this.io.env));
    let matched = 0;
    let failed = 0;
    for (const scope of trusted ? (["user", "project"] as const) : (["user"] as const)) {
      const place = settingsPlace(scope, this.io.agentDir, this.io.cwd);
      for (const entry of packageEntries(await readSettings(place.file), place.file)) {
        if (wanted !== undefined && identityOf(entry, place.base, this.io.env) !== wanted) continue;
        matched++;
        const label = `${entrySource(entry)}${scope === "project" ? " (project)" : ""}`;
        try {
          const source = parseSource(entrySource(entry), place.base, this.io.env);
          this.io.stdout.write(`${label}: ${await this.#updateOne(source, scope, store)}\n`);
        } catch (error) {
          failed++;
          this.io.stderr.write(`atomic: ${label}: ${(error as Error).message}\n`);
        }
      }
    }
    if (raw !== undefined && matched === 0) throw new Error(`No package ${raw} in your settings${trusted ? " or the project's" : ""}`);
    if (matched === 0) this.io.stdout.write("No packages configured.\n");
    return failed > 0 ? 1 : 0;
  }

  async #updateOne(source: PackageSource, scope: SettingsScope, store: PackageStore): Promise<string> {
    if (source.type === "local") return localNothingToUpdate(source.path);
    if (source.type === "npm" && source.pinned && (await store.installed(source, scope))) return `pinned to ${source.version}`;
    const { from, to } = await store.update(source, scope);
    const short = (value: string | undefined) => (value === undefined ? "(none)" : source.type === "git" ? value.slice(0, 7) : value);
    return from === to ? `up to date (${short(to)})` : `${short(from)} -> ${short(to)}`;
  }

  /** `untrusted`: a project's entry while the project is not trusted (startup neither installs nor loads it). */
  async #describeEntry(entry: PackageSetting, place: SettingsPlace, store: PackageStore, untrusted: boolean): Promise<string> {
    const raw = entrySource(entry);
    const filtered = typeof entry === "object" ? " [filtered]" : "";
    let source: PackageSource;
    try {
      source = parseSource(raw, place.base, this.io.env);
    } catch (error) {
      return `${raw}: ${(error as Error).message}`;
    }
    const path = store.path(source, place.scope);
    // A folder is used where it is: never installed, at startup or otherwise.
    if (source.type === "local" && !(await store.installed(source, place.scope))) return `${raw}${filtered}: missing (${path} does not exist)`;
    if (!(await store.installed(source, place.scope))) {
      if (untrusted) return `${raw}${filtered}: not installed (nor installed at startup while the project is not trusted)`;
      return `${raw}${filtered}: not installed (installed at the next start, or run atomic install ${raw}${place.scope === "project" ? " -l" : ""})`;
    }
    // What loads: the entry's filters narrow the package as at startup.
    const resources = await packageResources(path, typeof entry === "object" ? filterOf(entry) : undefined);
    return `${raw}${filtered}: ${path}${resources.version !== undefined ? ` (${resources.version})` : ""}, ${describe(resources)}`;
  }

  async #place(scope: SettingsScope): Promise<SettingsPlace> {
    if (scope === "project" && !(await projectTrusted(this.io.agentDir, this.io.cwd, this.approve, this.io.env))) {
      throw new Error(
        `The project ${this.io.cwd} is not trusted, so its packages are not installed or changed: pass --approve, or add the folder to trustedProjects in ${settingsPlace("user", this.io.agentDir, this.io.cwd).file}`,
      );
    }
    return settingsPlace(scope, this.io.agentDir, this.io.cwd);
  }

  async #store(): Promise<PackageStore> {
    const user = await readSettings(settingsPlace("user", this.io.agentDir, this.io.cwd).file);
    const npmCommand = Array.isArray(user.npmCommand) && user.npmCommand.every((part) => typeof part === "string") ? (user.npmCommand as string[]) : undefined;
    return new PackageStore({ agentDir: this.io.agentDir, cwd: this.io.cwd, env: this.io.env, output: "stderr", ...(npmCommand ? { npmCommand } : {}) });
  }
}

/** Per package identity, the entry startup loads: the first, a trusted project's before the user's (configured.ts). */
function loadedEntries(
  files: { scope: SettingsScope; place: SettingsPlace; entries: PackageSetting[] }[],
  trusted: boolean,
  env: NodeJS.ProcessEnv,
): Map<string, { entry: PackageSetting; scope: SettingsScope }> {
  const loaded = new Map<string, { entry: PackageSetting; scope: SettingsScope }>();
  const of = (scope: SettingsScope) => files.filter((file) => file.scope === scope);
  const order = [...(trusted ? of("project") : []), ...of("user")];
  for (const { scope, place, entries } of order) {
    for (const entry of entries) {
      const identity = identityOf(entry, place.base, env);
      if (identity !== undefined && !loaded.has(identity)) loaded.set(identity, { entry, scope });
    }
  }
  return loaded;
}

function describe(resources: { extensions: unknown[]; skills: unknown[]; prompts: unknown[] }): string {
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  return [count(resources.extensions.length, "extension"), count(resources.skills.length, "skill"), count(resources.prompts.length, "prompt template")].join(", ");
}

/** What installing runs, said before it runs (pi runs the same scripts; docs/packages.md, "Installing"). */
function scriptsNotice(raw: string, type: "npm" | "git"): string {
  const how = type === "npm" ? "npm install" : "npm install in the clone (when it declares dependencies)";
  return `installing ${raw} runs the lifecycle scripts (preinstall, install, postinstall${type === "git" ? ", prepare" : ""}) of the package and of its dependencies, with your permissions (${how}, as pi does): install only packages you trust`;
}

/** The package's own lifecycle scripts npm runs when installing it. */
async function lifecycleScripts(root: string, type: "npm" | "git"): Promise<string[]> {
  const hooks = type === "npm" ? ["preinstall", "install", "postinstall"] : ["preinstall", "install", "postinstall", "prepare"];
  try {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts?: Record<string, unknown>; dependencies?: object };
    // A clone runs npm only when it declares dependencies.
    if (type === "git" && Object.keys(pkg.dependencies ?? {}).length === 0) return [];
    const scripts = pkg.scripts ?? {};
    return hooks.filter((hook) => Object.hasOwn(scripts, hook) && typeof scripts[hook] === "string");
  } catch {
    return [];
  }
}

/** A local source is used where it is: what it is, or (thrown, a failed entry) why it cannot be used. */
async function localNothingToUpdate(path: string): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`missing (${path} does not exist): nothing to update`);
    throw error;
  });
  if (info.isDirectory()) return "a local folder, used where it is (nothing to update)";
  const problem = await localPackageProblem(path);
  if (problem !== undefined) throw new Error(problem);
  return "a local extension file, used where it is (nothing to update)";
}
