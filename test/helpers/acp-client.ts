/**
 * The ACP SDK's own client against the built CLI in `--mode acp` (or another ACP agent, such as
 * pi-acp driving Atomic) over real stdio: spawns the agent, connects, records every
 * `session/update` per session and every permission request, and answers permission requests
 * with a policy the test sets.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { CLI } from "./rpc-client.js";
import { agentTempDir, registerStopper } from "./temp.js";
import { seedAgentTranspileCache } from "./transpile-cache.js";
import { NODE } from "./node.js";

export type Update = acp.SessionNotification["update"];
export type PermissionPolicy = (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export interface AcpAgentOptions {
  args: string[];
  /** The agent program and its leading arguments (default: this repository's built CLI under this Node). */
  program?: string[];
  cwd: string;
  agentDir: string;
  env?: Record<string, string | undefined>;
  settings?: Record<string, unknown>;
}

export class AcpAgent {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: acp.ClientConnection;
  readonly updates = new Map<string, Update[]>();
  readonly permissions: acp.RequestPermissionRequest[] = [];
  policy: PermissionPolicy = () => ({ outcome: { outcome: "cancelled" } });
  /** Notifications the SDK has no method for (an agent's `_`-prefixed extensions, `elicitation/complete`). */
  readonly otherNotifications: { method: string; params: unknown }[] = [];
  /** Answers `elicitation/create` (the agent asks the editor to show a URL or a form). */
  elicit: (request: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({ action: "cancel" });
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(options: AcpAgentOptions) {
    if (options.settings) {
      mkdirSync(options.agentDir, { recursive: true });
      writeFileSync(join(options.agentDir, "settings.json"), JSON.stringify(options.settings));
    }
    const [command, ...leading] = options.program ?? [NODE, CLI];
    const env = { ...process.env, TMPDIR: agentTempDir(), ATOMIC_CODING_AGENT_DIR: options.agentDir, ...options.env };
    const keepTranspiled = seedAgentTranspileCache(env.ATOMIC_CODING_AGENT_DIR ?? options.agentDir, options.args, options.cwd);
    this.child = spawn(command!, [...leading, ...options.args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once("close", (code) => resolve(code)));
    const unregister = registerStopper(() => (this.child.exitCode === null ? (this.child.kill("SIGKILL"), this.exited) : this.exited));
    void this.exited.then(unregister);
    if (keepTranspiled) void this.exited.then(keepTranspiled);
    const app = acp
      .client({ name: "atomic-tests" })
      .onNotification("session/update", ({ params }) => {
        const list = this.updates.get(params.sessionId) ?? [];
        list.push(params.update);
        this.updates.set(params.sessionId, list);
      })
      .onRequest("session/request_permission", ({ params }) => {
        this.permissions.push(params);
        return this.policy(params);
      })
      .onRequest("elicitation/create", ({ params }) => this.elicit(params as Record<string, unknown>) as never)
      .onNotification("*", ({ method, params }) => void this.otherNotifications.push({ method, params }));
    const stream = acp.ndJsonStream(Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(this.child.stdout) as unknown as ReadableStream<Uint8Array>);
    this.connection = app.connect(stream);
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  async initialize(clientCapabilities: Record<string, unknown> = {}): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities });
  }

  async newSession(cwd: string): Promise<acp.NewSessionResponse> {
    return this.agent.request("session/new", { cwd, mcpServers: [] });
  }

  prompt(sessionId: string, text: string): Promise<acp.PromptResponse> {
    return this.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  }

  /** The text the agent streamed in a session, chunks joined. */
  text(sessionId: string, kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk" = "agent_message_chunk"): string {
    return (this.updates.get(sessionId) ?? []).flatMap((update) => (update.sessionUpdate === kind && update.content.type === "text" ? [update.content.text] : [])).join("");
  }

  /** Ends the connection (stdin closes) and resolves with the exit code. */
  async close(): Promise<number | null> {
    this.connection.close();
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
