/**
 * Where the catalog comes from at run time. The build compiles the per-provider files of
 * `data/` into one `catalog.jsonl` next to this module: its first line holds every provider's
 * header (name, API, base URL, credential), the second every provider's model ids, each further
 * line one provider's models, so a start reads one file and parses only the providers it uses (a
 * start that names one model, `provider/id` or a bare id, parses the lines that list it). Run from the source tree (tests), the `data/` files are read instead. Refreshed copies
 * (`atomic models update`, `<agent dir>/catalog/<provider>.json`) replace a provider's shipped
 * data when they were checked later.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ONE_SHOT, formatValidationError } from "../../kernel/index.js";
import { MAX_CATALOG_FILE_BYTES } from "./entry-checks.js";
import { CATALOG_ORDER } from "./order.js";
import { catalogSchemas, type CatalogEntry, type CatalogFile, type CatalogProvider } from "./schema.js";

export interface CatalogSource {
  /** Provider headers, in catalog order. */
  providers: CatalogProvider[];
  /** A provider's entries, parsed on the first call. */
  entries(provider: string): CatalogEntry[];
  /** A provider's model ids, without parsing its entries. */
  ids(provider: string): readonly string[];
  /** What could not be read (a refreshed file that is broken is skipped, the shipped data kept). */
  problems: string[];
}

/** The refreshed catalogs' folder. */
export function catalogDir(agentDir: string): string {
  return join(agentDir, "catalog");
}

const COMPILED = new URL("./catalog.jsonl", import.meta.url);
const DATA_DIR = new URL("./data/", import.meta.url);

/** The shipped catalog merged with the refreshed files of `agentDir` (when given). */
export async function readCatalog(agentDir?: string): Promise<CatalogSource> {
  const [shipped, refreshed] = await Promise.all([readShipped(), agentDir ? readRefreshed(catalogDir(agentDir)) : { files: [], problems: [] }]);
  const providers = [...shipped.providers];
  const replaced = new Map<string, CatalogEntry[]>();
  const problems = [...refreshed.problems];
  for (const file of refreshed.files) {
    const at = providers.findIndex((provider) => provider.provider === file.provider);
    if (at < 0) {
      problems.push(`${join(catalogDir(agentDir!), `${file.provider}.json`)}: Atomic has no built-in provider "${file.provider}" (file ignored)`);
      continue;
    }
    // Shipped data checked later than the refresh (a newer Atomic) wins.
    if (file.source.checked < providers[at]!.source.checked) continue;
    const { models, ...header } = file;
    providers[at] = header;
    replaced.set(file.provider, models);
  }
  return {
    providers,
    entries: (provider) => replaced.get(provider) ?? shipped.entries(provider),
    ids: (provider) => replaced.get(provider)?.map((entry) => entry.id) ?? shipped.ids(provider),
    problems,
  };
}

/** The shipped catalog as whole files (each provider's header with its models). */
export async function readShippedFiles(): Promise<CatalogFile[]> {
  const shipped = await readShipped();
  return shipped.providers.map((provider) => ({ ...provider, models: shipped.entries(provider.provider) }));
}

/** The compiled catalog, else (running from the source tree) the data files. */
async function readShipped(): Promise<Omit<CatalogSource, "problems">> {
  let bytes: Buffer;
  try {
    bytes = await readFile(COMPILED);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return fromFiles(await readDataFiles());
  }
  return fromCompiled(bytes);
}

/**
 * `compileCatalog`'s output read back: headers now, each provider's line when first asked for.
 * Kept as bytes, each line decoded when parsed: the whole file as one string would be a second
 * ~600 KB copy at every start, of which a start reads the first line and one or two more.
 */
export function fromCompiled(compiled: string | Buffer): Omit<CatalogSource, "problems"> {
  const bytes = typeof compiled === "string" ? Buffer.from(compiled, "latin1") : compiled;
  const starts = [0];
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) starts.push(at + 1);
  // The file is ASCII (`compileCatalog` escapes the rest), so Latin-1 is its text exactly.
  const line = (n: number): string => bytes.toString("latin1", starts[n], n + 1 < starts.length ? starts[n + 1]! - 1 : bytes.length);
  const providers = JSON.parse(line(0)) as CatalogProvider[];
  // Parsed when a bare id is first looked up: a start that names a provider never reads it.
  let ids: Record<string, string[]> | undefined;
  const parsed = new Map<string, CatalogEntry[]>();
  const index = new Map(providers.map((provider, i) => [provider.provider, i + 2]));
  return {
    providers,
    ids: (provider) => (ids ??= JSON.parse(line(1)) as Record<string, string[]>)[provider] ?? [],
    entries(provider) {
      let entries = parsed.get(provider);
      if (!entries) {
        const at = index.get(provider);
        entries = at === undefined ? [] : (JSON.parse(line(at)) as CatalogEntry[]);
        parsed.set(provider, entries);
      }
      return entries;
    },
  };
}

/** A line of headers, a line of ids, then one line of entries per provider (ASCII: `\u` escapes). */
export function compileCatalog(files: readonly CatalogFile[]): string {
  const ascii = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const headers = files.map(({ models: _models, ...header }) => header);
  const ids = Object.fromEntries(files.map((file) => [file.provider, file.models.map((model) => model.id)]));
  return [ascii(headers), ascii(ids), ...files.map((file) => ascii(file.models))].join("\n") + "\n";
}

function fromFiles(files: CatalogFile[]): Omit<CatalogSource, "problems"> {
  const byName = new Map(files.map((file) => [file.provider, file]));
  return {
    providers: files.map(({ models: _models, ...header }) => header),
    entries: (provider) => byName.get(provider)?.models ?? [],
    ids: (provider) => byName.get(provider)?.models.map((model) => model.id) ?? [],
  };
}

/** The shipped data files in catalog order, validated (the build and the tests read them so). */
export async function readDataFiles(dir: URL | string = DATA_DIR): Promise<CatalogFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".json"));
  const files = await Promise.all(
    names.map(async (name) => {
      const path = typeof dir === "string" ? join(dir, name) : new URL(name, dir);
      const parsed = parseCatalogFile(await readFile(path, "utf8"), String(path));
      if (parsed.error) throw new Error(parsed.error);
      return parsed.file!;
    }),
  );
  const rank = (name: string) => {
    const at = CATALOG_ORDER.indexOf(name);
    return at < 0 ? CATALOG_ORDER.length : at;
  };
  return files.sort((a, b) => rank(a.provider) - rank(b.provider) || a.provider.localeCompare(b.provider));
}

export function parseCatalogFile(text: string, path: string): { file?: CatalogFile; error?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `Invalid JSON in ${path}: ${(error as Error).message}` };
  }
  const parsed = catalogSchemas().File.safeParse(json, ONE_SHOT);
  if (!parsed.success) return { error: `Invalid catalog file ${path}: ${formatValidationError(parsed.error)}` };
  const ids = new Set<string>();
  for (const model of parsed.data.models) {
    if (ids.has(model.id)) return { error: `Invalid catalog file ${path}: model "${model.id}" is listed twice` };
    ids.add(model.id);
  }
  return { file: parsed.data };
}

/** The agent dir's refreshed files; a missing folder is none, a broken file a problem. */
async function readRefreshed(dir: string): Promise<{ files: CatalogFile[]; problems: string[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".json"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { files: [], problems: [] };
    return { files: [], problems: [`Cannot read ${dir}: ${(error as Error).message} (shipped catalog used)`] };
  }
  const files: CatalogFile[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let text: string;
    try {
      // A file no update writes (hand-made, or from an older version) is not read whole.
      const { size } = await stat(path);
      if (size > MAX_CATALOG_FILE_BYTES) {
        problems.push(`${path} is ${size} bytes, more than the ${MAX_CATALOG_FILE_BYTES} a catalog may take (shipped data used)`);
        continue;
      }
      text = await readFile(path, "utf8");
    } catch (error) {
      problems.push(`Cannot read ${path}: ${(error as Error).message} (shipped data used)`);
      continue;
    }
    const parsed = parseCatalogFile(text, path);
    if (parsed.error) problems.push(`${parsed.error} (shipped data used)`);
    else if (`${parsed.file!.provider}.json` !== name) problems.push(`${path}: names provider "${parsed.file!.provider}" (file ignored)`);
    else files.push(parsed.file!);
  }
  return { files, problems };
}
