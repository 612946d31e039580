/**
 * One scripted conversation run twice, through Atomic's built CLI and through pi 1.6's own RPC
 * mode (in a Node 22 child: pi needs Node >= 22.19), each with the same package loaded (`-e`) and
 * both talking to the same loopback fake LLM (OpenAI Chat format). What a test compares is what
 * each agent put on the wire: the `tool_execution_end` results and the final assistant text.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { FakeLlm, RecordedRequest, ReplySource } from "../fake-llm/server.js";
import { writeModelsJson } from "../fake-llm/server.js";
import { RpcClient, tempDir, type Record_ } from "./rpc-client.js";
import { registerStopper } from "./temp.js";
import { hangTimeout } from "./hang.js";
import { keepTranspileCache, piCompileCache, seedTranspileCache } from "./transpile-cache.js";

export const PI_16 = resolve(import.meta.dirname, "../../node_modules/@earendil-works/pi-coding-agent");

export interface Conversation {
  /** The package folder, loaded with `-e`. */
  folder: string;
  /** More arguments for both agents (a flag the package registers). */
  args?: string[];
  /** What the user sends, in order; each waits for the run it starts (`run: false`: a command that starts none). */
  prompts: (string | { message: string; run: false })[];
  /** The fake LLM's replies, in order (tool calls and texts, or functions of the request). */
  replies: ReplySource[];
  /** Files written before the agent starts, by path relative to its working folder (a project's `.pi/prompts/x.md`). */
  projectFiles?: Record<string, string | Uint8Array>;
  /** Files written into the agent dir before the agent starts (a package's own config file there). */
  agentFiles?: Record<string, string>;
  /** More environment for both agents. */
  env?: Record<string, string>;
  /** `mcpServers` of the agent dir's mcp.json (both agents read it there). */
  mcpServers?: Record<string, unknown>;
  /** More providers of models.json (a built-in one pointed at the fake LLM by its base URL). */
  providers?: Record<string, unknown>;
}

export interface ConversationRecord {
  toolResults: { toolName: string; isError: boolean; text: string }[];
  /** The `details` of each of those results, in the same order. */
  toolDetails: unknown[];
  /** The `usage` of each of those results (pi's codemode reports its models calls' there), in the same order. */
  toolUsage: unknown[];
  /** Per request the fake LLM got from this agent: the names of the tools it declared. */
  declared: string[][];
  /** Per request the fake LLM got from this agent: the text of each user message it carried. */
  userTurns: string[][];
  /** Every request the fake LLM got from this agent. */
  requests: RecordedRequest[];
  /** get_messages at the end: the roles of the current session's messages. */
  roles: string[];
  /** The text of every `extension_ui_request` notify, in order. */
  notices: string[];
  lastText: string;
  stderr: string;
}

type Client = Pick<RpcClient, "records" | "stderr" | "child" | "exited" | "request" | "waitFor" | "close">;

/** A JSONL client without Atomic's protocol checks, for pi's own RPC mode. */
class PlainClient implements Client {
  readonly records: Record_[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = "";
  #buffer = "";
  #next = 1;
  #waiters: { match: (record: Record_) => boolean; from: number; resolve: (record: Record_) => void }[] = [];

  constructor(node: string, args: string[], cwd: string, env: Record<string, string | undefined>) {
    this.child = spawn(node, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.#buffer += chunk.toString();
      for (let newline = this.#buffer.indexOf("\n"); newline >= 0; newline = this.#buffer.indexOf("\n")) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        if (line.trim() === "") continue;
        let record: Record_;
        try {
          record = JSON.parse(line) as Record_;
        } catch {
          record = { type: "__non_json__", line };
        }
        this.records.push(record);
        const index = this.records.length - 1;
        this.#waiters = this.#waiters.filter((waiter) => (index >= waiter.from && waiter.match(record) ? (waiter.resolve(record), false) : true));
      }
    });
  }

  async request(command: Record<string, unknown>, timeoutMs = 20_000): Promise<Record_> {
    const id = `p${this.#next++}`;
    const from = this.records.length;
    this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    return this.waitFor((record) => record.type === "response" && record.id === id, timeoutMs, from);
  }

  waitFor(match: (record: Record_) => boolean, timeoutMs = 20_000, from = 0): Promise<Record_> {
    for (let i = from; i < this.records.length; i++) if (match(this.records[i]!)) return Promise.resolve(this.records[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`pi: timed out waiting for a record; last: ${JSON.stringify(this.records.slice(-3)).slice(0, 1500)}\nstderr: ${this.stderr.slice(-1500)}`)),
        hangTimeout(timeoutMs),
      );
      this.#waiters.push({ match, from, resolve: (record) => (clearTimeout(timer), resolve(record)) });
    });
  }

  async close(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

/**
 * Runs `conversation` through Atomic (`node` = this process's Node) or pi (`node` = a Node 22
 * binary). `atomicAgentDir`: an agent dir for Atomic to reuse (its jiti cache lives there, so a
 * package transpiled once loads fast again); its models.json is rewritten for this fake LLM.
 */
export async function converse(agent: "atomic" | "pi", node: string, fake: FakeLlm, conversation: Conversation, atomicAgentDir?: string): Promise<ConversationRecord> {
  const home = tempDir(`side-by-side-${agent}-`);
  const agentDir = agent === "atomic" && atomicAgentDir ? atomicAgentDir : join(home, "agent");
  const cwd = join(home, "work");
  mkdirSync(cwd, { recursive: true });
  // Output files (codemode's full text and images, pi's `pi-codemode-*`) land in the test's own
  // folder, removed with it, not in the machine's temp folder.
  const tmp = join(home, "tmp");
  mkdirSync(tmp, { recursive: true });
  const modelsJson = await writeModelsJson(agentDir, fake.url);
  if (conversation.providers) {
    const json = JSON.parse(readFileSync(modelsJson, "utf8")) as { providers: Record<string, unknown> };
    writeFileSync(modelsJson, JSON.stringify({ providers: { ...json.providers, ...conversation.providers } }));
  }
  writeFiles(cwd, conversation.projectFiles);
  writeFiles(agentDir, conversation.agentFiles);
  if (conversation.mcpServers) writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: conversation.mcpServers }));
  fake.script(...conversation.replies);
  const firstRequest = fake.requests.length;
  const args = ["--mode", "rpc", "--no-session", "--provider", "fake-openai", "--model", "fake-1", "-e", conversation.folder, ...(conversation.args ?? [])];
  const env = {
    ...NO_KEYS,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    ...conversation.env,
  };
  // pi keeps its jiti transpile cache in `<TMPDIR>/jiti` and its compile cache (it calls
  // module.enableCompileCache()) in `<TMPDIR>/node-compile-cache`: in this conversation's own
  // fresh TMPDIR both would start cold, ~5 s of CPU to transpile a corpus package and ~0.3 s to
  // compile pi's bundle each time. The transpile cache is seeded from the kept one (and what it
  // gained kept), the compile cache is the run's (test/helpers/transpile-cache.ts says why both are safe).
  const piJiti = join(tmp, "jiti");
  const seedPiJiti = agent === "pi" && process.env.ATOMIC_CORPUS_COLD !== "1";
  if (seedPiJiti) seedTranspileCache("pi", piJiti);
  // Kept only for a package of the repository's: a test's own temp files would only grow it.
  const keepPiJiti = seedPiJiti && !resolve(conversation.folder).startsWith(tmpdir());
  const piEnv = agent === "pi" ? { NODE_COMPILE_CACHE: piCompileCache() } : {};
  const client: Client =
    agent === "atomic" ? new RpcClient({ agentDir, cwd, env, args }) : new PlainClient(node, [join(PI_16, "dist/bundle/cli.js"), ...args], cwd, { ...piEnv, ...env });
  const unregister = registerStopper(() => (client.child.exitCode === null ? (client.child.kill("SIGKILL"), client.exited) : client.exited));
  try {
    for (const [index, prompt] of conversation.prompts.entries()) {
      const message = typeof prompt === "string" ? prompt : prompt.message;
      const from = client.records.length;
      // The first prompt waits for the package to load: a cold transpile cache makes that a
      // whole package's transpile (tens of seconds on a busy machine), so only a hang fails it.
      const timeoutMs = index === 0 ? 600_000 : 60_000;
      const response = await client.request({ type: "prompt", message }, timeoutMs);
      if (!response.success) throw new Error(`${agent}: prompt ${JSON.stringify(message)} failed: ${String(response.error)}`);
      if (typeof prompt === "string") await client.waitFor((record) => record.type === "agent_end", timeoutMs, from);
    }
    const messages = await client.request({ type: "get_messages" });
    const records = client.records;
    return {
      toolResults: records.filter((record) => record.type === "tool_execution_end").map(toolResult),
      toolDetails: records.filter((record) => record.type === "tool_execution_end").map((record) => (record.result as { details?: unknown } | undefined)?.details),
      toolUsage: records.filter((record) => record.type === "tool_execution_end").map((record) => (record.result as { usage?: unknown } | undefined)?.usage),
      userTurns: fake.requests.slice(firstRequest).map((request) => userTexts(request.body)),
      requests: fake.requests.slice(firstRequest),
      // Chat-completions tools nest the name under `function`; Anthropic's carry it at the top.
      declared: fake.requests
        .slice(firstRequest)
        .map((request) => ((request.body as { tools?: { name?: string; function?: { name: string } }[] }).tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? "")),
      roles: ((messages.data as { messages?: { role: string }[] } | undefined)?.messages ?? []).map((message) => message.role),
      notices: records.filter((record) => record.type === "extension_ui_request" && record.method === "notify").map((record) => String(record.message)),
      lastText: lastAssistantText(records),
      stderr: client.stderr,
    };
  } finally {
    await client.close(5_000);
    unregister();
    if (keepPiJiti) keepTranspileCache("pi", piJiti);
  }
}

function writeFiles(root: string, files: Record<string, string | Uint8Array> = {}): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function toolResult(record: Record_): { toolName: string; isError: boolean; text: string } {
  const result = record.result as { content?: { type: string; text?: string }[] } | undefined;
  return {
    toolName: String(record.toolName),
    isError: record.isError === true,
    text: (result?.content ?? []).map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n"),
  };
}

/** The user messages' text of an OpenAI Chat request body. */
function userTexts(body: unknown): string[] {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages
    .filter((message) => message.role === "user")
    .map((message) => (typeof message.content === "string" ? message.content : (message.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("")));
}

function lastAssistantText(records: Record_[]): string {
  for (let i = records.length - 1; i >= 0; i--) {
    const message = records[i]!.message as { role?: string; content?: { type: string; text?: string }[] } | undefined;
    if (records[i]!.type === "message_end" && message?.role === "assistant")
      return (message.content ?? [])
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join("");
  }
  return "";
}
