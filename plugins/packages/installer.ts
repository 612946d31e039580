/**
 * The `packages` service's installer: the package store behind a small interface, loaded (with
 * the npm and git runners) on its first install, so asking where a package goes costs nothing.
 */
import type { PackageInstaller, PackageInstallerOptions } from "./api.js";
import { installPath } from "./install-paths.js";
import type { PackageStore } from "./store.js";

export function createInstaller(options: PackageInstallerOptions): PackageInstaller {
  let store: Promise<PackageStore> | undefined;
  const open = () =>
    (store ??= import("./store.js").then(
      ({ PackageStore }) =>
        new PackageStore({
          agentDir: options.agentDir,
          cwd: options.cwd,
          env: options.env ?? process.env,
          output: options.output ?? "stderr",
          ...(options.npmCommand && options.npmCommand.length > 0 ? { npmCommand: options.npmCommand } : {}),
        }),
    ));
  return {
    path: (source, scope) => installPath(options, source, scope),
    installed: async (source, scope) => (await open()).installed(source, scope),
    install: async (source, scope) => (await open()).install(source, scope),
    remove: async (source, scope) => (await open()).remove(source, scope),
    update: async (source, scope) => (await open()).update(source, scope),
  };
}
