/**
 * MCP servers for the tests: the reference servers from the npm registry (server-everything,
 * server-filesystem; pinned dev dependencies, run with this Node, never through npx) and the
 * probe server (test/fixtures/mcp), written into an agent dir's mcp.json; server-everything's
 * HTTP transports on a free loopback port; and readers of what an agent reports.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import type { RecordedRequest } from "../fake-llm/server.js";
import type { RpcClient } from "./rpc-client.js";
import { registerStopper } from "./temp.js";
import { hangTimeout } from "./hang.js";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

export const EVERYTHING = join(packageDir("@modelcontextprotocol/server-everything"), "dist/index.js");
export const FILESYSTEM = join(packageDir("@modelcontextprotocol/server-filesystem"), "dist/index.js");
export const PROBE = resolve(import.meta.dirname, "../fixtures/mcp/probe-server.mjs");

export const everythingStdio = () => ({ command: process.execPath, args: [EVERYTHING, "stdio"] });
/** A stdio server gets only the variables its entry names (and HOME, PATH, ...): the probe's log is named. */
export const probeStdio = (...args: string[]) => ({ command: process.execPath, args: [PROBE, ...args], env: { PROBE_LOG: "${PROBE_LOG:-}" } });

/**
 * The entries with `exposure: "direct"` where they set none: for tests of the model's own calls of
 * MCP tools (the default exposure, as pi 1.6's, is codemode: scripts only).
 */
export function declaredDirectly(servers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(servers).map(([name, entry]) => [name, { exposure: "direct", ...(entry as Record<string, unknown>) }]));
}

export function writeMcpJson(dir: string, servers: Record<string, unknown>, file = join(dir, "mcp.json")): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** A loopback port nothing listens on (bound, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** server-everything over streamable HTTP (`/mcp`) or the older SSE transport (`/sse`). */
export async function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  const unregister = registerStopper(stop);
  await new Promise<void>((ready, fail) => {
    let text = "";
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (/listening on port|running on port/i.test(text)) ready();
    });
    child.once("exit", (code) => fail(new Error(`server-everything ${mode} exited (${code}): ${text}`)));
  });
  return {
    url: `http://127.0.0.1:${port}${mode === "sse" ? "/sse" : "/mcp"}`,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}

export interface ServerReport {
  name: string;
  state: string;
  transport: string;
  error?: string;
  tools: { name: string; toolName: string; exposure: string; loaded: boolean }[];
  [key: string]: unknown;
}

/** Polls get_mcp_servers until `done` holds (or fails after `timeoutMs`). */
export async function waitForServers(client: RpcClient, done: (servers: ServerReport[]) => boolean, timeoutMs?: number): Promise<{ servers: ServerReport[]; errors: string[] }> {
  const deadline = Date.now() + hangTimeout(timeoutMs);
  for (;;) {
    const status = (await client.ok({ type: "get_mcp_servers" })) as { servers: ServerReport[]; errors: string[] };
    if (done(status.servers)) return status;
    if (Date.now() > deadline) throw new Error(`MCP servers did not get there: ${JSON.stringify(status)}\nstderr: ${client.stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const allConnected =
  (...names: string[]) =>
  (servers: ServerReport[]) =>
    names.every((name) => servers.find((server) => server.name === name)?.state === "connected");

/** The tool names a Chat Completions request declared. */
export function declaredTools(request: RecordedRequest): string[] {
  return ((request.body?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
}

/** The text of the tool results in a Chat Completions request, in order. */
export function toolResults(request: RecordedRequest): string[] {
  return ((request.body?.messages ?? []) as { role: string; content: unknown }[])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** The probe server's event log (PROBE_LOG), one object per line. */
export function probeEvents(path: string): { pid: number; event: string; [key: string]: unknown }[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}
