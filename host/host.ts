/**
 * One host for every entry point (the CLI, the in-process SDK, tests): settings read and
 * composed from the plugins that own them, plugins loaded, admitted, applied and booted, flags
 * parsed (again, once extensions have added theirs), the scheduler every transport submits to,
 * and teardown. It takes the plugin list as input, so the kernel still imports no plugin.
 */
import {
  createStderrLogger,
  ErrorCode,
  isTrustedProject,
  Kernel,
  KernelError,
  ProcessScope,
  projectSettingsPath,
  userSettingsPath,
  type CliOptions,
  type FlagSpec,
  type KernelConfig,
  type Logger,
  type PluginDefinition,
  type ShutdownReason,
  type SiblingOptions,
} from "../kernel/index.js";
import { resolve } from "node:path";
import { composeFlags, flagHelp, ignoredFlagsNotice, parseFlags, UnknownOptionError, unknownFlagKeys } from "./argv.js";
import { PluginLoader, type LoaderOptions } from "./loader.js";
import { HostRuntime } from "./runtime.js";
import { siblingHostOptions } from "./sibling.js";
import { Scheduler } from "./scheduler.js";
import { checkSettingsFile, composeSettings, readRawSettings, resolveSettings, unknownSettingsOf, type RawSettingsFile } from "./settings-files.js";
import { unknownSettings } from "./unknown-settings.js";

export interface HostOptions {
  cwd: string;
  agentDir: string;
  env?: NodeJS.ProcessEnv;
  /** Plugin definitions, or specs the loader resolves (built-in names, paths to .ts/.js). */
  plugins: readonly (PluginDefinition | string)[];
  /** How specs resolve (compiled built-ins, their folder, aliases for user code). */
  loader?: Omit<LoaderOptions, "baseDir">;
  /** Command-line arguments, parsed with the flags the plugins declare. */
  argv?: readonly string[];
  /** Options already known (an embedder's), laid over what argv gives. */
  cli?: Partial<CliOptions> & Record<string, unknown>;
  /** Flags given in code (the SDK's `flags`, also in `cli`): a key no flag has is warned about. */
  codeFlags?: Record<string, unknown>;
  /** Settings laid over the files (validated like them). */
  settings?: Record<string, unknown>;
  /** Read `<agent dir>/settings.json` and `.atomic/settings.json` (default true). */
  readSettingsFiles?: boolean;
  /** Also load the plugins listed in the user's settings (default true). */
  userPlugins?: boolean;
  log?: Logger;
  installDir?: string;
  applyTimeoutMs?: number;
  /**
   * The folder `--approve` was given for (the launch cwd): a sibling host for another folder
   * (ACP's `session/new`) is trusted only by the user's settings. Default: this host's `cwd`.
   */
  approvedFolder?: string;
  /** Whether the client can answer extension UI dialogs; default what the transport of the mode declares. */
  dialogs?: boolean;
  /**
   * What this host shares with others of the process (extension modules, MCP connections,
   * workers, file caches: see `k.shared`). Default: a scope of its own, which its siblings share.
   */
  scope?: ProcessScope;
}

/** Plugins loaded and flags parsed, nothing applied yet: enough for --help. */
export interface PreparedHost {
  readonly definitions: readonly PluginDefinition[];
  readonly flags: readonly FlagSpec[];
  readonly cli: CliOptions & Record<string, unknown>;
  helpText(): string;
  /** Validates settings, applies and boots every plugin, checks flags again; the host to serve with. */
  boot(): Promise<HostRuntime>;
}

export async function createHost(options: HostOptions): Promise<HostRuntime> {
  return (await prepareHost(options)).boot();
}

export async function prepareHost(options: HostOptions): Promise<PreparedHost> {
  const env = options.env ?? process.env;
  const scope = options.scope ?? new ProcessScope();
  const log = options.log ?? createStderrLogger();
  const read = options.readSettingsFiles !== false;
  const empty = (path: string): RawSettingsFile => ({ path, exists: false, value: {} });
  const userPath = userSettingsPath(options.agentDir);
  const projectPath = projectSettingsPath(options.cwd);
  const [userFile, projectFile] = read ? await Promise.all([readRawSettings(userPath), readRawSettings(projectPath)]) : [empty(userPath), empty(projectPath)];

  const specs = [...options.plugins];
  if (options.userPlugins !== false) specs.push(...userPluginSpecs(userFile));
  const definitions = await loadDefinitions(specs, options);
  const composedFlags = composeFlags(definitions);
  const flags = composedFlags.map((entry) => entry.flag);
  const argv = options.argv ?? [];
  const parsed = parseFlags(argv, flags);
  const cli = { ...parsed.values, ...options.cli, positionals: parsed.positionals } as CliOptions & Record<string, unknown>;

  return {
    definitions,
    flags,
    cli,
    helpText: () => flagHelp(flags).join("\n"),
    async boot() {
      const notice = ignoredFlagsNotice(cli);
      if (notice) log.warn(notice);
      const composed = composeSettings(definitions);
      // Trust from a valid user file only; an invalid one is reported below with the project's problems.
      const userSettings = checkSettingsFile(composed, userFile).value;
      // Trust given on the command line covers the folder it was given for, not the others a client opens later.
      const approved = cli.approve === true && resolve(options.approvedFolder ?? options.cwd) === resolve(options.cwd);
      const trusted = isTrustedProject(options.cwd, userSettings?.trustedProjects as string[] | undefined, approved, env);
      for (const unknown of unknownSettingsOf(composed, { user: userFile, project: projectFile })) log.warn(unknown);
      // Settings given in code (the SDK's `settings`) are checked as a file's are: a typo there is as silent.
      if (options.settings && cli.origin === "sdk")
        for (const unknown of unknownSettings(composed, { path: "createAgent's settings", exists: true, value: options.settings })) log.warn(unknown);
      const resolved = resolveSettings(composed, { user: userFile, project: projectFile }, { trusted, ...(options.settings ? { overrides: options.settings } : {}) });
      for (const note of resolved.notes) log.info(note);
      const config: KernelConfig = {
        agentDir: options.agentDir,
        cwd: options.cwd,
        settings: resolved.settings,
        cli,
        env,
        trusted,
        settingsSources: { sources: resolved.sources, userFile: userPath, projectFile: projectPath },
        settingsLayers: resolved.layers,
        ...(options.installDir ? { installDir: options.installDir } : {}),
      };
      const kernel = new Kernel({ config, log, flags: composedFlags, shared: scope.holder(), ...(options.applyTimeoutMs ? { applyTimeoutMs: options.applyTimeoutMs } : {}) });
      try {
        await kernel.use(definitions);
        // Transports are registered now: extensions (booting next) ask whether dialogs have a client.
        config.dialogs = options.dialogs ?? kernel.transports.get(cli.mode || config.settings.mode || "rpc")?.definition.dialogs === true;
        const lateFlags = () => [...flags, ...kernel.lateFlags.map((entry) => entry.flag)];
        // Values of flags extensions registered while loading, before the startup choices and
        // session_start read them (pi.getFlag in a session_start handler); still unknown: below.
        if (parsed.unknown.length > 0)
          kernel.hookRegistry.viewFor("host").boot_configure.tap({ name: "host", order: "pre" }, () => void Object.assign(cli, parseFlags(argv, lateFlags()).values, options.cli));
        await kernel.boot();
        if (parsed.unknown.length > 0) checkLateFlags(argv, lateFlags(), cli, options.cli);
        if (options.codeFlags) for (const unknown of unknownFlagKeys(options.codeFlags, lateFlags(), "createAgent's flags")) log.warn(unknown);
      } catch (error) {
        // A boot that fails gives back what it took of the shared scope (siblings keep theirs).
        await kernel.shared.releaseAll().catch(() => undefined);
        throw error;
      }
      const openSibling = (sibling: SiblingOptions) => prepareHost(siblingHostOptions({ ...options, scope }, definitions, sibling)).then((next) => next.boot());
      return new HostRuntime(kernel, new Scheduler(kernel.commands, log, () => kernel.events.drain()), openSibling);
    },
  };
}

/** Flags extensions registered while loading: re-parse argv with them; anything still unknown is a usage error. */
function checkLateFlags(argv: readonly string[], flags: readonly FlagSpec[], cli: Record<string, unknown>, given: HostOptions["cli"]): void {
  const reparsed = parseFlags(argv, flags);
  if (reparsed.unknown.length > 0) throw new UnknownOptionError(reparsed.unknown[0]!, flags);
  // Options the caller gave (an embedder's, a sibling's own) still win over argv.
  Object.assign(cli, reparsed.values, given, { positionals: reparsed.positionals });
}

function userPluginSpecs(file: RawSettingsFile): string[] {
  const plugins = file.value.plugins;
  if (plugins === undefined) return [];
  if (!Array.isArray(plugins) || plugins.some((entry) => typeof entry !== "string")) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Invalid settings file ${file.path}: Invalid plugins: expected array of strings`);
  }
  return plugins as string[];
}

async function loadDefinitions(specs: readonly (PluginDefinition | string)[], options: HostOptions): Promise<PluginDefinition[]> {
  if (specs.every((spec) => typeof spec !== "string")) return specs as PluginDefinition[];
  const loader = new PluginLoader({ builtinDir: options.loader?.builtinDir ?? options.cwd, baseDir: options.agentDir, ...(options.loader ?? {}) });
  return Promise.all(specs.map((spec) => (typeof spec === "string" ? loader.load(spec) : spec)));
}

export type { ShutdownReason };
