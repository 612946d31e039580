#!/usr/bin/env node
// Node.js runtimes other than the one running, for tests and CI that check Atomic (and pi 1.x,
// which needs Node >= 22.19) on several majors. A runtime comes from the npm registry's
// `node-<platform>-<arch>` package (the official binaries, published as npm packages), so the
// only network needed is the registry CI already uses. Each is unpacked once into
// node_modules/.cache/node-runtimes/ and reused.
//
//   node scripts/node-runtime.mjs 22      prints the path of a Node 22 binary (installing it first)
//
// From code: `await nodeRuntime(22)` resolves to the binary's path, or rejects with the reason.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The exact versions tested: a new patch is a deliberate change, not whatever is newest today. */
export const NODE_RUNTIME_VERSIONS = Object.freeze({ 20: "20.20.2", 22: "22.23.5", 24: "24.22.3" });

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, "node_modules", ".cache", "node-runtimes");

/** Path of the `node` binary of `major` (20, 22, 24), installed from the npm registry when missing. */
export async function nodeRuntime(major) {
  const version = NODE_RUNTIME_VERSIONS[major];
  if (!version) throw new Error(`No pinned Node.js ${major} runtime (known: ${Object.keys(NODE_RUNTIME_VERSIONS).join(", ")})`);
  if (process.versions.node === version) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const home = join(CACHE, `${pkg}-${version}`);
  const binary = join(home, "bin", process.platform === "win32" ? "node.exe" : "node");
  if (!existsSync(binary)) await install(`${pkg}@${version}`, home);
  const { stdout } = await run(binary, ["--version"]);
  if (stdout.trim() !== `v${version}`) throw new Error(`${binary} reports ${stdout.trim()}, expected v${version}`);
  return binary;
}

/** npm pack + tar into a temp folder, then one rename: an interrupted install leaves nothing half-made. */
async function install(spec, home) {
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, ".staging-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    await run(npm, ["pack", spec, "--silent", "--pack-destination", staging], { cwd: staging, maxBuffer: 16 << 20 }).catch((error) => {
      throw new Error(`Could not download ${spec} from the npm registry: ${(error.stderr || error.message).trim().split("\n").pop()}`);
    });
    const tarball = readdirSync(staging).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${spec} produced no tarball`);
    await run("tar", ["-xzf", tarball], { cwd: staging });
    rmSync(home, { recursive: true, force: true });
    renameSync(join(staging, "package"), home);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const major = Number(process.argv[2]);
  nodeRuntime(major).then(
    (path) => console.log(path),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
