/**
 * Sibling agents (one host's `openSibling`, as ACP sessions and `atomic serve` agents) configured
 * with the same MCP server share one server process, each with the server's tools; a sibling that
 * goes leaves it to the others and the last one closes it. A different configuration (another
 * working folder, another environment) is another process. Real probe servers over stdio.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost, type HostRuntime } from "../../host/index.js";

const PROBE = resolve(import.meta.dirname, "../../test/fixtures/mcp/probe-server.mjs");

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// A stdio server gets only the variables its entry names (docs/mcp.md): PROBE_LOG by reference.
const probe = (name = "probe") => ({ command: process.execPath, args: [PROBE], env: { PROBE_NAME: name, PROBE_LOG: "${PROBE_LOG}" } });

async function setup() {
  const root = mkdtempSync(join(tmpdir(), "atomic-mcp-shared-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const log = join(root, "probe.log");
  const work = join(root, "work");
  const other = join(root, "other");
  for (const folder of [work, other]) mkdirSync(folder);
  writeFileSync(join(root, "mcp.json"), JSON.stringify({ mcpServers: { probe: probe() } }));
  const host = await createHost({
    cwd: work,
    agentDir: root,
    env: { ...process.env, PROBE_LOG: log },
    plugins: BUILTIN_PLUGINS,
    cli: { provider: "replay", model: "demo", noSession: true },
    installDir: resolve(import.meta.dirname, "../.."),
    readSettingsFiles: false,
    userPlugins: false,
    log: { info() {}, warn() {}, error() {} },
  });
  cleanups.push(() => host.shutdown("exit"));
  const open = async (cwd: string) => {
    const sibling = await host.openSibling({ cwd });
    cleanups.push(() => sibling.shutdown("exit"));
    return sibling;
  };
  const starts = () => {
    try {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { pid: number; event: string });
    } catch {
      return [];
    }
  };
  const pids = () => [
    ...new Set(
      starts()
        .filter((event) => event.event === "start")
        .map((event) => event.pid),
    ),
  ];
  return { host, open, work, other, pids };
}

async function connected(agent: HostRuntime): Promise<void> {
  for (;;) {
    const response = (await agent.send({ type: "get_mcp_servers" })) as { data: { servers: { state: string }[] } };
    if (response.data.servers.length > 0 && response.data.servers.every((server) => server.state === "connected")) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function echo(agent: HostRuntime, tool: string, text: string): Promise<string> {
  // Registered once the connection listed its tools (for a later sibling: just after it joined).
  while (!agent.kernel.tools.get(tool)) await new Promise((resolve) => setTimeout(resolve, 10));
  const result = await agent.kernel.tools.get(tool)!.execute({ text }, { toolCallId: "t", signal: new AbortController().signal, cwd: agent.config.cwd, onUpdate() {} });
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("MCP connections shared by sibling agents", () => {
  it("one server process for agents configured alike, each offered its tools; the last agent to go closes it", async () => {
    const { host, open, work, pids } = await setup();
    const siblings = [await open(work), await open(work)];
    for (const agent of [host, ...siblings]) await connected(agent);
    for (const [i, agent] of [host, ...siblings].entries()) expect(await echo(agent, "mcp__probe__echo", `from ${i}`)).toBe(`echo: from ${i}`);
    expect(pids()).toHaveLength(1);
    const [pid] = pids() as [number];
    await host.shutdown("exit");
    await siblings[0]!.shutdown("exit");
    expect(await echo(siblings[1]!, "mcp__probe__echo", "still here")).toBe("echo: still here");
    expect(alive(pid)).toBe(true);
    await siblings[1]!.shutdown("exit");
    await gone(pid);
  });

  it("another working folder or another environment is another server process", async () => {
    const { host, open, work, other, pids } = await setup();
    const elsewhere = await open(other);
    await connected(host);
    await connected(elsewhere);
    expect(pids()).toHaveLength(2);
    // A client's server: the same entry in two agents is one process, a different one another.
    const here = await open(work);
    for (const agent of [host, here]) await agent.send({ type: "add_mcp_servers", servers: { extra: probe("extra") } });
    await elsewhere.send({ type: "add_mcp_servers", servers: { extra: probe("other extra") } });
    for (const agent of [host, here, elsewhere]) await connected(agent);
    expect(await echo(here, "mcp__extra__echo", "x")).toBe("echo: x");
    expect(pids()).toHaveLength(4);
  });
});

describe("a shared flood", () => {
  it("every agent sharing the connection caps what it offers directly and keeps the rest reachable", async () => {
    const root = mkdtempSync(join(tmpdir(), "atomic-mcp-shared-flood-"));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const flood = resolve(import.meta.dirname, "../../test/fixtures/mcp/flood-server.mjs");
    writeFileSync(join(root, "mcp.json"), JSON.stringify({ mcpServers: { flood: { command: process.execPath, args: [flood, "--tools", "300", "--description-bytes", "2048"] } } }));
    const warnings: string[] = [];
    const host = await createHost({
      cwd: root,
      agentDir: root,
      env: process.env,
      plugins: BUILTIN_PLUGINS,
      cli: { provider: "replay", model: "demo", noSession: true },
      installDir: resolve(import.meta.dirname, "../.."),
      readSettingsFiles: false,
      userPlugins: false,
      log: { info() {}, warn: (message: string) => warnings.push(message), error() {} },
    });
    cleanups.push(() => host.shutdown("exit"));
    const sibling = await host.openSibling({ cwd: root });
    cleanups.push(() => sibling.shutdown("exit"));
    for (const agent of [host, sibling]) {
      while (!agent.kernel.tools.get("mcp__flood__tool_299")) await new Promise((resolve) => setTimeout(resolve, 20));
      const offered = agent.kernel.tools.activeNames().filter((name) => name.startsWith("mcp__flood__"));
      expect(offered.length).toBeGreaterThan(0);
      expect(offered.length).toBeLessThanOrEqual(64);
      // Past the cap: registered for tool_search and codemode scripts, not offered.
      expect(agent.kernel.tools.isActive("mcp__flood__tool_299")).toBe(false);
      expect(agent.kernel.tools.isCallable("mcp__flood__tool_299")).toBe(true);
    }
    const response = (await sibling.send({ type: "get_mcp_servers" })) as { data: { servers: { tools: { name: string; capped?: boolean }[] }[] } };
    expect(response.data.servers[0]!.tools.find((tool) => tool.name === "tool_299")).toMatchObject({ capped: true });
  }, 60_000);
});
