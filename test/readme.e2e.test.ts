/**
 * The README as a new user runs it, in this repository after `npm ci`: its Quick start is the two
 * set-up commands `.ci/run` also runs, the demo works and leaves nothing behind, every command of
 * "Using it" and the piped JSONL example work exactly as written, and `npx atomic` runs the
 * existing build at once (npm runs `prepare` for `npx` too: it must not rebuild). The commands run
 * through bash with stdin closed, an empty agent dir and npm cache, no API key, npm offline.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { NODE } from "./helpers/node.js";
import { agentTempDir, tempDir } from "./helpers/temp.js";

const REPO = resolve(import.meta.dirname, "..");
const README = readFileSync(join(REPO, "README.md"), "utf8");
const BUILD = [join(REPO, "dist/cli/atomic.cjs"), join(REPO, "dist/cli/bundle/entry.json")];

/** The commands of the first ```bash block after `heading` (a line of its own, or text), comments and blank lines dropped. */
function commandsUnder(heading: string): string[] {
  const at = README.indexOf(`\n${heading}\n`);
  expect(at >= 0 || README.includes(heading), heading).toBe(true);
  const section = README.slice(at >= 0 ? at : README.indexOf(heading));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split("\n")
    .map((line) => line.replace(/\s{2,}#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function runAsWritten(command: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const env = {
    ...process.env,
    ATOMIC_CODING_AGENT_DIR: tempDir("atomic-readme-agent-"),
    // npm (its compile cache on Node >= 22) and the agent keep their temp files in this file's folder.
    TMPDIR: agentTempDir(),
    npm_config_cache: tempDir("atomic-readme-npm-"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    // `npx atomic` runs the bin through `#!/usr/bin/env node`: the Node under test first on PATH.
    PATH: `${dirname(NODE)}:${process.env.PATH}`,
    ANTHROPIC_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    GEMINI_API_KEY: undefined,
  };
  return new Promise((resolvePromise) => {
    const child = spawn("bash", ["-c", command], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe("the README", () => {
  it("Quick start is two set-up commands; `.ci/run` runs the same test command after `npm ci`", () => {
    const commands = commandsUnder("## Quick start");
    expect(commands).toEqual(["npm ci && npm run demo", "npm test"]);
    const ci = readFileSync(join(REPO, ".ci/run"), "utf8");
    expect(ci.indexOf("\nnpm test\n")).toBeGreaterThan(ci.indexOf("\nnpm ci "));
    expect(JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).scripts.demo).toBe("node scripts/demo.mjs");
  });

  it("`npm ci` installs quietly: every dependency with an install script has a decision in `allowScripts`", () => {
    // npm >= 11.19 blocks dependency install scripts it has no decision for, and ends every install
    // with a list of them; the README tells a new user the install is quiet but for EBADENGINE.
    const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = [...new Set(withScripts)].filter((name) => typeof manifest.allowScripts?.[name] !== "boolean");
    expect(undecided, "run `npm install-scripts ls`, then approve or deny each").toEqual([]);
    expect(README).toContain("EBADENGINE");
  });

  it("`npm run demo` plays the scripted session, shows the file it wrote and removes its folders", async () => {
    const { stdout } = await promisify(execFile)(NODE, [join(REPO, "scripts/demo.mjs")], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
    const folder = /working folder (\S+)/.exec(stdout)![1]!;
    expect(stdout).toContain("tool write");
    expect(stdout).toContain("# Hello from Atomic");
    expect(existsSync(folder)).toBe(false);
  }, 70_000);

  it('every command of "Using it" works as written, and `npx atomic` rebuilds nothing', async () => {
    const before = BUILD.map((file) => statSync(file).mtimeMs);
    const commands = commandsUnder("## Using it");
    expect(commands.length).toBeGreaterThanOrEqual(10);
    for (const command of commands) {
      const run = await runAsWritten(command);
      expect(run.code, `${command}\n${run.stderr}`).toBe(0);
      expect(run.stderr, command).not.toMatch(/\n\s+at |npm error/);
      // The build's files' times (below) prove nothing was rebuilt.
      if (command.includes(" -p ")) expect(run.stdout, command).toMatch(/nothing in it was changed/i);
    }
    expect(BUILD.map((file) => statSync(file).mtimeMs)).toEqual(before);
  }, 900_000);

  it("the piped JSONL example answers as written: every record a JSON line, the answer complete", async () => {
    const [command] = commandsUnder("One prompt from a shell:");
    expect(command).toMatch(/^npx atomic --mode json /);
    const run = await runAsWritten(command!);
    expect(run.code, run.stderr).toBe(0);
    const records = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; toolName?: string; messages?: { role: string; stopReason?: string }[] });
    expect(records[0]).toMatchObject({ type: "session", cwd: REPO });
    expect(records.find((record) => record.type === "tool_execution_start")).toMatchObject({ toolName: "bash" });
    expect(records.at(-1)).toEqual({ type: "agent_settled", aborted: false });
    expect(records.at(-2)!.type).toBe("agent_end");
    expect(records.at(-2)!.messages!.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  }, 70_000);
});
