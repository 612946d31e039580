// What a build was made from, so `npm test` can skip a build whose result is already in dist/:
// `npm ci` builds (npm's `prepare`), and the `npm test` after it rebuilt the same 20 s of output.
// The stamp (node_modules/.cache/atomic-build/stamp.json: never packed, gone with a fresh
// `npm ci`) holds a digest of every input's path and bytes and the size
// and modification time of every file the build wrote. A build is current only when both still
// match: an edited source, a removed or edited output, another lock file, all rebuild.
// `npm run build` always builds; it writes the stamp as its last step.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";

/** Everything the build reads: tsconfig.build.json's folders, the scripts, the configs, the lock. */
export const BUILD_INPUTS = Object.freeze([
  "index.ts",
  "kernel",
  "host",
  "lib",
  "plugins",
  "cli",
  "sdk",
  "client",
  "scripts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
]);
/** Environment variables that change what the build writes. */
const BUILD_ENV = Object.freeze(["BUNDLE_NO_MINIFY"]);
const STAMP = join("node_modules", ".cache", "atomic-build", "stamp.json");

/** Tests are not compiled into the build (tsconfig.build.json): editing one needs no rebuild. */
const notAnInput = (name) => name === "node_modules" || name === "dist" || name.endsWith(".test.ts");

/** Every regular file under `path` (itself when a file), sorted, as paths relative to `root`. */
function filesUnder(root, path, skip = notAnInput, found = []) {
  const full = join(root, path);
  if (!existsSync(full)) return found;
  if (!statSync(full).isDirectory()) {
    found.push(path.split(sep).join("/"));
    return found;
  }
  for (const entry of readdirSync(full, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (skip(entry.name)) continue;
    if (entry.isDirectory() || entry.isFile()) filesUnder(root, join(path, entry.name), skip, found);
  }
  return found;
}

/** A digest of the inputs' paths and bytes (and the build's environment). */
export function inputsDigest(root, inputs = BUILD_INPUTS, env = process.env) {
  const hash = createHash("sha256");
  for (const name of BUILD_ENV) hash.update(`env ${name}=${env[name] ?? ""}\n`);
  for (const input of inputs) {
    for (const file of filesUnder(root, input)) {
      const bytes = readFileSync(join(root, file));
      hash.update(`file ${file} ${bytes.length}\n`);
      hash.update(bytes);
    }
  }
  return hash.digest("hex");
}

/** Size and modification time of every file in dist/. */
function outputsState(root) {
  const state = {};
  for (const file of filesUnder(root, "dist", () => false)) {
    const stats = statSync(join(root, file));
    state[file] = [stats.size, Math.round(stats.mtimeMs)];
  }
  return state;
}

/** Records the build just made. */
export function writeBuildStamp(root, env = process.env) {
  const stamp = { inputs: inputsDigest(root, BUILD_INPUTS, env), outputs: outputsState(root) };
  mkdirSync(dirname(join(root, STAMP)), { recursive: true });
  writeFileSync(join(root, STAMP), `${JSON.stringify(stamp)}\n`);
}

/** Why dist/ needs a build, or undefined when it holds the build of the current inputs. */
export function staleBuildReason(root, env = process.env) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, STAMP), "utf8"));
  } catch {
    return "no build stamp";
  }
  if (stamp?.inputs !== inputsDigest(root, BUILD_INPUTS, env)) return "sources changed since the last build";
  const now = outputsState(root);
  const before = stamp.outputs ?? {};
  for (const [file, [size, mtime]] of Object.entries(before)) {
    const current = now[file];
    if (!current) return `${file} is missing`;
    if (current[0] !== size || current[1] !== mtime) return `${file} changed after the build`;
  }
  const extra = Object.keys(now).find((file) => !(file in before));
  if (extra) return `${extra} was not written by the last build`;
  return undefined;
}
