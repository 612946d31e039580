/**
 * Settings: `<agent dir>/settings.json` (user) merged with `<cwd>/.atomic/settings.json`
 * (project wins; objects deep-merge, arrays and scalars replace), validated with zod. Keys that
 * run code (`plugins`, `extensions`, `trustedProjects`) are honoured from the user file only.
 */
import { readFile, writeFile, mkdir, rename } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { ErrorCode, KernelError } from "./errors.js";
import { THINKING_LEVELS } from "./types.js";
import { formatValidationError, ONE_SHOT } from "./validation.js";

const queueMode = () => z.enum(["all", "one-at-a-time"]);

/** Built on first use: most processes have no settings file to validate. */
export const settingsSchema = () => z.looseObject({
  defaultProvider: z.string().optional(),
  defaultModel: z.string().optional(),
  defaultThinkingLevel: z.enum(THINKING_LEVELS).optional(),
  steeringMode: queueMode().optional(),
  followUpMode: queueMode().optional(),
  retry: z
    .object({
      enabled: z.boolean().optional(),
      maxRetries: z.number().int().min(0).optional(),
      baseDelayMs: z.number().int().min(0).optional(),
    })
    .optional(),
  compaction: z
    .object({
      enabled: z.boolean().optional(),
      reserveTokens: z.number().int().min(0).optional(),
      preserveRecent: z.number().int().min(0).optional(),
      compressionRatio: z.number().gt(0).lt(1).optional(),
    })
    .optional(),
  shellPath: z.string().optional(),
  transport: z.string().optional(),
  sessionDir: z.string().optional(),
  plugins: z.array(z.string()).optional(),
  extensions: z.array(z.string()).optional(),
  trustedProjects: z.array(z.string()).optional(),
});

export type Settings = z.output<ReturnType<typeof settingsSchema>>;

/** Keys that can make Atomic run code: a cloned repository's `.atomic/` must not set them. */
export const USER_ONLY_KEYS = ["plugins", "extensions", "trustedProjects"] as const;

/** Parsed command-line options, as plugins see them. */
export interface CliOptions {
  mode: string;
  provider?: string;
  model?: string;
  name?: string;
  noSession: boolean;
  sessionDir?: string;
  approve: boolean;
  extensions: string[];
  [key: string]: unknown;
}

export interface KernelConfig {
  /** `~/.atomic/agent`, or `ATOMIC_CODING_AGENT_DIR`. */
  agentDir: string;
  cwd: string;
  settings: Settings;
  cli: CliOptions;
  env: NodeJS.ProcessEnv;
  /** Where Atomic itself is installed (the package root): bundled assets live under it. */
  installDir?: string;
}

export function resolveAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ATOMIC_CODING_AGENT_DIR;
  return fromEnv ? resolve(fromEnv) : join(homedir(), ".atomic", "agent");
}

export function userSettingsPath(agentDir: string): string {
  return join(agentDir, "settings.json");
}

export function projectSettingsPath(cwd: string): string {
  return join(cwd, ".atomic", "settings.json");
}

/** Reads and validates one settings file; a missing file is an empty object. */
export async function readSettingsFile(path: string): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot read settings file ${path}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Invalid JSON in settings file ${path}: ${(error as Error).message}`);
  }
  const parsed = settingsSchema().safeParse(json, ONE_SHOT);
  if (!parsed.success) {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Invalid settings file ${path}: ${formatValidationError(parsed.error)}`);
  }
  return parsed.data;
}

export interface LoadedSettings {
  settings: Settings;
  /** Human-readable notes for stderr (ignored keys and the like). */
  notes: string[];
}

export async function loadSettings(agentDir: string, cwd: string): Promise<LoadedSettings> {
  const userPath = userSettingsPath(agentDir);
  const projectPath = projectSettingsPath(cwd);
  const [user, project] = await Promise.all([
    readSettingsFile(userPath),
    projectPath === userPath ? Promise.resolve({}) : readSettingsFile(projectPath),
  ]);
  const notes: string[] = [];
  const safeProject: Record<string, unknown> = { ...project };
  for (const key of USER_ONLY_KEYS) {
    if (key in safeProject) {
      notes.push(`Ignored "${key}" in ${projectPath}: it is honoured only in ${userPath}`);
      delete safeProject[key];
    }
  }
  return { settings: deepMerge(user, safeProject) as Settings, notes };
}

/** Objects merge key by key; arrays and scalars from `override` replace. */
export function deepMerge(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Persists one key into the user settings file (atomic rename; other keys are kept verbatim). */
export async function saveUserSettings(agentDir: string, patch: Record<string, unknown>): Promise<void> {
  const path = userSettingsPath(agentDir);
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  } catch {
    current = {};
  }
  const next = deepMerge(current, patch);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(next, null, 2) + "\n");
  await rename(tmp, path);
}
