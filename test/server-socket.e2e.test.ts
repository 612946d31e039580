/**
 * `atomic serve`: unix socket hygiene (issue 34; docs/decisions.md, Security). The socket is 0600
 * (the default folder 0700), a stale socket is replaced, a live one refuses a second server, a
 * path that is something else is left alone with a clear error, and the file is gone at exit.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE } from "./helpers/node.js";
import { runCli } from "./helpers/rpc-client.js";
import { ServerProcess, tempDir } from "./helpers/server.js";

/** A socket file nobody listens on: a process bound it and was killed before it could remove it. */
async function staleSocket(path: string): Promise<void> {
  const child = spawn(NODE, ["-e", `require("node:net").createServer().listen(${JSON.stringify(path)}, () => console.log("up"))`], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  expect(statSync(path).isSocket()).toBe(true);
}

describe("atomic serve: the unix socket", { timeout: 60_000 }, () => {
  it("is 0600 in a 0700 default folder, and removed at exit", async () => {
    const server = await ServerProcess.start();
    expect(statSync(server.socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(server.agentDir, "serve")).mode & 0o777).toBe(0o700);
    expect(await server.stop()).toEqual({ code: 143, signal: null });
    expect(() => statSync(server.socket)).toThrow();
  });

  it("a path given by the user gets a 0600 socket too; a stale socket there is replaced", async () => {
    const folder = tempDir("atomic-sock-");
    const path = join(folder, "s.sock");
    await staleSocket(path);
    const server = await ServerProcess.start({ listen: [`unix:${path}`] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const client = await server.connect(path);
    expect((await client.ok({ type: "server_info" })).listeners).toEqual([`unix:${path}`]);
  });

  it("a live server refuses a second one on its socket; a path that is a regular file is never touched", async () => {
    const server = await ServerProcess.start();
    const second = await runCli(["serve", "--listen", "unix:"], { cwd: server.cwd, agentDir: server.agentDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`atomic serve is already running at ${server.socket}`);
    // The first one still serves.
    expect(await (await server.connect()).ok({ type: "server_info" })).toMatchObject({ protocol: 1 });

    const folder = tempDir("atomic-sock-");
    const file = join(folder, "notes.txt");
    writeFileSync(file, "keep me");
    const refused = await runCli(["serve", "--listen", `unix:${file}`], { cwd: folder, agentDir: folder });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Cannot listen on ${file}: it exists and is a regular file; remove it or choose another path`);
    expect(readFileSync(file, "utf8")).toBe("keep me");
    mkdirSync(join(folder, "dir.sock"));
    expect((await runCli(["serve", "--listen", `unix:${join(folder, "dir.sock")}`], { cwd: folder, agentDir: folder })).stderr).toContain("it exists and is a folder");
  });

  it("listener URLs it cannot serve are usage errors (exit 2)", async () => {
    const folder = tempDir("atomic-sock-");
    for (const [url, message] of [
      ["tcp://127.0.0.1:1", 'Invalid --listen "tcp://127.0.0.1:1": expected stdio, unix:PATH or ws://HOST:PORT'],
      // A bare port, what a user new to it writes for a network server: the URL it needs.
      ["8080", 'Invalid --listen "8080": expected stdio, unix:PATH or ws://HOST:PORT (did you mean --listen ws://127.0.0.1:8080?)'],
    ]) {
      const run = await runCli(["serve", "--listen", url!], { cwd: folder, agentDir: folder });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
    const twice = await runCli(["serve", "--listen", "stdio", "--listen", "stdio"], { cwd: folder, agentDir: folder });
    expect(twice).toMatchObject({ code: 2, stderr: expect.stringContaining("--listen stdio is given twice") });
    // What a user new to it tries first for a network server.
    const port = await runCli(["serve", "--port", "8080"], { cwd: folder, agentDir: folder });
    expect(port).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option: --port (did you mean --listen?)") });
  });
});
