/** pi's install paths, for Atomic's installed package: its folder, README, docs and examples. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The folder of Atomic's package.json (`PI_PACKAGE_DIR` overrides, as in pi). */
export function getPackageDir(): string {
  if (process.env.PI_PACKAGE_DIR) return resolve(process.env.PI_PACKAGE_DIR);
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "atomic-agent") return dir;
    if (dirname(dir) === dir) throw new Error(`Atomic's package.json was not found above ${import.meta.dirname}`);
  }
}

export const getReadmePath = (): string => join(getPackageDir(), "README.md");
export const getDocsPath = (): string => join(getPackageDir(), "docs");
export const getExamplesPath = (): string => join(getPackageDir(), "docs", "examples");
