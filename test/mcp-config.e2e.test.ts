/**
 * MCP configuration through the built CLI: an untrusted project's .atomic/mcp.json is never read
 * (one stderr line) and nothing in it starts; a trusted one adds servers and may switch a user
 * server off; invalid entries are reported naming the file and key path while the rest connect;
 * `${VAR}` references; `--no-mcp`; `add_mcp_servers`; and `atomic mcp add|list|test|remove`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allConnected, probeEvents, probeStdio, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function start(options: { agentDir: string; cwd?: string; args?: string[]; env?: Record<string, string> }): RpcClient {
  const client = new RpcClient({
    agentDir: options.agentDir,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", ...(options.args ?? [])],
    env: options.env ?? {},
  });
  clients.push(client);
  return client;
}

function project(): { agentDir: string; cwd: string; log: string } {
  const agentDir = tempDir("atomic-mcp-");
  const cwd = tempDir("atomic-mcp-project-");
  writeMcpJson(agentDir, { mine: probeStdio("--stderr", "mine") });
  writeMcpJson(cwd, { theirs: probeStdio("--stderr", "theirs"), mine: { enabled: false } }, join(cwd, ".atomic", "mcp.json"));
  return { agentDir, cwd, log: join(agentDir, "probe.log") };
}

const startedWith = (log: string) =>
  probeEvents(log)
    .filter((event) => event.event === "start")
    .map((event) => (event.argv as string[]).at(-1));

describe("MCP configuration", () => {
  it("an untrusted project's mcp.json is never read: one stderr line, nothing of it starts", async () => {
    const { agentDir, cwd, log } = project();
    const client = start({ agentDir, cwd, env: { PROBE_LOG: log } });
    const { servers } = await waitForServers(client, allConnected("mine"));
    expect(servers.map((server) => server.name)).toEqual(["mine"]);
    const lines = client.stderr.split("\n").filter((line) => line.includes(".atomic/mcp.json"));
    expect(lines).toEqual([
      `[atomic] warning: mcp: ${join(cwd, ".atomic", "mcp.json")} not read: the project is not trusted (start with --approve, or add the folder to trustedProjects in ${join(agentDir, "settings.json")})`,
    ]);
    expect(startedWith(log)).toEqual(["mine"]);
  });

  it("a trusted project adds its servers and its override switches a user server off", async () => {
    const { agentDir, cwd, log } = project();
    const client = start({ agentDir, cwd, args: ["--approve"], env: { PROBE_LOG: log } });
    const { servers } = await waitForServers(client, allConnected("theirs"));
    expect(servers.map((server) => [server.name, server.source, server.state])).toEqual([
      ["mine", "user", "disabled"],
      ["theirs", "project", "connected"],
    ]);
    expect(servers[0]!.origin).toBe(`${join(agentDir, "mcp.json")} (overridden by ${join(cwd, ".atomic", "mcp.json")})`);
    expect(startedWith(log)).toEqual(["theirs"]);
  });

  it("invalid entries are reported with file and key path; ${VAR} resolves, an unset one fails its server only", async () => {
    const agentDir = tempDir("atomic-mcp-");
    const file = writeMcpJson(agentDir, {
      good: { ...probeStdio(), env: { PROBE_NAME: "${PROBE_SERVER_NAME}" } },
      unset: { ...probeStdio(), env: { TOKEN: "${NOT_SET_ANYWHERE}" } },
      badArgs: { command: "node", args: "not-a-list" },
      neither: { description: "no command, no url" },
      oauth: { url: "https://example.invalid/mcp", oauth: { clientId: "x" } },
      "bad name": { command: "node" },
    });
    const client = start({ agentDir, env: { PROBE_SERVER_NAME: "named-by-env" } });
    const { servers, errors } = await waitForServers(
      client,
      (list) => list.find((server) => server.name === "good")?.state === "connected" && list.find((server) => server.name === "unset")?.state === "failed",
    );
    expect(errors).toEqual([
      `${file}: Invalid mcpServers.badArgs.args: expected array`,
      `${file}: Invalid mcpServers.neither: expected "command" (a stdio server) or "url" (an HTTP server)`,
      `${file}: Invalid mcpServers.oauth.oauth: OAuth sign-in is not supported by Atomic; send a token in "headers" instead (e.g. "Authorization": "Bearer \${TOKEN}", or \`atomic mcp add --bearer-token-env-var TOKEN\`)`,
      `${file}: Invalid mcpServers.bad name: a server name may contain only letters, digits, "_" and "-"`,
    ]);
    for (const error of errors) expect(client.stderr).toContain(`mcp: ${error} (entry skipped)`);
    expect(servers.find((server) => server.name === "unset")!.error).toBe('MCP server "unset" env.TOKEN: environment variable NOT_SET_ANYWHERE is not set');
    expect(servers.map((server) => server.name)).toEqual(["good", "unset"]);
  });

  it("--no-mcp starts nothing; add_mcp_servers then says MCP is off", async () => {
    const agentDir = tempDir("atomic-mcp-");
    const log = join(agentDir, "probe.log");
    writeMcpJson(agentDir, { probe: probeStdio() });
    const client = start({ agentDir, args: ["--no-mcp"], env: { PROBE_LOG: log } });
    expect(await client.ok({ type: "get_mcp_servers" })).toEqual({ servers: [], errors: [] });
    expect(await client.request({ type: "add_mcp_servers", servers: { probe: probeStdio() } })).toMatchObject({ success: false, error: "MCP is off for this run (--no-mcp)" });
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(log)).toBe(false);
  });

  it("add_mcp_servers checks every entry first, then adds them for this process, over the configured one of the same name", async () => {
    const agentDir = tempDir("atomic-mcp-");
    writeMcpJson(agentDir, { probe: { ...probeStdio(), enabled: false } });
    const client = start({ agentDir });
    const refused = await client.request({ type: "add_mcp_servers", servers: { ok: probeStdio(), broken: { url: "not a url" } } });
    expect(refused).toMatchObject({ success: false, error: "Invalid servers.broken.url: expected an http:// or https:// URL" });
    expect(await client.ok({ type: "add_mcp_servers", servers: { probe: probeStdio() } })).toEqual({ servers: ["probe"] });
    const { servers } = await waitForServers(client, allConnected("probe"));
    expect(servers).toEqual([expect.objectContaining({ name: "probe", source: "client", state: "connected" })]);
    expect(servers[0]!.tools.map((tool) => tool.toolName)).toContain("mcp__probe__echo");
  });
});

describe("atomic mcp", () => {
  it("test gives up on a server that never answers initialize after the mcp.connectTimeout of the settings, and says so", async () => {
    const agentDir = tempDir("atomic-mcp-");
    const cwd = tempDir("atomic-mcp-cwd-");
    writeMcpJson(agentDir, { stuck: probeStdio("--hang") });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ mcp: { connectTimeout: 1 } }));
    // With the 60 s default it would outlast the test's timeout: the message says which limit applied.
    const tested = await runCli(["mcp", "test", "stuck"], { agentDir, cwd });
    expect(tested).toMatchObject({ code: 1, stdout: expect.stringContaining("stuck: failed:") });
    expect(tested.stdout).toContain("within 1 s (settings mcp.connectTimeout)");
  });

  it("add, list, test and remove edit and check mcp.json without starting an agent", async () => {
    const agentDir = tempDir("atomic-mcp-");
    const cwd = tempDir("atomic-mcp-cwd-");
    const run = (...args: string[]) => runCli(["mcp", ...args], { agentDir, cwd, env: { PROBE_NAME: "from-cli" } });
    const added = await run("add", "probe", "--env", "PROBE_NAME=${PROBE_NAME}", "--description", "the probe", "--", process.execPath, probeStdio().args[0]!);
    expect(added).toMatchObject({ code: 0, stdout: `Added MCP server "probe" in ${join(agentDir, "mcp.json")}. Check it with: atomic mcp test probe\n` });
    expect(JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8"))).toEqual({
      mcpServers: { probe: { env: { PROBE_NAME: "${PROBE_NAME}" }, description: "the probe", command: process.execPath, args: [probeStdio().args[0]] } },
    });
    expect((await run("add", "web", "--url", "http://127.0.0.1:9/mcp", "--bearer-token-env-var", "WEB_TOKEN", "-l")).code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, ".atomic", "mcp.json"), "utf8")).mcpServers.web).toEqual({
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer ${WEB_TOKEN}" },
    });

    const listed = await run("list", "--json");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      files: { projectTrusted: false },
      servers: [{ name: "probe", source: "user", transport: "stdio", enabled: true, exposure: "codemode" }],
      errors: [],
    });
    const approved = JSON.parse((await run("list", "--json", "--approve")).stdout);
    expect(approved.servers.map((server: { name: string }) => server.name)).toEqual(["probe", "web"]);

    const tested = await run("test", "probe");
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/^probe: connected over stdio, \d+ tools, resources\n {2}echo: Echoes the text back/);
    const failing = await run("test", "web", "--approve");
    expect(failing).toMatchObject({ code: 1, stdout: 'web: failed: MCP server "web" headers.Authorization: environment variable WEB_TOKEN is not set\n' });

    const invalid = await run("add", "bad", "--url", "ftp://x");
    expect(invalid).toMatchObject({ code: 1, stderr: "Invalid mcpServers.bad.url: expected an http:// or https:// URL\n" });
    expect(await run("remove", "probe")).toMatchObject({ code: 0, stdout: `Removed MCP server "probe" from ${join(agentDir, "mcp.json")}.\n` });
    expect(await run("remove", "probe")).toMatchObject({ code: 1 });
    expect(JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8"))).toEqual({ mcpServers: {} });
    expect((await run("frobnicate")).code).toBe(2);
    // The command without the -- before it: the error shows the line to run, quoted for the shell.
    const withoutSeparator = await run("add", "fs", "npx", "-y", "@modelcontextprotocol/server-filesystem", "my dir");
    expect(withoutSeparator.code).toBe(2);
    expect(withoutSeparator.stderr).toMatch(
      /^atomic mcp add: "npx" is not an option; the server's command goes after --: atomic mcp add fs -- npx -y @modelcontextprotocol\/server-filesystem 'my dir'\nUsage:/,
    );
    expect(JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8"))).toEqual({ mcpServers: {} });
  });
});
