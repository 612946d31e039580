/**
 * `atomic serve`'s command line over the built CLI: its flags given to another mode are a usage
 * error naming `atomic serve` (they would do nothing there), as `--connect` is one with `atomic
 * serve`; `atomic serve --help` and `atomic schema --help` are their own, not the general help.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers/rpc-client.js";

function folders(): { agentDir: string; cwd: string } {
  return { agentDir: tempDir("atomic-agent-"), cwd: tempDir("atomic-cwd-") };
}

describe("atomic serve's flags and help", () => {
  it("--listen, --web and --allow-remote outside `atomic serve` exit 2 naming it", async () => {
    const cases: [string[], string][] = [
      [["--mode", "rpc", "--listen", "ws://127.0.0.1:0", "--web", "--allow-remote"], "--listen, --web and --allow-remote work with `atomic serve` (got --mode rpc)"],
      [["--listen", "unix:"], "--listen works with `atomic serve` (got --mode rpc)"],
      [["-p", "hi", "--web"], "--web works with `atomic serve` (got --mode print)"],
      [["--mode", "acp", "--allow-remote"], "--allow-remote works with `atomic serve` (got --mode acp)"],
    ];
    for (const [args, message] of cases) {
      const { agentDir, cwd } = folders();
      const run = await runCli([...args, "--provider", "replay", "--model", "demo"], { agentDir, cwd });
      expect(run).toEqual({ code: 2, stdout: "", stderr: `atomic: ${message}; see atomic serve --help\n` });
    }
    const refused = await runCli(["serve", "--connect", "unix:"], folders());
    expect(refused.code).toBe(2);
  });

  it('settings `mode: "serve"` makes them the server\'s', async () => {
    const { agentDir, cwd } = folders();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ mode: "serve" }));
    // stdio listens: the end of stdin (runCli closes it) shuts the server down.
    const run = await runCli(["--listen", "stdio", "--provider", "replay", "--model", "demo"], { agentDir, cwd });
    expect(run.stderr).not.toContain("works with `atomic serve`");
    expect(run.stdout).toContain('"type":"server_hello"');
    expect(run.code).toBe(0);
  });

  it("atomic serve --help shows its flags and its settings with their defaults; atomic schema --help its own", async () => {
    for (const args of [
      ["serve", "--help"],
      ["serve", "-h"],
      ["--mode", "serve", "--help"],
    ]) {
      const run = await runCli(args, folders());
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: atomic serve /);
      for (const line of [/^ {2}--listen <url> /m, /^ {2}--web /m, /^ {2}--allow-remote /m, /^ {2}maxAgents .* default 32$/m, /^ {2}idleUnloadMs .* default 1800000 \(30 min\)$/m])
        expect(run.stdout).toMatch(line);
      expect(run.stdout).not.toContain("--list-models");
    }
    const schema = await runCli(["schema", "--help"], folders());
    expect(schema.code).toBe(0);
    expect(schema.stdout).toMatch(/^Usage: atomic schema \[options\]\n/);
    const general = await runCli(["--help"], folders());
    expect(general.stdout).toContain("atomic serve [--listen URL]...");
    expect(general.stdout).toContain("(atomic serve --help)");
  });
});
