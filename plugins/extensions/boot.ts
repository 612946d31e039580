/**
 * Extensions at boot (after every plugin applied, so built-in tools exist to be overridden, and
 * before the startup model is chosen and `session_start` fires): discovery, and only when it
 * finds something, the loading machinery (a separate chunk: a process without extensions never
 * loads it, nor jiti).
 */
import { ErrorCode, KernelError, type PluginContext } from "../../kernel/index.js";
import type {} from "../packages/api.js";
import type { ExtensionsHooks } from "./hooks.js";
import { discoverExtensions, type PackageExtensions } from "./discover.js";
import type { ExtensionHost } from "./host.js";
import type { UiBridge } from "./ui-bridge.js";

export async function bootExtensions(k: PluginContext, owned: ExtensionsHooks, bridge: UiBridge | undefined): Promise<ExtensionHost | undefined> {
  const { cwd, agentDir, cli, settings } = k.config;
  const packages = await packageExtensions(k);
  const found = await discoverExtensions({
    cwd,
    agentDir,
    cliPaths: cli.extension ?? [],
    settingsPaths: settings.extensions ?? [],
    discover: cli.noExtensions !== true,
    ...(packages ? { packages } : {}),
  });
  for (const { path } of found.missing) {
    const error = `Extension not found: ${path}`;
    k.reportError({ source: path, hook: "load", error });
  }
  for (const { path, error } of found.problems) k.reportError({ source: path, hook: "load", error });
  // pi 1.6 refuses to start on an `-e` folder it can load nothing from: the user named it to be used.
  if (found.empty.length > 0) {
    const folders = found.empty.map((path) => `${path} (no package.json "pi"/"atomic" extensions, no index.ts/index.js, no extension file)`);
    throw new KernelError(ErrorCode.INVALID_INPUT, `Nothing to load from -e ${folders.join(", ")}`);
  }
  if (found.sources.length === 0 && found.project.length === 0) return undefined;
  const { loadFound } = await import("./load-all.js");
  const seconds = settings.extensionLoadTimeout;
  return loadFound(k, owned, found, seconds === undefined ? undefined : seconds * 1000, bridge);
}

/** What the packages plugin resolved (when it is loaded): extension files per `-e` entry, the user's, the trusted project's. */
async function packageExtensions(k: PluginContext): Promise<PackageExtensions | undefined> {
  const resolution = await k.maybeService("packages")?.resolve();
  if (!resolution) return undefined;
  const of = (scope: "user" | "project") => resolution.packages.filter((pkg) => pkg.scope === scope).flatMap((pkg) => pkg.extensions);
  return { cliEntries: resolution.cliEntries, user: of("user"), project: of("project") };
}
