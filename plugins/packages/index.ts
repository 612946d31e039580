/**
 * Plugin `packages`: pi's packages (docs/packages.md). A package is a folder, an npm package or a
 * git repository that brings extensions, skills and prompt templates together. This plugin finds
 * the packages a process should load (`-e` package sources and folders, the user's `packages`
 * setting, a trusted project's), installs configured ones that are missing, and says what each
 * provides through the `packages` service; the extensions, skills and prompt-templates plugins
 * load those files like their own. `atomic install|remove|list|update` (cli.ts) edit the settings.
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import { isRemoteSource, parseSource } from "../../lib/packages/source.js";
import type { PackageResolution, PackagesApi } from "./api.js";
import { configuredPackages, PackageSettingSchema } from "./configured.js";
import { createInstaller } from "./installer.js";

export type * from "./api.js";

/**
 * Installs at startup share this much time: a generous limit that only stops an install that
 * hangs (an unreachable registry), never one a busy machine makes slow (what loads must not
 * depend on how busy the machine is).
 */
const STARTUP_INSTALL_LIMIT_MS = 600_000;

export default definePlugin({
  name: "packages",
  description: "pi packages (npm, git, folders): installed under the agent dir, resolved into extensions, skills and prompt templates.",
  provides: ["packages"],
  settings: {
    packages: defineSetting(PackageSettingSchema, {
      scope: "trusted",
      description: "Packages to load: npm:<name>[@version], git:<repository>[@ref], or a folder; or {source, extensions?, skills?, prompts?} to narrow what loads.",
    }),
    npmCommand: defineSetting(() => z.array(z.string().min(1)).min(1), {
      scope: "user",
      description: 'The npm packages are installed with, and its leading arguments (default ["npm"]); it is given npm\'s arguments.',
    }),
  },
  apply(k) {
    let resolution: Promise<PackageResolution> | undefined;
    const resolve = (): Promise<PackageResolution> =>
      (resolution ??= (async () => {
        const { config } = k;
        const cliSources: string[] = [];
        for (const entry of config.cli.extension ?? []) if (await isPackageEntry(entry, config.cwd, config.env)) cliSources.push(entry);
        const wanted = configuredPackages(config, cliSources);
        if (wanted.wanted.length === 0 && wanted.invalid.length === 0) return { packages: [], cliEntries: new Map(), failures: [] };
        // Only now the resolving and installing code (and its libraries) loads.
        const [{ resolveWanted }, { PackageStore }] = await Promise.all([import("./resolve.js"), import("./store.js")]);
        const store = new PackageStore({
          agentDir: config.agentDir,
          cwd: config.cwd,
          env: config.env,
          output: "capture",
          ...(config.settings.npmCommand ? { npmCommand: config.settings.npmCommand } : {}),
        });
        const result = await resolveWanted(wanted, new Map(), {
          store,
          deadline: Date.now() + STARTUP_INSTALL_LIMIT_MS,
          warn: (message) => k.log.warn(message),
        });
        for (const failure of result.failures) k.reportError({ source: failure.source, hook: "install", error: failure.error });
        return result;
      })());
    const api: PackagesApi = { resolve, installer: createInstaller };
    k.provide("packages", api);
    // Before extensions load: installs run here, under this plugin's own boot time.
    k.hooks.boot_load.tapPromise({ name: k.name, before: "extensions" }, async () => {
      await resolve();
    });
  },
});

/** A package source, or a folder (a package or a folder of extensions); a file is an extension of its own. */
async function isPackageEntry(entry: string, cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (isRemoteSource(entry.trim())) return true;
  try {
    const source = parseSource(entry, cwd, env);
    return source.type === "local" && (await stat(source.path)).isDirectory();
  } catch {
    return false;
  }
}
