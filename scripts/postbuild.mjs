// After tsc: compile the model catalog, bundle the CLI (startup cost is per module loaded) and make the bin executable.
import { chmodSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { writeBuildStamp } from "./build-stamp.mjs";

// The per-provider data files, validated, as one file the catalog reads at startup (see lib/model-catalog/source.ts).
const { compileCatalog, readDataFiles } = await import("../dist/lib/model-catalog/source.js");
writeFileSync("dist/lib/model-catalog/catalog.jsonl", compileCatalog(await readDataFiles(resolve("lib/model-catalog/data"))));
// The classifier and image models (codemode's `models` global), read on a script's first `models.*` call.
const { compileTypedCatalog, readTypedDataFiles } = await import("../dist/lib/model-catalog/typed.js");
writeFileSync("dist/lib/model-catalog/typed-models.json", compileTypedCatalog(await readTypedDataFiles(resolve("lib/model-catalog/typed"))));

execFileSync(process.execPath, ["scripts/bundle.mjs"], { stdio: "inherit" });
chmodSync("dist/cli/atomic.cjs", 0o755);
chmodSync("dist/cli/atomic.js", 0o755);
// Last: what this build was made from (npm test skips a build that is current, see build-stamp.mjs).
writeBuildStamp(resolve("."));
