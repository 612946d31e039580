/**
 * pi's `SettingsManager` for extensions: the user's settings (`<agent dir>/settings.json`) with
 * a trusted project's (`.atomic/settings.json`) laid over them, objects merged key by key, read
 * through pi's getters with pi's defaults, and written through its setters (to the user's file;
 * `setProject*` to the project's). Every getter and setter pi 1.6 has exists; those for terminal
 * settings read and store the value like the others (a client may show them).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deepMerge } from "../../../kernel/index.js";
import { parseJsonc } from "../../../lib/jsonc/index.js";
import { updateSettingsFile } from "./settings-file-sync.js";
import { DEFAULTS, LISTS, PLAIN, read, type Settings, write } from "./settings-table.js";

function loadFile(path: string | undefined, errors: { scope: string; error: Error }[], scope: string): Settings {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  try {
    // As Atomic's startup reads it (`//` comments, trailing commas), so both see one file alike.
    const value = parseJsonc(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Settings) : {};
  } catch (error) {
    errors.push({ scope, error: error instanceof Error ? error : new Error(String(error)) });
    return {};
  }
}

export interface SettingsManagerCreateOptions {
  projectTrusted?: boolean;
}

export class SettingsManager {
  #global: Settings;
  #project: Settings;
  #merged: Settings = {};
  #overrides: Settings = {};
  readonly #paths: { global?: string; project?: string };
  #trusted: boolean;
  readonly #errors: { scope: string; error: Error }[];

  constructor(global: Settings, project: Settings, paths: { global?: string; project?: string }, trusted: boolean, errors: { scope: string; error: Error }[] = []) {
    this.#global = global;
    this.#project = project;
    this.#paths = paths;
    this.#trusted = trusted;
    this.#errors = errors;
    this.#merge();
  }

  /** The user's file in `agentDir`, the project's in `<cwd>/.atomic/` (read only when trusted, the default as in pi). */
  static create(cwd: string, agentDir: string, options: SettingsManagerCreateOptions = {}): SettingsManager {
    const paths = { global: join(resolve(agentDir), "settings.json"), project: join(resolve(cwd), ".atomic", "settings.json") };
    const errors: { scope: string; error: Error }[] = [];
    const trusted = options.projectTrusted ?? true;
    return new SettingsManager(loadFile(paths.global, errors, "global"), trusted ? loadFile(paths.project, errors, "project") : {}, paths, trusted, errors);
  }

  static inMemory(settings: Settings = {}, options: SettingsManagerCreateOptions = {}): SettingsManager {
    return new SettingsManager(structuredClone(settings), {}, {}, options.projectTrusted ?? true);
  }

  getSettings(): Settings {
    return structuredClone(this.#merged);
  }
  getGlobalSettings(): Settings {
    return structuredClone(this.#global);
  }
  getProjectSettings(): Settings {
    return structuredClone(this.#project);
  }
  isProjectTrusted(): boolean {
    return this.#trusted;
  }
  setProjectTrusted(trusted: boolean): void {
    if (this.#trusted === trusted) return;
    this.#trusted = trusted;
    this.#project = trusted ? loadFile(this.#paths.project, this.#errors, "project") : {};
    this.#merge();
  }
  async reload(): Promise<void> {
    this.#global = loadFile(this.#paths.global, this.#errors, "global");
    this.#project = this.#trusted ? loadFile(this.#paths.project, this.#errors, "project") : {};
    this.#merge();
  }
  /** Values laid over both files for this process (never written). */
  applyOverrides(overrides: Settings): void {
    this.#overrides = deepMerge(this.#overrides, overrides);
    this.#merge();
  }
  /** Writes are synchronous: nothing is pending. */
  async flush(): Promise<void> {}
  drainErrors(): { scope: string; error: Error }[] {
    return this.#errors.splice(0);
  }

  getSessionDir(): string | undefined {
    return this.#merged.sessionDir;
  }
  getThemeSetting(): string | undefined {
    return typeof this.#merged.theme === "string" ? this.#merged.theme : undefined;
  }
  getTheme(): string | undefined {
    const theme = this.getThemeSetting();
    return theme?.includes("/") ? undefined : theme;
  }
  setTheme(theme: string): void {
    this.#set("theme", theme);
  }
  setDefaultModelAndProvider(provider: string, modelId: string): void {
    this.#change("global", (settings) => {
      write(settings, "defaultProvider", provider);
      write(settings, "defaultModel", modelId);
    });
  }
  getExtensionChangelogVersion(key: string): string | undefined {
    return this.#merged.extensionChangelogVersions?.[key];
  }
  setExtensionChangelogVersion(key: string, version: string): void {
    this.#change("global", (settings) => write(settings, "extensionChangelogVersions", { ...(settings.extensionChangelogVersions ?? {}), [key]: version }));
  }
  getModelThinkingLevel(provider: string, modelId: string): string | undefined {
    return this.#merged.modelThinkingLevels?.[`${provider}/${modelId}`];
  }
  getAllModelThinkingLevels(): Record<string, string> {
    return { ...(this.#merged.modelThinkingLevels ?? {}) };
  }
  setModelThinkingLevel(provider: string, modelId: string, level: string): void {
    this.#change("global", (settings) => write(settings, "modelThinkingLevels", { ...(settings.modelThinkingLevels ?? {}), [`${provider}/${modelId}`]: level }));
  }
  removeModelThinkingLevel(provider: string, modelId: string): void {
    this.#change("global", (settings) => {
      const { [`${provider}/${modelId}`]: _removed, ...rest } = settings.modelThinkingLevels ?? {};
      write(settings, "modelThinkingLevels", rest);
    });
  }
  getCompactionReserveTokens(_model?: unknown): number {
    return this.#get("compaction.reserveTokens") as number;
  }
  getCompactionKeepRecentTokens(_model?: unknown): number {
    return this.#get("compaction.keepRecentTokens") as number;
  }
  getCompactionSettings(model?: unknown): { enabled: boolean; reserveTokens: number; keepRecentTokens: number } {
    return {
      enabled: this.#get("compaction.enabled") as boolean,
      reserveTokens: this.getCompactionReserveTokens(model),
      keepRecentTokens: this.getCompactionKeepRecentTokens(model),
    };
  }
  getBranchSummarySettings(): { reserveTokens: number; skipPrompt: boolean } {
    return { reserveTokens: this.#get("branchSummary.reserveTokens") as number, skipPrompt: this.#get("branchSummary.skipPrompt") as boolean };
  }
  getBranchSummarySkipPrompt(): boolean {
    return this.#get("branchSummary.skipPrompt") as boolean;
  }
  getRetrySettings(): Record<string, unknown> {
    return {
      enabled: this.#get("retry.enabled"),
      maxRetries: this.#get("retry.maxRetries"),
      baseDelayMs: this.#get("retry.baseDelayMs"),
      maxAgentDelayMs: this.#get("retry.maxAgentDelayMs"),
    };
  }
  getProviderRetrySettings(): Record<string, unknown> {
    return { timeoutMs: this.#get("retry.provider.timeoutMs"), maxRetries: this.#get("retry.provider.maxRetries"), maxRetryDelayMs: this.#get("retry.provider.maxRetryDelayMs") };
  }
  getWebSocketConnectTimeoutMs(): number | undefined {
    return this.#merged.websocketConnectTimeoutMs;
  }
  getExternalEditorCommand(): string {
    const configured = this.#merged.externalEditor;
    return typeof configured === "string" && configured.trim() !== "" ? configured : process.env.VISUAL || process.env.EDITOR || "vi";
  }
  getNpmCommand(): string[] | undefined {
    return this.#merged.npmCommand ? [...this.#merged.npmCommand] : undefined;
  }
  setNpmCommand(command: string[] | undefined): void {
    this.#set("npmCommand", command ? [...command] : undefined);
  }
  getEnableAnalytics(): boolean {
    return this.#get("enableAnalytics") as boolean;
  }
  setEnableAnalytics(enabled: boolean): void {
    this.#change("global", (settings) => {
      if (enabled && !settings.trackingId) write(settings, "trackingId", randomUUID());
      write(settings, "enableAnalytics", enabled);
    });
  }
  getTrackingId(): string | undefined {
    return this.#merged.trackingId;
  }
  getOrCreateDeviceId(): string {
    if (!this.#global.deviceId) this.#change("global", (settings) => write(settings, "deviceId", settings.deviceId ?? randomUUID()));
    return this.#global.deviceId;
  }
  getThinkingBudgets(): Record<string, number> | undefined {
    return this.#merged.thinkingBudgets;
  }
  getTerminalCapabilityOverrides(): Record<string, unknown> {
    return { ...(this.#merged.terminal?.images !== undefined ? { images: this.#merged.terminal.images || null } : {}) };
  }
  getDefaultTools(): string[] | undefined {
    const tools = this.#merged.defaultTools;
    return tools === undefined ? undefined : Array.isArray(tools) ? tools.filter((tool: unknown) => typeof tool === "string") : [];
  }
  getCodeBlockIndent(): string {
    return this.#get("markdown.codeBlockIndent") as string;
  }
  getWarnings(): Record<string, unknown> {
    return { ...(this.#merged.warnings ?? {}) };
  }
  setWarnings(warnings: Record<string, unknown>): void {
    this.#set("warnings", { ...warnings });
  }

  #get(path: string): unknown {
    return read(this.#merged, path) ?? (DEFAULTS as Record<string, unknown>)[path];
  }

  #merge(): void {
    this.#merged = deepMerge(deepMerge(structuredClone(this.#global), structuredClone(this.#project)), this.#overrides);
  }

  /**
   * Sets a key in the user's file (`project`: the project's) and writes it. The change is made to
   * the file as it is now, not to this manager's copy from its start: Atomic itself writes the
   * same file (a model or thinking level chosen, a package installed) while an extension runs.
   */
  #set(path: string, value: unknown, scope: "global" | "project" = "global"): void {
    this.#change(scope, (settings) => write(settings, path, value));
  }

  #change(scope: "global" | "project", change: (settings: Settings) => void): void {
    const file = this.#paths[scope];
    let settings: Settings;
    if (file) {
      settings = updateSettingsFile(file, (current) => {
        change(current);
        return current;
      });
    } else {
      settings = scope === "global" ? this.#global : this.#project;
      change(settings);
    }
    if (scope === "global") this.#global = settings;
    else this.#project = settings;
    this.#merge();
  }

  static {
    const proto = SettingsManager.prototype as unknown as Record<string, unknown>;
    for (const [name, path] of PLAIN) {
      proto[`get${name}`] ??= function (this: SettingsManager) {
        return this.#get(path);
      };
      proto[`set${name}`] ??= function (this: SettingsManager, value: unknown) {
        this.#set(path, value);
      };
    }
    for (const [name, path] of LISTS) {
      proto[`get${name}`] = function (this: SettingsManager) {
        return [...((this.#merged[path] as unknown[] | undefined) ?? [])];
      };
      proto[`set${name}`] = function (this: SettingsManager, value: unknown[]) {
        this.#set(path, value);
      };
      proto[`setProject${name}`] = function (this: SettingsManager, value: unknown[]) {
        this.#set(path, value, "project");
      };
    }
  }
}
