/**
 * The MCP SDK loads only when there is a server to run: a process without MCP servers never
 * compiles the bundle chunk that holds the SDK's client, nor the plugin's runtime (the compile
 * cache a process leaves lists every chunk it ran); one with a configured server does, after
 * answering its first command.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allConnected, probeStdio, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const CHUNKS = resolve(import.meta.dirname, "../dist/cli/bundle/chunks");

function chunksHolding(text: string): string[] {
  return readdirSync(CHUNKS).filter((name) => readFileSync(join(CHUNKS, name), "latin1").includes(text));
}

/** The compile cache in its default folder, the agent dir's (not the test run's shared one). */
const DEFAULT_FOLDER = { ATOMIC_COMPILE_CACHE: undefined };

function compiled(agentDir: string): string[] {
  const root = join(agentDir, "cache", "compile");
  return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((file) => file.replace(/\.bin$/, "")));
}

describe("MCP loads lazily", () => {
  const sdk = chunksHolding("notifications/initialized");
  const runtime = chunksHolding("MCP servers whose tools are not loaded yet");

  it("the bundle keeps the SDK and the plugin's runtime in chunks of their own", () => {
    expect(sdk.length).toBeGreaterThan(0);
    expect(runtime.length).toBeGreaterThan(0);
    expect([...sdk, ...runtime].some((name) => name.startsWith("startup-"))).toBe(false);
  });

  it("without MCP servers neither is ever loaded; with one, both are", async () => {
    const none = new RpcClient({ agentDir: tempDir("atomic-mcp-"), env: DEFAULT_FOLDER });
    await none.ok({ type: "get_state" });
    // Past the moment a configured server would start.
    await new Promise((r) => setTimeout(r, 500));
    expect(await none.ok({ type: "get_mcp_servers" })).toEqual({ servers: [], errors: [] });
    await none.close();
    const loaded = compiled(none.agentDir);
    expect(loaded.some((name) => name.startsWith("startup-"))).toBe(true);
    expect(loaded.filter((name) => sdk.includes(name) || runtime.includes(name))).toEqual([]);

    const agentDir = tempDir("atomic-mcp-");
    writeMcpJson(agentDir, { probe: probeStdio() });
    const one = new RpcClient({ agentDir, env: DEFAULT_FOLDER });
    await waitForServers(one, allConnected("probe"));
    await one.close();
    expect(compiled(agentDir)).toEqual(expect.arrayContaining([...sdk, ...runtime]));
  });
});
