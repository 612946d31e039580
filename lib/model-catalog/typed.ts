/**
 * The catalog's models that do not chat: classifiers (answers to typed questions) and image
 * generators, as pi 1.6's provider library lists them (`typed/<provider>.json`, written by
 * scripts/import-pi-typed-models.mjs). They never enter the chat catalog or `/model`: lib/typed-models
 * reads them on first use (a script's first `models.*` call, an extension's first typed lookup).
 * The build compiles the files into one `typed-models.json` next to this module; run from the
 * source tree, the files are read. The read is synchronous: pi's registry lists typed models
 * synchronously (`getModelsOfType`), and the one file is read once per process.
 */
import { readdirSync, readFileSync } from "node:fs";
import { z } from "zod";
import { ONE_SHOT, formatValidationError } from "../../kernel/index.js";
import { PROVIDER_NAME } from "./schema.js";

export const TYPED_MODEL_TYPES = ["classifier", "image"] as const;
export type TypedModelType = (typeof TYPED_MODEL_TYPES)[number];

function buildSchema() {
  const price = z.number().min(0);
  const Cost = z.object({ input: price, output: price, cacheRead: price, cacheWrite: price });
  const Model = z.object({
    type: z.enum(TYPED_MODEL_TYPES),
    id: z.string().min(1),
    name: z.string().min(1),
    api: z.string().min(1),
    baseUrl: z.string().min(1),
    input: z.array(z.enum(["text", "image"])).min(1),
    output: z
      .array(z.enum(["text", "image"]))
      .min(1)
      .optional(),
    cost: Cost,
    costTiers: z.array(z.object({ aboveInputTokens: z.number().int().positive(), cost: Cost })).optional(),
    contextWindow: z.number().int().positive().optional(),
    /** System One image input: `imageInput` ("assets", "state-image-urls", "images") and `sendImageOptInHeader`. */
    compat: z.record(z.string(), z.unknown()).optional(),
    /** How input images are resized before they are sent (pi's \`inputLimits\`, shown to scripts as is). */
    inputLimits: z.record(z.string(), z.unknown()).optional(),
  });
  return z.object({
    provider: z.string().regex(PROVIDER_NAME),
    name: z.string().min(1),
    /** The key's variable, for a provider the chat catalog does not register (pi's name). */
    envKey: z.string().min(1).optional(),
    source: z.object({ from: z.string().min(1), checked: z.iso.date() }),
    models: z.array(Model),
  });
}

let schema: ReturnType<typeof buildSchema> | undefined;
const typedSchema = () => (schema ??= buildSchema());

export type TypedCatalogFile = z.output<ReturnType<typeof buildSchema>>;
export type TypedCatalogEntry = TypedCatalogFile["models"][number];
/** One entry with its provider, as scripts see it. */
export type TypedModel = TypedCatalogEntry & { provider: string };

const COMPILED = new URL("./typed-models.json", import.meta.url);
const DATA_DIR = new URL("./typed/", import.meta.url);

/** The typed files validated, in file-name order. */
export async function readTypedDataFiles(dir: URL | string = DATA_DIR): Promise<TypedCatalogFile[]> {
  return readTypedDataFilesNow(dir);
}

function readTypedDataFilesNow(dir: URL | string = DATA_DIR): TypedCatalogFile[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
  return names.map((name) => {
    const path = typeof dir === "string" ? `${dir.replace(/\/$/, "")}/${name}` : new URL(name, dir);
    return parseTypedFile(readFileSync(path, "utf8"), String(path));
  });
}

export function parseTypedFile(text: string, path: string): TypedCatalogFile {
  const parsed = typedSchema().safeParse(JSON.parse(text), ONE_SHOT);
  if (!parsed.success) throw new Error(`Invalid typed catalog file ${path}: ${formatValidationError(parsed.error)}`);
  return parsed.data;
}

/** What the build writes: the files as one JSON array. */
export function compileTypedCatalog(files: readonly TypedCatalogFile[]): string {
  return `${JSON.stringify(files)}\n`;
}

let loaded: TypedCatalogFile[] | undefined;

/** The shipped typed catalog (compiled, else the data files), read once per process, on first use. */
export function typedCatalog(): TypedCatalogFile[] {
  if (loaded) return loaded;
  let text: string | undefined;
  try {
    text = readFileSync(COMPILED, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  loaded = text === undefined ? readTypedDataFilesNow() : (JSON.parse(text) as TypedCatalogFile[]);
  return loaded;
}
