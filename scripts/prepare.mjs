#!/usr/bin/env node
// npm's `prepare`: builds dist/ after `npm ci` / `npm install` in the repository, and before
// `npm pack` / `npm publish`. npm also runs it for `npx atomic` inside the repository (npx
// "installs" the folder itself to find its bin): there a build that already exists is used as
// is, instead of a silent rebuild under npx that, when interrupted, leaves npx's cache broken.
// A folder without a build (a `npx github:...` clone) is still built.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = existsSync(`${root}dist/cli/atomic.cjs`) && existsSync(`${root}dist/cli/bundle/entry.json`);
if (process.env.npm_command === "exec" && built) process.exit(0);
const npm = process.env.npm_execpath;
if (npm) execFileSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" });
else execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: root, stdio: "inherit" });
