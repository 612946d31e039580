/**
 * A package's `package.json` as far as packages go: the resource manifest under `atomic` (or pi's
 * `pi`), and the entry the package itself declares (`exports["."]`, else `main`) for a package
 * that has neither a manifest nor conventional folders.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export type Manifest = Partial<Record<ResourceKind, string[]>>;

export interface PackageJson {
  /** The file was there (even if unusable). */
  exists: boolean;
  name?: string;
  version?: string;
  /** `atomic` (first) or `pi`, when it lists at least one kind of resource. */
  manifest?: Manifest;
  /** Which key the manifest came from, for messages. */
  manifestKey?: "atomic" | "pi";
  /** The declared module entry, relative to the package. */
  entry?: string;
  /** Why the file could not be used. */
  problem?: string;
}

export async function readPackageJson(dir: string): Promise<PackageJson> {
  const path = join(dir, "package.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { exists: false } : { exists: true, problem: `cannot read ${path}: ${(error as Error).message}` };
  }
  let pkg: unknown;
  try {
    pkg = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { exists: true, problem: `invalid JSON in ${path}: ${(error as Error).message}` };
  }
  if (!isObject(pkg)) return { exists: true, problem: `${path} is not a JSON object` };
  const out: PackageJson = { exists: true };
  if (typeof pkg.name === "string") out.name = pkg.name;
  if (typeof pkg.version === "string") out.version = pkg.version;
  for (const key of ["atomic", "pi"] as const) {
    const manifest = manifestOf(pkg[key]);
    if (manifest) {
      out.manifest = manifest;
      out.manifestKey = key;
      break;
    }
  }
  const entry = declaredEntry(pkg);
  if (entry !== undefined) out.entry = entry;
  return out;
}

/** Resource lists of a manifest object; undefined when it lists none (metadata only: pi's `image`, `video`). */
function manifestOf(value: unknown): Manifest | undefined {
  if (!isObject(value)) return undefined;
  const manifest: Manifest = {};
  let any = false;
  for (const kind of RESOURCE_KINDS) {
    const entries = value[kind];
    if (Array.isArray(entries)) {
      manifest[kind] = entries.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "");
      any = true;
    }
  }
  return any ? manifest : undefined;
}

/** `exports["."]` (a string, or its `import`/`default`/`node`/`require` condition), else `main`. */
function declaredEntry(pkg: Record<string, unknown>): string | undefined {
  const exported = pkg.exports;
  const root = typeof exported === "string" ? exported : isObject(exported) ? (Object.keys(exported).some((key) => key.startsWith(".")) ? exported["."] : exported) : undefined;
  const fromExports = conditionTarget(root);
  if (fromExports !== undefined) return fromExports;
  return typeof pkg.main === "string" && pkg.main.trim() !== "" ? pkg.main : undefined;
}

function conditionTarget(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") return value;
  if (!isObject(value) || depth > 3) return undefined;
  for (const condition of ["import", "default", "node", "require"]) {
    const target = conditionTarget(value[condition], depth + 1);
    if (target !== undefined) return target;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
