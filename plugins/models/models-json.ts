/**
 * `<agent dir>/models.json`, pi's format: custom providers (any OpenAI-compatible server, a
 * proxy, a local model) and patches to built-in ones. Read as pi reads it (`//` comments and
 * trailing commas allowed), then checked entry by entry: an entry that cannot be used is reported
 * with its path and the reason and only that entry is dropped. A config error never sends a
 * conversation somewhere the user did not configure: the model a dropped entry was about, a
 * provider whose own fields are broken, or every provider when the file cannot be read at all,
 * refuses requests until it is fixed (instead of falling back to the built-in public address).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { ONE_SHOT, formatValidationError } from "../../kernel/index.js";
import { nearestName } from "../../lib/closest/index.js";
import { describeJsonError } from "../../lib/json-error/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import { plainProvider } from "./models-json-plain.js";
import { modelsSchemas, type ModelEntryConfig, type ModelOverrideConfig, type ModelsFile, type ProviderConfig } from "./models-json-schema.js";

export type { ModelsFile, ProviderConfig } from "./models-json-schema.js";
export { applyProviderConfig, customProvider, customProviderProblem } from "./model-patch.js";

export function modelsJsonPath(agentDir: string): string {
  return join(agentDir, "models.json");
}

/** What cannot be used until the file is fixed, and why (the text a refused request shows). */
export interface ModelsJsonBlocks {
  /** The whole file is unusable: every provider refuses requests. */
  all?: string;
  providers: Map<string, string>;
  /** By `provider\0id`. */
  models: Map<string, string>;
}

export interface ModelsJsonResult {
  /** The usable part of the file (entries that failed their check taken out). */
  file?: ModelsFile;
  /** Set when the file as a whole cannot be used (unreadable, not JSON, no `providers` object). */
  error?: string;
  /** One line per dropped entry or unusable provider block, naming the file and the key. */
  problems: string[];
  /** Fields read by pi that Atomic accepts and does not apply (said once each). */
  notes: string[];
  blocks: ModelsJsonBlocks;
}

const emptyBlocks = (): ModelsJsonBlocks => ({ providers: new Map(), models: new Map() });

export function parseModelsJson(text: string, path: string): ModelsJsonResult {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { problems: [], notes: [], blocks: emptyBlocks() };
  let json: unknown;
  try {
    // pi reads models.json with `//` line comments and trailing commas (lib/jsonc).
    json = parseJsonc(body);
  } catch (error) {
    return wholeFile(`Invalid JSON in ${path}: ${describeJsonError(body, error)}`);
  }
  const providers = (json as { providers?: unknown } | null)?.providers;
  if (!isRecord(json) || !isRecord(providers)) return wholeFile(`Invalid models file ${path}: Invalid providers: expected an object of providers${providersMeant(json)}`);
  const result: ModelsJsonResult = { file: { providers: {} }, problems: [], notes: [], blocks: emptyBlocks() };
  const notes = new Set<string>();
  for (const [name, raw] of Object.entries(providers)) {
    const config = checkProvider(name, raw, path, result);
    if (!config) continue;
    result.file!.providers[name] = config;
    for (const entry of [...(config.models ?? []), ...Object.values(config.modelOverrides ?? {})]) noteIgnored(entry, notes);
  }
  result.notes = [...notes].map((field) => `${field} in ${path} is read by pi and not applied by Atomic (${IGNORED[field]}); it is ignored.`);
  return result;
}

export async function readModelsJson(path: string): Promise<ModelsJsonResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { problems: [], notes: [], blocks: emptyBlocks() };
    return wholeFile(`Cannot read ${path}: ${(error as Error).message}`);
  }
  return parseModelsJson(text, path);
}

function wholeFile(error: string): ModelsJsonResult {
  const blocks = emptyBlocks();
  blocks.all = `${error}. Requests are refused until it is fixed: the file may re-point a provider or hold its key.`;
  return { error, problems: [], notes: [], blocks };
}

/** The provider block with its unusable entries taken out; undefined when its own fields are broken. */
function checkProvider(name: string, raw: unknown, path: string, result: ModelsJsonResult): ProviderConfig | undefined {
  const plain = plainProvider(raw);
  if (plain) return plain;
  const schemas = modelsSchemas();
  const fields = schemas.ProviderFields.safeParse(raw, ONE_SHOT);
  if (!fields.success) {
    const issue = issueAt(fields.error, ["providers", name]);
    result.problems.push(`Invalid models file ${path}: ${issue} (provider ${name} refuses requests until it is fixed)`);
    result.blocks.providers.set(name, `Provider ${name} is not usable: ${issue} in ${path}. Fix it: requests are refused rather than sent without it.`);
    return undefined;
  }
  const models: ModelEntryConfig[] = [];
  for (const [index, entry] of (fields.data.models ?? []).entries()) {
    const parsed = schemas.ModelEntry.safeParse(entry, ONE_SHOT);
    if (parsed.success) models.push(parsed.data);
    else dropEntry(name, (entry as { id?: unknown } | null)?.id, issueAt(parsed.error, ["providers", name, "models", index]), path, result);
  }
  const overrides: Record<string, ModelOverrideConfig> = {};
  for (const [id, entry] of Object.entries(fields.data.modelOverrides ?? {})) {
    const parsed = schemas.ModelOverride.safeParse(entry, ONE_SHOT);
    if (parsed.success) overrides[id] = parsed.data;
    else dropEntry(name, id, issueAt(parsed.error, ["providers", name, "modelOverrides", id]), path, result);
  }
  const { models: _models, modelOverrides: _overrides, ...own } = fields.data;
  return {
    ...own,
    ...(fields.data.models ? { models } : {}),
    ...(fields.data.modelOverrides ? { modelOverrides: overrides } : {}),
  } as ProviderConfig;
}

function dropEntry(provider: string, id: unknown, issue: string, path: string, result: ModelsJsonResult): void {
  if (typeof id !== "string" || id === "") {
    result.problems.push(`Invalid models file ${path}: ${issue} (entry skipped)`);
    return;
  }
  result.problems.push(`Invalid models file ${path}: ${issue} (entry skipped; ${provider}/${id} refuses requests until it is fixed)`);
  result.blocks.models.set(`${provider}\0${id}`, `${provider}/${id} is not usable: ${issue} in ${path}. Fix the entry: requests are refused rather than sent without it.`);
}

/** The first issue, its path from the top of the file. */
function issueAt(error: z.ZodError, prefix: (string | number)[]): string {
  for (const issue of error.issues) (issue as { path: PropertyKey[] }).path = [...prefix, ...issue.path];
  return formatValidationError(error);
}

const IGNORED: Record<string, string> = {
  promptCache: "Atomic does not warm prompt caches",
  inputLimits: "Atomic does not resize or count images per model",
};

function noteIgnored(entry: ModelEntryConfig | ModelOverrideConfig, notes: Set<string>): void {
  for (const field of Object.keys(IGNORED)) if ((entry as Record<string, unknown>)[field] !== undefined) notes.add(field);
}

/** ` (the file has "provider": did you mean "providers"?)` when a key of the file is a slip of it. */
function providersMeant(json: unknown): string {
  if (!isRecord(json) || json.providers !== undefined) return "";
  const key = Object.keys(json).find((candidate) => nearestName(["providers"], candidate));
  return key ? ` (the file has "${key}": did you mean "providers"?)` : "";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
