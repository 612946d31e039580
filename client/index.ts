/**
 * `atomic-agent/client`: a typed client for `atomic --mode rpc`, with the options and methods of
 * pi 1.6's RpcClient (a pi integrator changes the import), typed from the protocol schema. It
 * spawns Atomic's own CLI, reads with an LF-only splitter, and widens where Atomic offers more:
 * `send` is public and typed per command, `waitForIdle` waits for a settled agent (the
 * `agent_settled` event), not the first `agent_end`, `promptAndWait` also returns for a prompt an
 * extension command handled, and the commands pi's client lacks have methods too. Convenience
 * methods throw on a failed command; `send` never does. `connect()` reaches the agents of a
 * running `atomic serve` instead (client/server.ts), each with the same methods.
 */
import { Connection, type ConnectionOptions, type Record_ } from "./connection.js";
import { AgentMethods } from "./methods.js";

export type * from "../lib/protocol-types/index.js";
export { defaultCliPath } from "./connection.js";
export type { AgentEvent, CommandBody, CompactOptions, RpcEventListener } from "./methods.js";
export { AgentMethods } from "./methods.js";
export { AgentHandle, type PendingUi, type Resync, type Role } from "./agent-handle.js";
export { connect, ServerClient, type AgentOpenOptions, type ServerClientOptions } from "./server.js";

export interface RpcClientOptions extends ConnectionOptions {
  /** As `--provider`. */
  provider?: string;
  /** As `--model`. */
  model?: string;
}

export class RpcClient extends AgentMethods {
  readonly #options: RpcClientOptions;
  readonly #connection: Connection;

  constructor(options: RpcClientOptions = {}) {
    super();
    this.#options = options;
    this.#connection = new Connection(options);
    this.#connection.onRecord((record) => this.dispatch(record));
    // A run cannot settle once its process is gone: the waits fail with how it ended and its stderr.
    this.#connection.onExit((error) => this.forgetRun(error));
  }

  /** Spawns the agent and waits until it answers (it asks for `agent_settled` on the way). */
  async start(): Promise<void> {
    const args = ["--mode", "rpc"];
    if (this.#options.provider) args.push("--provider", this.#options.provider);
    if (this.#options.model) args.push("--model", this.#options.model);
    await this.#connection.open(args);
    this.revive();
    await this.setEventOptions({ agentSettled: true });
  }

  /** Ends the agent: stdin closes (pending commands are answered, the session is flushed), signals if it lingers; a pending wait rejects. */
  async stop(): Promise<void> {
    await this.#connection.close();
    this.forgetRun(new Error("The client was stopped"));
  }

  getStderr(): string {
    return this.#connection.stderr;
  }

  protected request(command: Record<string, unknown>): Promise<Record_> {
    return this.#connection.request(command);
  }

  protected write(record: Record<string, unknown>): void {
    this.#connection.write(record);
  }
}
