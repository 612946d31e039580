/**
 * pi's `createAgentSession` options as `atomic-agent/sdk`'s `createAgent` options. What has an
 * Atomic equivalent is mapped (the model, its thinking level, the tool selection, the session
 * file or folder, settings); what has none is refused with the Atomic way, never dropped.
 */
import { existsSync, statSync } from "node:fs";
import type { CreateAgentOptions } from "../../../sdk/index.js";

interface ModelLike {
  provider: string;
  id: string;
}

/** What a pi SessionManager tells about where its session lives (Atomic's has these). */
interface SessionManagerLike {
  isPersisted(): boolean;
  getSessionFile(): string | undefined;
  getSessionDir(): string;
  usesDefaultSessionDir?(): boolean;
}

export interface CreateAgentSessionOptions {
  cwd?: string;
  agentDir?: string;
  /** A view of the running agent's catalog (Atomic's ModelRuntime): the second agent reads the same agent dir. */
  modelRuntime?: unknown;
  model?: ModelLike;
  thinkingLevel?: string;
  scopedModels?: { model: ModelLike; thinkingLevel?: string }[];
  noTools?: "all" | "builtin";
  tools?: string[];
  excludeTools?: string[];
  customTools?: unknown[];
  resourceLoader?: unknown;
  sessionManager?: SessionManagerLike;
  /** Its settings (both files merged, with overrides) are the second agent's; the files are not read again. */
  settingsManager?: { getSettings(): Record<string, unknown> };
  sessionStartEvent?: unknown;
}

const refuse = (option: string, instead: string) => new Error(`createAgentSession({ ${option} }) is not supported in Atomic: ${instead}`);

/** `createAgent`'s options, plus the thinking level to set once it runs. */
export function agentOptions(options: CreateAgentSessionOptions, defaults: { cwd: string; agentDir: string }): { create: CreateAgentOptions; existingFile?: string } {
  if (options.customTools && options.customTools.length > 0) {
    throw refuse("customTools", "register the tools from an extension the new session loads (the settings' `extensions`, or <agent dir>/extensions)");
  }
  if (options.resourceLoader !== undefined) {
    throw refuse(
      "resourceLoader",
      "the new session finds extensions, skills and prompts as the CLI does (settings files, <agent dir>, the project's .atomic/); pass a settingsManager to change them",
    );
  }
  const cwd = options.cwd ?? defaults.cwd;
  const create: CreateAgentOptions = { cwd, agentDir: options.agentDir ?? defaults.agentDir };
  const flags: Record<string, unknown> = {};
  if (options.model) create.model = `${options.model.provider}/${options.model.id}`;
  if (options.thinkingLevel) flags.thinking = options.thinkingLevel;
  if (options.tools) flags.tools = options.tools.join(",");
  if (options.excludeTools) flags.excludeTools = options.excludeTools.join(",");
  if (options.noTools === "all") flags.noTools = true;
  else if (options.noTools === "builtin") flags.noBuiltinTools = true;
  const settings: Record<string, unknown> = options.settingsManager ? options.settingsManager.getSettings() : {};
  if (options.settingsManager) create.settingsFiles = false;
  if (options.scopedModels) settings.enabledModels = options.scopedModels.map(({ model }) => `${model.provider}/${model.id}`);
  if (Object.keys(settings).length > 0) create.settings = settings;
  let existingFile: string | undefined;
  const manager = options.sessionManager;
  if (manager) {
    if (!manager.isPersisted()) create.session = false;
    else {
      if (manager.usesDefaultSessionDir?.() === false) create.session = { dir: manager.getSessionDir() };
      // A file already written (open, continueRecent) is resumed; a new one is Atomic's to name.
      const file = manager.getSessionFile();
      if (file !== undefined && existsFile(file)) existingFile = file;
    }
  }
  if (existingFile) flags.session = existingFile;
  if (Object.keys(flags).length > 0) create.flags = flags;
  return { create, ...(existingFile ? { existingFile } : {}) };
}

function existsFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
