/**
 * pi's `DefaultResourceLoader` and `loadProjectContextFiles` for extensions: what a pi session
 * would load for a folder, read as pi reads it (Atomic's places: `<agent dir>/...` and the
 * project's `.atomic/...`). Skills, prompt templates, context files (AGENTS.md, CLAUDE.md), the
 * SYSTEM.md / APPEND_SYSTEM.md prompts, and extensions loaded into an unbound runtime
 * (extension-runtime.ts). Themes are a terminal's: there are none.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ExtensionFactory } from "../types/api.js";
import { discoverExtensions } from "../discover.js";
import { createExtensionRuntime, emptyExtension, type FactoryImporter, loadRecorded, type LoadExtensionsResult, recordFactory } from "./extension-runtime.js";
import type { SettingsManager } from "./settings-manager.js";
import { loadPromptTemplates, type PromptTemplate, type TemplateScope } from "./prompt-template-files.js";
import { loadSkills, type ResourceDiagnostic, type Skill } from "./skills.js";
import { createEventBus, type EventBus } from "./text.js";

export type { PromptTemplate } from "./prompt-template-files.js";

type ContextFile = { path: string; content: string };
type InlineExtension = ExtensionFactory | { name: string; factory: ExtensionFactory; hidden?: boolean };

/** A list setting through its pi getter (made from a table: see settings-manager.ts). */
const listSetting = (settings: SettingsManager | undefined, getter: string): string[] | undefined =>
  (settings as unknown as Record<string, (() => string[]) | undefined> | undefined)?.[getter]?.();
const CONTEXT_NAMES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];
const readText = (path: string) => readFileSync(path, "utf8").replace(/^\uFEFF/, "");

function contextFileIn(dir: string): ContextFile | undefined {
  for (const name of CONTEXT_NAMES) {
    const path = join(dir, name);
    try {
      if (statSync(path).isFile()) return { path, content: readText(path) };
    } catch {}
  }
  return undefined;
}

/** The agent dir's context file, then each folder's from the filesystem root down to `cwd`. */
export function loadProjectContextFiles(options: { cwd: string; agentDir: string }): ContextFile[] {
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const global = contextFileIn(resolve(options.agentDir));
  if (global) {
    files.push(global);
    seen.add(global.path);
  }
  const ancestors: ContextFile[] = [];
  for (let dir = resolve(options.cwd); ; dir = dirname(dir)) {
    const found = contextFileIn(dir);
    if (found && !seen.has(found.path)) {
      ancestors.unshift(found);
      seen.add(found.path);
    }
    if (dirname(dir) === dir) break;
  }
  return [...files, ...ancestors];
}

/** A prompt given as a file path is the file's text; anything else is the text itself. */
function promptText(input: string | undefined): string | undefined {
  if (!input) return undefined;
  try {
    if (existsSync(input)) return readText(input);
  } catch {}
  return input;
}

export interface DefaultResourceLoaderOptions {
  cwd: string;
  agentDir: string;
  settingsManager?: SettingsManager;
  eventBus?: EventBus;
  additionalExtensionPaths?: string[];
  additionalSkillPaths?: string[];
  additionalPromptTemplatePaths?: string[];
  additionalThemePaths?: string[];
  extensionFactories?: InlineExtension[];
  noExtensions?: boolean;
  noSkills?: boolean;
  noPromptTemplates?: boolean;
  noThemes?: boolean;
  noContextFiles?: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  extensionsOverride?: (base: LoadExtensionsResult) => LoadExtensionsResult;
  skillsOverride?: (base: { skills: Skill[]; diagnostics: ResourceDiagnostic[] }) => { skills: Skill[]; diagnostics: ResourceDiagnostic[] };
  promptsOverride?: (base: { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] }) => { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] };
  themesOverride?: (base: { themes: unknown[]; diagnostics: ResourceDiagnostic[] }) => { themes: unknown[]; diagnostics: ResourceDiagnostic[] };
  agentsFilesOverride?: (base: { agentsFiles: ContextFile[] }) => { agentsFiles: ContextFile[] };
  systemPromptOverride?: (base: string | undefined) => string | undefined;
  appendSystemPromptOverride?: (base: string[]) => string[];
}

export class DefaultResourceLoader {
  /** How extension files are imported: the agent's loader (set per agent in modules.ts). */
  static importFactory: FactoryImporter = async (path) => ({ error: `Cannot load extension ${path}: no extension loader` });

  readonly #options: DefaultResourceLoaderOptions;
  readonly #events: EventBus;
  #extensions: LoadExtensionsResult = { extensions: [], errors: [], runtime: createExtensionRuntime() };
  #skills: { skills: Skill[]; diagnostics: ResourceDiagnostic[] } = { skills: [], diagnostics: [] };
  #prompts: { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } = { prompts: [], diagnostics: [] };
  #themes: { themes: unknown[]; diagnostics: ResourceDiagnostic[] } = { themes: [], diagnostics: [] };
  #agentsFiles: { agentsFiles: ContextFile[] } = { agentsFiles: [] };
  #systemPrompt: string | undefined;
  #systemPromptSource: { path: string } | undefined;
  #appendSystemPrompt: string[] = [];
  #appendSources: { path: string }[] = [];
  readonly #extraSkills: string[] = [];
  readonly #extraPrompts: string[] = [];

  constructor(options: DefaultResourceLoaderOptions) {
    this.#options = { ...options, cwd: resolve(options.cwd), agentDir: resolve(options.agentDir) };
    this.#events = options.eventBus ?? createEventBus();
  }

  getExtensions(): LoadExtensionsResult {
    return this.#extensions;
  }
  getSkills() {
    return this.#skills;
  }
  getPrompts() {
    return this.#prompts;
  }
  getThemes() {
    return this.#themes;
  }
  getAgentsFiles() {
    return this.#agentsFiles;
  }
  getSystemPrompt(): string | undefined {
    return this.#systemPrompt;
  }
  getSystemPromptSource(): { path: string } | undefined {
    return this.#systemPromptSource;
  }
  getAppendSystemPrompt(): string[] {
    return [...this.#appendSystemPrompt];
  }
  getAppendSystemPromptSources(): { path: string }[] {
    return [...this.#appendSources];
  }
  extendResources(paths: { skillPaths?: { path: string }[]; promptPaths?: { path: string }[] }): void {
    this.#extraSkills.push(...(paths.skillPaths ?? []).map((entry) => entry.path));
    this.#extraPrompts.push(...(paths.promptPaths ?? []).map((entry) => entry.path));
  }

  async reload(): Promise<void> {
    const options = this.#options;
    const { cwd, agentDir } = options;
    const settings = options.settingsManager;
    const trusted = settings?.isProjectTrusted() ?? true;
    this.#extensions =
      options.noExtensions && !options.extensionFactories?.length ? { extensions: [], errors: [], runtime: createExtensionRuntime() } : await this.#loadExtensions(trusted);
    if (options.extensionsOverride) this.#extensions = options.extensionsOverride(this.#extensions);
    const skills = options.noSkills
      ? { skills: [], diagnostics: [] }
      : loadSkills({
          cwd,
          agentDir,
          skillPaths: [...(listSetting(settings, "getSkillPaths") ?? []), ...(options.additionalSkillPaths ?? []), ...this.#extraSkills],
          includeDefaults: true,
        });
    this.#skills = options.skillsOverride ? options.skillsOverride(skills) : skills;
    const prompts = options.noPromptTemplates ? { prompts: [], diagnostics: [] } : this.#loadPrompts(trusted);
    this.#prompts = options.promptsOverride ? options.promptsOverride(prompts) : prompts;
    const themes = { themes: [], diagnostics: [] };
    this.#themes = options.themesOverride ? options.themesOverride(themes) : themes;
    const agentsFiles = { agentsFiles: options.noContextFiles ? [] : loadProjectContextFiles({ cwd, agentDir }) };
    this.#agentsFiles = options.agentsFilesOverride ? options.agentsFilesOverride(agentsFiles) : agentsFiles;
    const systemFile = this.#promptFile("SYSTEM.md", trusted);
    this.#systemPromptSource = options.systemPrompt === undefined && systemFile ? { path: systemFile } : undefined;
    const system = promptText(options.systemPrompt ?? systemFile);
    this.#systemPrompt = options.systemPromptOverride ? options.systemPromptOverride(system) : system;
    const appendFile = this.#promptFile("APPEND_SYSTEM.md", trusted);
    const appended = options.appendSystemPrompt ?? (appendFile ? [appendFile] : []);
    this.#appendSources = options.appendSystemPrompt === undefined && appendFile ? [{ path: appendFile }] : [];
    const append = appended.map((entry) => promptText(entry) ?? "").filter(Boolean);
    this.#appendSystemPrompt = options.appendSystemPromptOverride ? options.appendSystemPromptOverride(append) : append;
  }

  async #loadExtensions(trusted: boolean): Promise<LoadExtensionsResult> {
    const { cwd, agentDir, settingsManager } = this.#options;
    const found = this.#options.noExtensions
      ? { sources: [], project: [], missing: [], problems: [] }
      : await discoverExtensions({
          cwd,
          agentDir,
          cliPaths: this.#options.additionalExtensionPaths ?? [],
          settingsPaths: listSetting(settingsManager, "getExtensionPaths") ?? [],
          discover: true,
        });
    const paths = [...found.sources, ...(trusted ? found.project : [])].map((source) => source.path);
    const result = await loadRecorded(paths, (this.constructor as typeof DefaultResourceLoader).importFactory, this.#events);
    for (const missing of found.missing) result.errors.push({ path: missing.path, error: `Extension not found: ${missing.path}` });
    for (const problem of found.problems) result.errors.push(problem);
    for (const [index, inline] of (this.#options.extensionFactories ?? []).entries()) {
      const { name, factory } = typeof inline === "function" ? { name: `${index}`, factory: inline } : inline;
      const extension = emptyExtension(`<inline:${name}>`, `<inline:${name}>`, "inline");
      const error = await recordFactory(extension, factory, result.runtime, this.#events);
      if (error === undefined) result.extensions.push(extension);
      else result.errors.push({ path: extension.path, error });
    }
    return result;
  }

  #loadPrompts(trusted: boolean): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
    const { cwd, agentDir, settingsManager } = this.#options;
    const sources: [string, TemplateScope][] = [
      [join(agentDir, "prompts"), "user"],
      ...(trusted ? [[join(cwd, ".atomic", "prompts"), "project"] as [string, "project"]] : []),
      ...[...(listSetting(settingsManager, "getPromptTemplatePaths") ?? []), ...(this.#options.additionalPromptTemplatePaths ?? []), ...this.#extraPrompts].map(
        (path) => [resolve(cwd, path), "temporary"] as [string, "temporary"],
      ),
    ];
    return loadPromptTemplates(sources);
  }

  #promptFile(name: string, trusted: boolean): string | undefined {
    const project = join(this.#options.cwd, ".atomic", name);
    if (trusted && existsSync(project)) return project;
    const global = join(this.#options.agentDir, name);
    return existsSync(global) ? global : undefined;
  }
}

/** pi's discovery and load in one call: `configuredPaths`, the agent dir's and the project's extension folders. */
export async function discoverAndLoadExtensionsWith(
  importFactory: FactoryImporter,
  configuredPaths: string[],
  cwd: string,
  agentDir: string,
  eventBus?: EventBus,
): Promise<LoadExtensionsResult> {
  const found = await discoverExtensions({ cwd: resolve(cwd), agentDir: resolve(agentDir), cliPaths: configuredPaths, settingsPaths: [], discover: true });
  const result = await loadRecorded(
    [...found.sources, ...found.project].map((source) => source.path),
    importFactory,
    eventBus,
  );
  for (const missing of found.missing) result.errors.push({ path: missing.path, error: `Extension not found: ${missing.path}` });
  return result;
}
