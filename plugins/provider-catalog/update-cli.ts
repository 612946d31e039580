/**
 * `atomic models update|reset`: refresh the built-in providers' catalogs from the public
 * models.dev catalog (prices, new models; see lib/model-catalog/models-dev.ts for what changes),
 * written as `<agent dir>/catalog/<provider>.json` and used instead of the shipped data from the
 * next start; `reset` removes them (the shipped data is used again). Without network, or in
 * offline mode (lib/offline), nothing is written and the shipped (or last refreshed) data stays in use.
 */
import { access, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { providerMeant } from "../../lib/closest/models.js";
import {
  catalogDir,
  idProblem,
  MAX_CATALOG_FILE_BYTES,
  MAX_MODELS_PER_PROVIDER,
  nameProblem,
  parseCatalogFile,
  readShippedFiles,
  visible,
  type CatalogFile,
} from "../../lib/model-catalog/index.js";
import { modelsDevEntries, refreshCatalog } from "../../lib/model-catalog/models-dev.js";
import { httpFetch } from "../../lib/provider-kit/http-fetch.js";
import { offlineVariable } from "../../lib/offline/index.js";
import type { CliIo } from "../../lib/cli-io/index.js";
import { makeFolder } from "../../lib/make-folder/index.js";

export const MODELS_DEV_URL = "https://models.dev/api.json";
const FETCH_TIMEOUT_MS = 30_000;
/** models.dev's whole catalog is about 1 MB. */
const MAX_BYTES = 16 * 1024 * 1024;

export interface ModelsCliIo extends Pick<CliIo, "agentDir" | "stdout" | "stderr">, Partial<Pick<CliIo, "env">> {
  /** The date written as `checked` (tests pin it). */
  today?: string;
}

const USAGE = `Usage:
  atomic models update [provider...] [--from <url>]   refresh the built-in catalogs from models.dev
                                                       (default ${MODELS_DEV_URL}; ATOMIC_MODELS_CATALOG_URL)
  atomic models reset [provider...]                    drop the refreshed catalogs: the shipped data is used again
  atomic --list-models [pattern]                       list the models, and whether their provider has credentials
`;

/** Runs the subcommand (`argv` after `atomic models`); resolves to the exit code. */
export async function runModelsCommand(argv: string[], io: ModelsCliIo): Promise<number> {
  const [action, ...rest] = argv;
  // Asked for, the usage is the output (stdout, exit 0); without a command it explains a usage error (stderr, exit 2), as `atomic mcp` does.
  if (action === "help" || action === "--help" || action === "-h") {
    io.stdout.write(USAGE);
    return 0;
  }
  if (action === undefined) {
    io.stderr.write(USAGE);
    return 2;
  }
  const args = parseArgs(rest);
  if (typeof args === "string" || (action !== "update" && action !== "reset")) {
    io.stderr.write(`${typeof args === "string" ? args : `Unknown models command: ${action}`}\n${USAGE}`);
    return 2;
  }
  const shipped = await readShippedFiles();
  const unknown = args.providers.filter((name) => !shipped.some((file) => file.provider === name));
  if (unknown.length > 0) {
    const names = shipped.map((file) => file.provider);
    const hint = unknown.length === 1 ? providerMeant(names, unknown[0]!) : "";
    io.stderr.write(`Unknown provider${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.${hint} Built-in providers: ${names.join(", ")}\n`);
    return 2;
  }
  const chosen = args.providers.length > 0 ? shipped.filter((file) => args.providers.includes(file.provider)) : shipped;
  if (action === "reset") return reset(chosen, io);
  const env = io.env ?? process.env;
  const url = args.from ?? env.ATOMIC_MODELS_CATALOG_URL ?? MODELS_DEV_URL;
  const offline = offlineVariable(env);
  if (offline) {
    io.stderr.write(`Cannot refresh the catalogs offline (${offline} is set): ${url} was not asked. Nothing changed: the catalog in use stays.\n`);
    return 1;
  }
  return update(chosen, url, io);
}

function parseArgs(rest: string[]): { providers: string[]; from?: string } | string {
  const providers: string[] = [];
  let from: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--from") {
      from = rest[++i];
      if (!from) return "--from needs a URL";
    } else if (arg.startsWith("-")) {
      return `Unknown option: ${arg}`;
    } else providers.push(arg);
  }
  return { providers, ...(from ? { from } : {}) };
}

async function update(files: CatalogFile[], url: string, io: ModelsCliIo): Promise<number> {
  let catalog: Record<string, unknown>;
  try {
    catalog = await fetchCatalog(url);
  } catch (error) {
    io.stderr.write(`Cannot read the catalog at ${url}: ${(error as Error).message}. Nothing changed: the catalog in use stays.\n`);
    return 1;
  }
  const dir = catalogDir(io.agentDir);
  const today = io.today ?? new Date().toISOString().slice(0, 10);
  // Every file is built and checked before any is written: a catalog with one bad entry changes nothing.
  const planned = files.map((file) => plan(file, catalog, today, url, join(dir, `${file.provider}.json`)));
  const refused = planned.flatMap((step) => step.problems);
  if (refused.length > 0) {
    io.stderr.write(`Refused the catalog at ${url}:\n${refused.map((line) => `  ${line}\n`).join("")}Nothing changed: the catalog in use stays.\n`);
    return 1;
  }
  await makeFolder(dir);
  let written = 0;
  for (const step of planned) {
    if (step.write) {
      await writeFile(`${step.write.path}.tmp`, step.write.text);
      await rename(`${step.write.path}.tmp`, step.write.path);
      written++;
    }
    io.stdout.write(`${step.note}\n`);
  }
  io.stdout.write(`Wrote ${written} catalog${written === 1 ? "" : "s"} to ${dir}; used from the next start. \`atomic models reset\` goes back to the shipped data.\n`);
  return 0;
}

interface PlannedFile {
  note: string;
  write?: { path: string; text: string };
  problems: string[];
}

/** What updating one provider would write, and why it must not (bad ids, names, count or size). */
function plan(file: CatalogFile, catalog: Record<string, unknown>, today: string, url: string, path: string): PlannedFile {
  if (!file.modelsDev) return { note: `${file.provider}: not in the public catalog (${file.local ? "a local server lists its own models" : "shipped data kept"})`, problems: [] };
  const entries = modelsDevEntries(catalog[file.modelsDev], file.modelsDevFilter ? new RegExp(file.modelsDevFilter) : undefined);
  if (entries.length === 0) return { note: `${file.provider}: no usable models under "${file.modelsDev}" in the catalog (shipped data kept)`, problems: [] };
  if (entries.length > MAX_MODELS_PER_PROVIDER) {
    return { note: "", problems: [`${file.provider}: it lists ${entries.length} models, more than the ${MAX_MODELS_PER_PROVIDER} a provider may have`] };
  }
  const problems: string[] = [];
  for (const entry of entries) {
    const id = idProblem(entry.id);
    if (id) problems.push(`${file.provider}: model id ${visible(entry.id)}: ${id}`);
    const name = nameProblem(entry.name);
    if (name) problems.push(`${file.provider}: model ${visible(entry.id)} has the name ${visible(entry.name)}: ${name}`);
  }
  if (problems.length > 0) return { note: "", problems: shortened(problems) };
  const { file: refreshed, added, updated } = refreshCatalog(file, entries, today, url);
  const text = `${JSON.stringify(refreshed, null, 2)}\n`;
  if (Buffer.byteLength(text) > MAX_CATALOG_FILE_BYTES) {
    return { note: "", problems: [`${file.provider}: the refreshed catalog would be ${Buffer.byteLength(text)} bytes, more than the ${MAX_CATALOG_FILE_BYTES} allowed`] };
  }
  // The file must read back as the registry will read it, or it is not written.
  const check = parseCatalogFile(text, path);
  if (check.error) return { note: "", problems: [`${file.provider}: the refreshed catalog does not validate (${check.error})`] };
  return {
    note: `${file.provider}: ${refreshed.models.length} models, ${added.length} added${added.length > 0 ? ` (${preview(added)})` : ""}, ${updated.length} repriced`,
    write: { path, text },
    problems: [],
  };
}

/** The first few problems of a provider and how many more: a junk catalog must not flood the terminal. */
function shortened(problems: string[]): string[] {
  return problems.length <= 5 ? problems : [...problems.slice(0, 5), `... and ${problems.length - 5} more`];
}

/** Removes the refreshed catalogs there are, and says which: none is reported as none. */
async function reset(files: CatalogFile[], io: ModelsCliIo): Promise<number> {
  const dir = catalogDir(io.agentDir);
  const removed: string[] = [];
  for (const file of files) {
    const path = join(dir, `${file.provider}.json`);
    if (!(await exists(path))) continue;
    await rm(path, { force: true });
    removed.push(file.provider);
  }
  const asked = files.length === 1 ? files[0]!.provider : "any provider";
  if (removed.length === 0) io.stdout.write(`No refreshed catalog of ${asked} in ${dir}: nothing to remove, the shipped data is in use.\n`);
  else
    io.stdout.write(
      `Removed the refreshed catalog${removed.length === 1 ? "" : "s"} of ${removed.length <= 5 ? removed.join(", ") : `${removed.length} providers`} from ${dir}: the shipped data is used.\n`,
    );
  return 0;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function fetchCatalog(url: string): Promise<Record<string, unknown>> {
  const response = await httpFetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_BYTES) throw new Error(`the answer is ${length} bytes, more than the ${MAX_BYTES} accepted`);
  const text = await boundedText(response, MAX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the answer is not JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("the answer is not a catalog object");
  return json as Record<string, unknown>;
}

/** The body as text, read no further than `limit` bytes (a chunked answer says no length first). */
async function boundedText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer is larger than the ${limit} bytes accepted`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function preview(ids: string[]): string {
  return ids.length <= 3 ? ids.join(", ") : `${ids.slice(0, 3).join(", ")}, ...`;
}
