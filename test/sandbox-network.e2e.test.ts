/**
 * The sandbox's network and its failure to start, over the built CLI. With `network:
 * ["127.0.0.1"]` a command reaches a loopback server through the agent's allow-listing proxy
 * (plain HTTP and CONNECT, via HTTP_PROXY as any client would), and nothing else: another name
 * gets the proxy's 403, a direct connection finds no network. When bubblewrap is missing or
 * cannot create namespaces, the agent says so and what to do, and runs no command at all.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { describeWithBwrap, sandboxLayout, type SandboxLayout } from "./helpers/sandbox.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) await client.close();
});

async function start(dirs: SandboxLayout, settings: Record<string, unknown>, env: Record<string, string | undefined> = {}): Promise<RpcClient> {
  await writeModelsJson(dirs.agentDir, fake.url);
  const client = new RpcClient({
    agentDir: dirs.agentDir,
    cwd: dirs.workspace,
    args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"],
    settings,
    env: { HOME: dirs.home, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, ...env },
  });
  clients.push(client);
  return client;
}

type End = { toolCallId: string; isError: boolean; result: { content: { text?: string }[] } };

async function runCommands(client: RpcClient, commands: Record<string, string>): Promise<Map<string, { isError: boolean; text: string }>> {
  fake.script({ toolCalls: Object.entries(commands).map(([id, command]) => ({ id, name: "bash", args: { command } })) }, { text: "done" });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "try" });
  await client.waitForEvent("agent_settled", 60_000, from);
  const ends = client.records.slice(from).filter((r) => r.type === "tool_execution_end") as unknown as End[];
  return new Map(ends.map((end) => [end.toolCallId, { isError: end.isError, text: end.result.content.map((block) => block.text ?? "").join("") }]));
}

/** A client that goes through $HTTP_PROXY by hand (plain `GET http://...`, or CONNECT then GET), as proxy-aware tools do. */
const CLIENT = `
const http = require("node:http");
const [how, target] = process.argv.slice(2);
const proxy = new URL(process.env.HTTP_PROXY);
const done = (label, body) => { console.log(label, body.trim()); };
const fail = (error) => { console.log("failed", error.code || error.message); process.exitCode = 7; };
if (how === "direct") http.get(target, (r) => done("status " + r.statusCode, "")).on("error", fail);
if (how === "get") {
  http.get({ host: proxy.hostname, port: proxy.port, path: target }, (r) => { let b = ""; r.on("data", (c) => (b += c)); r.on("end", () => done("status " + r.statusCode, b)); }).on("error", fail);
}
if (how === "connect") {
  http.request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: target }).on("connect", (res, socket, head) => {
    if (res.statusCode !== 200) { let b = head.toString(); socket.on("data", (c) => (b += c)); socket.on("end", () => done("status " + res.statusCode, b)); return; }
    socket.write("GET / HTTP/1.1\\r\\nHost: " + target + "\\r\\nConnection: close\\r\\n\\r\\n");
    let b = ""; socket.on("data", (c) => (b += c)); socket.on("end", () => done("tunnel", b.split("\\r\\n\\r\\n")[1] || ""));
  }).on("error", fail).end();
}
`;

describeWithBwrap("sandboxed network allow-list", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => response.end("hello from loopback\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('network: ["127.0.0.1"] reaches the allowed host through the proxy, and no other', async () => {
    const dirs = sandboxLayout();
    writeFileSync(join(dirs.workspace, "client.cjs"), CLIENT);
    const c = await start(dirs, { sandbox: { mode: "workspace-write", network: ["127.0.0.1"] } });
    const run = (how: string, target: string) => `${JSON.stringify(process.execPath)} client.cjs ${how} ${target}`;
    const hasCurl = spawnSync("curl", ["--version"]).status === 0;
    const results = await runCommands(c, {
      get: run("get", `http://127.0.0.1:${port}/`),
      connect: run("connect", `127.0.0.1:${port}`),
      otherName: run("get", `http://localhost:${port}/`),
      publicName: run("connect", "example.com:443"),
      direct: run("direct", `http://127.0.0.1:${port}/`),
      ...(hasCurl ? { curl: `curl -sS http://127.0.0.1:${port}/ && curl -sS http://example.com/ 2>&1` } : {}),
    });
    expect(results.get("get")).toEqual({ isError: false, text: "status 200 hello from loopback\n" });
    expect(results.get("connect")).toEqual({ isError: false, text: "tunnel hello from loopback\n" });
    expect(results.get("otherName")?.text).toContain(`status 403 blocked by the sandbox: network access to localhost:${port} is not allowed (allowed: 127.0.0.1)`);
    expect(results.get("publicName")?.text).toContain("status 403 blocked by the sandbox: network access to example.com:443 is not allowed (allowed: 127.0.0.1)");
    expect(results.get("direct")?.isError).toBe(true);
    expect(results.get("direct")?.text).toContain("failed ECONNREFUSED");
    if (hasCurl) expect(results.get("curl")?.text).toBe("hello from loopback\nblocked by the sandbox: network access to example.com is not allowed (allowed: 127.0.0.1)\n");
    expect((await c.ok({ type: "get_state" })).sandbox).toMatchObject({ network: ["127.0.0.1"] });
  });

  it("reaches it too when the agent's temp dir is too long a path for the proxy's socket", async () => {
    const dirs = sandboxLayout();
    writeFileSync(join(dirs.workspace, "client.cjs"), CLIENT);
    // Past the 108 bytes of a socket's path (macOS: 104): Node 20 cut it short without an error.
    const longTmp = join(tempDir("atomic-long-tmp-"), "a-temp-folder-whose-path-is-longer-than-a-unix-socket-may-be", "x".repeat(40));
    mkdirSync(longTmp, { recursive: true });
    const c = await start(dirs, { sandbox: { mode: "workspace-write", network: ["127.0.0.1"] } }, { TMPDIR: longTmp });
    const results = await runCommands(c, { get: `${JSON.stringify(process.execPath)} client.cjs get http://127.0.0.1:${port}/` });
    expect(results.get("get")).toEqual({ isError: false, text: "status 200 hello from loopback\n" });
  });
});

describe("a sandbox that cannot start", () => {
  const attempt = async (bin: string) => {
    const dirs = sandboxLayout();
    const c = await start(dirs, { sandbox: { mode: "workspace-write" } }, { PATH: bin });
    const results = await runCommands(c, { touch: "touch ran-unconfined" });
    const state = (await c.ok({ type: "get_state" })).sandbox as { unavailable?: string };
    await c.close();
    expect(existsSync(join(dirs.workspace, "ran-unconfined"))).toBe(false);
    return { result: results.get("touch")!, state, stderr: c.stderr };
  };

  it("without bubblewrap: says what to install, refuses every command", async () => {
    const empty = join(sandboxLayout().root, "bin");
    mkdirSync(empty);
    const { result, state, stderr } = await attempt(empty);
    const reason = "the sandbox cannot start: bubblewrap (bwrap) is not installed; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap;";
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`blocked by the sandbox: ${reason}`);
    expect(result.text).toContain("The command was not run.");
    expect(state.unavailable).toContain(reason);
    expect(stderr).toContain(`Sandbox workspace-write: ${reason}`);
  });

  it("without user namespaces: says so, refuses every command", async () => {
    const bin = join(sandboxLayout().root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    const { result, state } = await attempt(bin);
    expect(result.text).toContain(
      `blocked by the sandbox: the sandbox cannot start: ${join(bin, "bwrap")} cannot create its namespaces here (bwrap: No permissions to create a new namespace); allow unprivileged user namespaces`,
    );
    expect(state.unavailable).toContain("allow unprivileged user namespaces");
  });
});
