// What `npm test` runs before the tests: the build (the end-to-end tests drive the built CLI) unless
// dist/ already holds the build of the current sources (scripts/build-stamp.mjs), the typecheck
// (test files included) and the linter. The build and the typecheck are two separate TypeScript
// programs, each mostly on one core: run side by side they take the time of the longer one. Each
// step's output is printed whole when it ends, never interleaved; the exit is non-zero, naming
// every step that failed, when any did.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { staleBuildReason } from "./build-stamp.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm run <script>`; resolves with its exit code once its output has been printed. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.once("error", (error) => {
      process.stderr.write(`pretest: cannot run "npm run ${script}": ${error.message}\n`);
      resolve(1);
    });
    child.once("close", (code) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

/** The build, unless dist/ already holds the build of these sources (`npm ci` just made it). */
async function buildIfStale() {
  const reason = staleBuildReason(fileURLToPath(new URL("..", import.meta.url)));
  if (reason === undefined) {
    process.stdout.write("pretest: dist/ is the build of the current sources (node_modules/.cache/atomic-build/stamp.json): not rebuilt\n");
    return 0;
  }
  process.stdout.write(`pretest: building (${reason})\n`);
  return run("build");
}

const checks = async () => ({ typecheck: await run("typecheck"), lint: await run("lint") });
const [build, { typecheck, lint }] = await Promise.all([buildIfStale(), checks()]);
const failed = Object.entries({ build, typecheck, lint }).filter(([, code]) => code !== 0);
if (failed.length > 0) {
  process.stderr.write(`pretest: ${failed.map(([name, code]) => `${name} failed (exit ${code})`).join(", ")}\n`);
  process.exit(1);
}
