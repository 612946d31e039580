#!/usr/bin/env node
// The packed tarball as a user installs it (issue 40): `npm pack`, then `npm install <tarball>`
// into a fresh project (its dependencies come from the npm registry), then the installed bin's
// `--version`, the offline demo in print mode, and a Bedrock prompt of each route (their SDKs are
// optional peers, not installed: each must fail naming the package to install). Prints the install's size and whether npm
// warned about install scripts; exits non-zero, saying why, on any failure. Needs the registry.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "atomic-pack-check-"));
const fail = (message) => {
  console.error(`check-pack: FAILED: ${message}`);
  process.exitCode = 1;
};
try {
  const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], root))[0];
  const tarball = join(work, packed.filename);
  const manifest = JSON.parse(execFileSync("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" }));
  if (manifest.scripts?.prepare) fail("the packed package.json still has a prepare script");
  if (manifest.allowScripts) fail("the packed package.json still has this repository's allowScripts");
  const project = join(work, "project");
  execFileSync("mkdir", [project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "pack-check", version: "1.0.0", private: true }));
  let installLog = "";
  try {
    installLog = execFileSync("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    installLog = `${error.stdout ?? ""}${error.stderr ?? ""}`;
    throw new Error(`npm install of the tarball failed:\n${installLog}`);
  }
  const size = execFileSync("du", ["-sm", join(project, "node_modules")], { encoding: "utf8" }).split("\t")[0];
  console.log(`tarball ${(packed.size / 1e6).toFixed(1)} MB (${packed.entryCount} files); installed node_modules ${size} MB`);
  const bin = join(project, "node_modules", ".bin", "atomic");
  const version = execFileSync(bin, ["--version"], { cwd: project, encoding: "utf8" }).trim();
  if (version !== readFileSync(join(root, "package.json"), "utf8").match(/"version": "([^"]+)"/)[1]) fail(`--version printed ${version}`);
  const env = { ...process.env, ATOMIC_CODING_AGENT_DIR: join(work, "agent"), ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" };
  const demo = execFileSync(bin, ["-p", "--provider", "replay", "--model", "demo", "--no-session", "What is in this folder?"], { cwd: project, encoding: "utf8", env });
  if (!demo.includes("this folder")) fail(`the offline demo did not answer:\n${demo}`);
  console.log(`atomic --version: ${version}; offline demo answered (${demo.trim().split("\n").length} lines)`);
  // A proxy nothing listens on: were an SDK installed after all, its request fails here, offline.
  const aws = { ...env, AWS_BEARER_TOKEN_BEDROCK: "check-pack", AWS_REGION: "us-east-1", HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9" };
  for (const [model, pkg] of [
    ["anthropic.claude-sonnet-4-6", "@anthropic-ai/bedrock-sdk"],
    ["amazon.nova-lite-v1:0", "@aws-sdk/client-bedrock-runtime"],
  ]) {
    const run = spawnSync(bin, ["-p", "--provider", "amazon-bedrock", "--model", model, "--no-session", "hi"], { cwd: project, encoding: "utf8", env: aws });
    if (!`${run.stdout}${run.stderr}`.includes(`npm install ${pkg}`)) fail(`amazon-bedrock/${model} without ${pkg} did not say to install it:\n${run.stdout}${run.stderr}`);
  }
  console.log("amazon-bedrock without its optional SDKs: both routes name the package to install");
  if (/install-scripts[^\n]*atomic-agent/.test(installLog)) fail(`npm warned about atomic-agent's install scripts:\n${installLog}`);
} catch (error) {
  fail(error.message);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (!process.exitCode) console.log("check-pack: ok");
