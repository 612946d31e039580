/**
 * The built CLI with extensions (`-e` paths) on the loopback fake LLM (OpenAI Chat wire format),
 * plus readers for what extensions do over RPC: UI requests, what the model was sent, tool results.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach } from "vitest";
import type { FakeLlm, RecordedRequest } from "../fake-llm/server.js";
import { writeModelsJson } from "../fake-llm/server.js";
import { useFakeLlm } from "./use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./rpc-client.js";
import { hangTimeout } from "./hang.js";
import { seededTranspileCache } from "./transpile-cache.js";

const TRANSPILE_CACHE = "extension-agents";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

export interface ExtensionAgentOptions {
  extensions: string[];
  /** Extra CLI arguments (after the -e paths). */
  args?: string[];
  env?: Record<string, string | undefined>;
  settings?: Record<string, unknown>;
  cwd?: string;
  agentDir?: string;
  /** Default: fake-openai/fake-1. */
  model?: string;
  /** More models.json providers beside the fake LLM's (a provider's base URL pointed at it). */
  providers?: Record<string, unknown>;
}

/**
 * One fake LLM for the file's tests; after each test its clients are stopped and the server's
 * recorded requests and default answer reset, so tests pass in any order.
 */
export function useExtensionAgents(clients: RpcClient[]): FakeLlm {
  const fake = useFakeLlm();
  afterEach(async () => {
    for (const client of clients.splice(0)) await stopAgent(client);
    fake.setDefault({ text: "ok" });
  });
  return fake;
}

/** What keeps an agent's transpile cache once it has stopped (agents whose extensions all stay between runs). */
const keepers = new WeakMap<RpcClient, () => void>();

export async function startExtensionAgent(fake: FakeLlm, options: ExtensionAgentOptions): Promise<RpcClient> {
  const agentDir = options.agentDir ?? tempDir("atomic-agent-");
  // The agent's jiti cache (<agent dir>/cache/jiti) seeded from the one kept between runs: a cold
  // one makes each agent load jiti's Babel and transpile, ~0.4 s of CPU, even for one small file.
  // Kept only from agents whose extensions are all files of the repository: a test's own temp
  // files would only grow the kept cache.
  const keep = seededTranspileCache(TRANSPILE_CACHE, join(agentDir, "cache", "jiti"));
  const modelsJson = await writeModelsJson(agentDir, fake.url);
  if (options.providers) {
    const json = JSON.parse(readFileSync(modelsJson, "utf8")) as { providers: Record<string, unknown> };
    writeFileSync(modelsJson, JSON.stringify({ ...json, providers: { ...json.providers, ...options.providers } }));
  }
  const args = [
    "--mode",
    "rpc",
    "--no-session",
    ...(options.model === "" ? [] : ["--model", options.model ?? "fake-openai/fake-1"]),
    ...options.extensions.flatMap((path) => ["-e", path]),
    ...(options.args ?? []),
  ];
  const client = new RpcClient({
    agentDir,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    env: { ...NO_KEYS, ...options.env },
    args,
  });
  if (options.extensions.every((path) => !resolve(path).startsWith(tmpdir()))) keepers.set(client, keep);
  return client;
}

/** Kills the process if needed and removes its folders. */
export async function stopAgent(client: RpcClient): Promise<void> {
  if (client.child.exitCode === null) client.child.kill("SIGKILL");
  await client.exited;
  keepers.get(client)?.();
  for (const dir of [client.agentDir, client.cwd]) rmSync(dir, { recursive: true, force: true });
}

/** Resolves once stderr (read asynchronously from stdout) contains `text`. */
export async function stderrContains(client: RpcClient, text: string, timeoutMs?: number): Promise<void> {
  const deadline = Date.now() + hangTimeout(timeoutMs);
  while (!client.stderr.includes(text)) {
    if (Date.now() > deadline) throw new Error(`stderr never contained ${JSON.stringify(text)}; it has:\n${client.stderr.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const isUi = (method: string) => (r: Record_) => r.type === "extension_ui_request" && r.method === method;

/** The next UI request of `method` (from `from` on). */
export function uiRequest(client: RpcClient, method: string, from = 0, timeoutMs?: number): Promise<Record_> {
  return client.waitFor(isUi(method), timeoutMs, from);
}

/** The next notify request whose message matches. */
export function notified(client: RpcClient, text: string | RegExp, from = 0): Promise<Record_> {
  return client.waitFor((r) => isUi("notify")(r) && (typeof text === "string" ? r.message === text : text.test(String(r.message))), undefined, from);
}

export async function promptSettled(client: RpcClient, message: string): Promise<number> {
  const from = client.records.length;
  const response = await client.request({ type: "prompt", message });
  if (!response.success) throw new Error(`prompt rejected: ${String(response.error)}`);
  await client.waitForEvent("agent_end", 15_000, from);
  return from;
}

type WireMessage = { role: string; content: string | { type: string; text?: string }[] | null };
export const wireText = (message: WireMessage) => (typeof message.content === "string" ? message.content : (message.content ?? []).map((part) => part.text ?? "").join(""));
/** The user texts an OpenAI Chat request carried, in order. */
export const userTexts = (request: RecordedRequest) => (request.body.messages as WireMessage[]).filter((m) => m.role === "user").map(wireText);
export const toolNames = (request: RecordedRequest) => ((request.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/** tool_execution_end records as {tool, isError, text}. */
export function toolResults(client: RpcClient, from = 0): { tool: unknown; isError: unknown; text: string }[] {
  return client.records
    .slice(from)
    .filter((r) => r.type === "tool_execution_end")
    .map((r) => ({ tool: r.toolName, isError: r.isError, text: ((r.result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("") }));
}
