/** pi's package manager types, as `DefaultPackageManager` (package-manager.ts) takes and answers them. */
import type { PackageSetting } from "../../packages/api.js";

type Scope = "user" | "project";
export type MissingSourceAction = "install" | "skip" | "error";
export interface ProgressEvent {
  type: "start" | "progress" | "complete" | "error" | "result";
  action: "install" | "remove" | "update" | "clone" | "pull";
  source: string;
  message?: string;
}
export type ProgressCallback = (event: ProgressEvent) => void;
export interface ConfiguredPackage {
  source: string;
  scope: Scope;
  filtered: boolean;
  installedPath?: string;
}

/** What the manager needs of pi's SettingsManager (Atomic's has it). */
export interface PackageSettings {
  getGlobalSettings(): { packages?: PackageSetting[] } & Record<string, unknown>;
  getProjectSettings(): { packages?: PackageSetting[] } & Record<string, unknown>;
  setPackages(packages: PackageSetting[]): void;
  setProjectPackages(packages: PackageSetting[]): void;
  isProjectTrusted?(): boolean;
  getNpmCommand?(): string[] | undefined;
}

export interface PackageManagerOptions {
  cwd: string;
  agentDir: string;
  /** Atomic's SettingsManager (its list setters are made at load, so its type does not show them). */
  settingsManager: PackageSettings | import("./settings-manager.js").SettingsManager;
  commandOutput?: "inherit" | "capture";
  /** pi's built-in extensions (`builtin:<name>`): Atomic has none, so naming one is an error. */
  builtinExtensions?: string[];
}
