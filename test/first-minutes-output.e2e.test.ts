/**
 * What a new user reads in the first minutes (issue 40, item 7), over the built CLI: the offline
 * demo in print mode shows the listing it talks about; a stdio MCP server's stderr banner stays
 * out of `-p` output (it goes to `<agent dir>/mcp.log`, and to stderr only with `--verbose`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeStdio, writeMcpJson } from "./helpers/mcp.js";
import { runCli, tempDir } from "./helpers/rpc-client.js";

const DEMO = ["-p", "--provider", "replay", "--model", "demo", "--no-session"];

describe("the offline demo in print mode", () => {
  it("shows the folder's listing, not only a sentence about it", async () => {
    const cwd = tempDir("atomic-demo-cwd-");
    for (const name of ["alpha-notes.txt", "beta-plan.md"]) writeFileSync(join(cwd, name), "x");
    const run = await runCli([...DEMO, "What is in this folder?"], { cwd, agentDir: tempDir("atomic-agent-") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("This folder holds:\n\n```\nalpha-notes.txt\nbeta-plan.md\n```\n\nNothing in it was changed.");
  });
});

describe("a replay model with no cassette", () => {
  it("fails its turn naming the models there are and how to record it, not a missing provider", async () => {
    const agentDir = tempDir("atomic-agent-");
    const run = await runCli(["-p", "--provider", "replay", "--model", "my-demo", "--no-session", "hi"], { cwd: tempDir("atomic-cwd-"), agentDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Model "my-demo" is not in the replay catalog');
    expect(run.stderr).toContain(
      `No cassette for replay model "my-demo": the replay models are demo. Record one with a real provider and --record my-demo (written to ${join(agentDir, "cassettes", "my-demo.jsonl")}).`,
    );
    expect(run.stderr).not.toContain("No provider is registered");
  });
});

describe("a --sandbox mode written another way", () => {
  it("is a usage error that names the mode meant, and runs nothing", async () => {
    const run = await runCli([...DEMO, "--sandbox", "workspace", "hi"], { cwd: tempDir("atomic-cwd-"), agentDir: tempDir("atomic-agent-") });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid --sandbox "workspace": expected one of off, read-only, workspace-write (did you mean --sandbox workspace-write?)');
    expect(run.stdout).toBe("");
  });
});

describe("atomic install with a bare package name", () => {
  it("says a missing folder of that name was probably meant as npm:<name>, and configures nothing", async () => {
    const cwd = tempDir("atomic-cwd-");
    const agentDir = tempDir("atomic-agent-");
    const run = await runCli(["install", "pi-subagents"], { cwd, agentDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Path does not exist: ${join(cwd, "pi-subagents")} (for the npm package, write npm:pi-subagents;`);
    expect(() => readFileSync(join(agentDir, "settings.json"), "utf8")).toThrow();
  });
});

describe("a stdio MCP server's stderr in print mode", () => {
  it("goes to <agent dir>/mcp.log, not to the output; --verbose shows it on stderr too", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeMcpJson(agentDir, { probe: probeStdio("--stderr", "PROBE BANNER v1.2 ready on stdio") });
    const cwd = tempDir("atomic-cwd-");

    const quiet = await runCli([...DEMO, "hi"], { cwd, agentDir });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain("PROBE BANNER");
    expect(quiet.stderr).not.toContain("PROBE BANNER");
    expect(readFileSync(join(agentDir, "mcp.log"), "utf8")).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[mcp probe\] PROBE BANNER v1\.2 ready on stdio$/m);

    const verbose = await runCli([...DEMO, "--verbose", "hi"], { cwd, agentDir });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).not.toContain("PROBE BANNER");
    expect(verbose.stderr).toContain("[mcp probe] PROBE BANNER v1.2 ready on stdio\n");
    expect(verbose.stderr).not.toContain("ignoring --verbose");
    expect(readFileSync(join(agentDir, "mcp.log"), "utf8").match(/PROBE BANNER/g)).toHaveLength(2);
  });
});
