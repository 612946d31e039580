/**
 * One MCP server's connection on the official SDK's `Client`: connect (initialize, then every
 * page of `tools/list`), reconnect on the next use after the server dropped or failed, follow
 * `notifications/tools/list_changed`, and translate the SDK's failures into sentences that name
 * the server and say what happens next. Loaded on first use (with the SDK): an agent without MCP
 * servers never loads this module.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerState } from "./api.js";
import { connectHttp, describeConnectError, isSessionGone } from "./http-transport.js";
import type { Launch } from "./resolve.js";
import { callSignal, isUnreachable, listAllTools } from "./requests.js";
import { StdioTransport } from "./stdio-transport.js";

type SdkClient = typeof import("@modelcontextprotocol/sdk/client/index.js");

let sdk:
  | Promise<{
      client: SdkClient;
      stdio: typeof import("@modelcontextprotocol/sdk/shared/stdio.js");
      types: typeof import("@modelcontextprotocol/sdk/types.js");
      /** The variables a stdio server gets without naming them (HOME, PATH, ...). */
      inheritedEnv: readonly string[];
    }>
  | undefined;

function loadSdk() {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
  ]).then(([client, stdio, types, stdioClient]) => ({
    client,
    stdio,
    types,
    inheritedEnv: stdioClient.DEFAULT_INHERITED_ENV_VARS,
  }));
  return sdk;
}

export interface ConnectionOptions {
  name: string;
  /** Resolved when a connection starts, so a changed environment variable applies to a reconnect; `inherited`: the SDK's default variable names. */
  launch(inherited: readonly string[]): Launch;
  clientInfo: { name: string; version: string };
  /** A request's timeout (a tool call, a resource read). */
  timeoutMs: number;
  /** Starting the server and initialize, then listing its tools. */
  connectTimeoutMs: number;
  /** The tool list changed (first listing, list_changed, reconnect). */
  onTools(connection: McpConnection): void;
  onState(connection: McpConnection): void;
  writeStderr?: (text: string) => void;
}

export interface CallOptions {
  signal: AbortSignal;
  onProgress?(text: string): void;
}

export class McpConnection {
  readonly name: string;
  state: Exclude<McpServerState, "disabled"> = "pending";
  error: string | undefined;
  /** When the last attempt failed. */
  failedAt: number | undefined;
  tools: Tool[] = [];
  /** It listed more tools than are kept (MAX_LISTED_TOOLS). */
  toolsCut = false;
  instructions: string | undefined;
  hasResources = false;
  /** The transport the last connection used (`sse` after a fallback). */
  transport: "stdio" | "http" | "sse";
  readonly #options: ConnectionOptions;
  #client: Client | undefined;
  #current: Transport | undefined;
  #connecting: Promise<Client> | undefined;
  #closed = false;
  /** The tool listing a list_changed notice started, while it runs. */
  #refreshing: Promise<void> | undefined;
  /** Set while listing: another notice came, so list again. */
  #refreshAgain: boolean | undefined;
  /** Settles when the first connection attempt has (either way). */
  readonly firstAttempt: Promise<void>;
  #settleFirst!: () => void;

  constructor(options: ConnectionOptions, transport: "stdio" | "http" | "sse") {
    this.name = options.name;
    this.#options = options;
    this.transport = transport;
    this.firstAttempt = new Promise((resolve) => (this.#settleFirst = resolve));
  }

  /** The connected client, connecting (again) when there is none. */
  client(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error(`MCP server "${this.name}" was stopped`));
    if (this.state === "connected" && this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      return await this.#callTool(await this.client(), tool, args, options);
    } catch (error) {
      // An HTTP server that forgot the session (it restarted) answers 404 without running the
      // call: a new session, and the call once more.
      if (!isSessionGone(error) || options.signal.aborted) throw error;
      await this.#drop("the server ended the session");
      return this.#callTool(await this.client(), tool, args, options);
    }
  }

  async #callTool(client: Client, tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const { types } = await loadSdk();
    let result: CallToolResult;
    const call = callSignal(options.signal);
    try {
      result = (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: call.signal,
        timeout: this.#options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.onProgress ? { onprogress: (p) => options.onProgress!(p.message ?? `Progress ${p.progress}${p.total === undefined ? "" : `/${p.total}`}`) } : {}),
      })) as CallToolResult;
    } catch (error) {
      if (isSessionGone(error)) throw error;
      if (isUnreachable(error)) await this.#drop("the server cannot be reached");
      throw this.#callError(error, `tool ${tool}`, options.signal, types);
    } finally {
      call.done();
    }
    if (this.#refreshing) await this.#refreshing;
    return result;
  }

  /** A request other than a tool call (resources), with the same timeout and error sentences. */
  async request<T>(what: string, signal: AbortSignal, run: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
    const client = await this.client();
    const { types } = await loadSdk();
    const call = callSignal(signal);
    try {
      return await run(client, { signal: call.signal, timeout: this.#options.timeoutMs });
    } catch (error) {
      throw this.#callError(error, what, signal, types);
    } finally {
      call.done();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    this.#settleFirst();
    await this.#connecting?.catch(() => undefined);
    await (client ?? this.#current)?.close().catch(() => undefined);
    this.#current = undefined;
    this.#setState("pending");
  }

  /** Forgets the current client (an HTTP server that went away): the next use connects again. */
  async #drop(reason: string): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#client = undefined;
    this.error = reason;
    this.#setState("disconnected");
    await client.close().catch(() => undefined);
  }

  async #connect(): Promise<Client> {
    this.#setState("connecting");
    const { client: clientModule, stdio, types, inheritedEnv } = await loadSdk();
    let client: Client | undefined;
    try {
      const launch = this.#options.launch(inheritedEnv);
      const make = () => {
        const made = new clientModule.Client(this.#options.clientInfo, { capabilities: {} });
        made.setNotificationHandler(types.ToolListChangedNotificationSchema, () => this.#toolsChanged(made));
        return made;
      };
      if (launch.type === "stdio") {
        client = make();
        const transport = new StdioTransport(launch, this.name, stdio, this.#options.writeStderr);
        this.#current = transport;
        await this.#start(client, transport);
      } else {
        const connected = await connectHttp(
          launch,
          make,
          (transport) => (this.#current = transport),
          (c, t) => this.#start(c, t),
        );
        client = connected.client;
        this.transport = connected.transport;
      }
      if (this.#closed) throw new Error(`MCP server "${this.name}" was stopped`);
      ({ tools: this.tools, cut: this.toolsCut } = await listAllTools(client, this.#options.connectTimeoutMs));
      this.instructions = client.getInstructions();
      this.hasResources = client.getServerCapabilities()?.resources !== undefined;
      this.#client = client;
      this.error = undefined;
      this.#setState("connected");
      this.#options.onTools(this);
      return client;
    } catch (error) {
      const current = this.#current;
      this.error = this.#connectError(error, current);
      await (client ?? current)?.close().catch(() => undefined);
      if (this.#client === client) this.#client = undefined;
      this.failedAt = Date.now();
      this.#setState(this.#closed ? "pending" : "failed");
      throw new Error(this.error);
    } finally {
      this.#settleFirst();
    }
  }

  async #start(client: Client, transport: Transport): Promise<void> {
    client.onclose = () => {
      if (this.#client !== client || this.#closed) return;
      this.#client = undefined;
      this.error = `the connection closed${this.#exitDetail()}`;
      this.#setState("disconnected");
    };
    // Transport noise (a server that logs to stdout) must not end anything; the close says why it ended.
    client.onerror = () => undefined;
    await client.connect(transport, { timeout: this.#options.connectTimeoutMs });
  }

  /**
   * `notifications/tools/list_changed`: lists the tools again (one listing at a time; a change
   * announced meanwhile lists once more after it). A call whose answer comes after the notice
   * waits for the listing, so the model's next request already has the new set.
   */
  #toolsChanged(client: Client): void {
    if (this.#refreshAgain !== undefined) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshAgain = false;
    this.#refreshing = (async () => {
      do {
        this.#refreshAgain = false;
        if (this.#client !== client) break;
        try {
          ({ tools: this.tools, cut: this.toolsCut } = await listAllTools(client, this.#options.timeoutMs));
          this.#options.onTools(this);
        } catch {
          // The list stays as it was; a dropped connection reports itself through onclose.
        }
      } while (this.#refreshAgain);
    })().finally(() => {
      this.#refreshAgain = undefined;
      this.#refreshing = undefined;
    });
  }

  #setState(state: McpConnection["state"]): void {
    if (this.state === state) return;
    this.state = state;
    this.#options.onState(this);
  }

  #exitDetail(): string {
    const transport = this.#current;
    if (!(transport instanceof StdioTransport)) return "";
    const parts = [
      transport.exitDescription ? `the server ${transport.exitDescription}` : undefined,
      transport.stderrTail.at(-1) ? `its last stderr line: ${transport.stderrTail.at(-1)}` : undefined,
    ].filter(Boolean);
    return parts.length > 0 ? ` (${parts.join("; ")})` : "";
  }

  #connectError(error: unknown, transport: Transport | undefined): string {
    const detail = transport instanceof StdioTransport ? this.#exitDetail() : "";
    return `${describeConnectError(error, this.#options.connectTimeoutMs)}${detail}`;
  }

  #callError(error: unknown, what: string, signal: AbortSignal, types: typeof import("@modelcontextprotocol/sdk/types.js")): Error {
    if (signal.aborted) return new Error("Operation aborted");
    const seconds = Math.round(this.#options.timeoutMs / 100) / 10;
    if (isUnreachable(error)) return new Error(`MCP server "${this.name}" cannot be reached (${describeConnectError(error, 0)}); it is reconnected on the next call`);
    if (error instanceof types.McpError) {
      if (error.code === types.ErrorCode.ConnectionClosed) {
        return new Error(`MCP server "${this.name}" closed the connection during ${what}${this.#exitDetail()}; it is reconnected on the next call`);
      }
      if (error.code === types.ErrorCode.RequestTimeout) {
        return new Error(`MCP server "${this.name}" did not answer ${what} within ${seconds} s (its "timeout" setting, or settings mcp.timeout)`);
      }
      return new Error(`MCP server "${this.name}" refused ${what}: ${error.message.replace(/^MCP error -?\d+: /, "")}`);
    }
    return new Error(`MCP server "${this.name}": ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
