/**
 * pi's `createAgentSession` for extensions, bound per scope (modules.ts) to how Atomic's SDK is
 * loaded and to the running agent's folders as defaults: it boots a second agent and opens an
 * `AgentSession` on it (agent-session.ts), disposing of the agent when that fails.
 */
import type { Agent, CreateAgentOptions } from "../../../sdk/index.js";
import { AgentSession } from "./agent-session.js";
import { agentOptions, type CreateAgentSessionOptions } from "./agent-session-options.js";

export type { CreateAgentSessionOptions } from "./agent-session-options.js";

export interface CreateAgentSessionResult {
  session: AgentSession;
  /** The new session loads its extensions itself: this lists none (Atomic does not hand another agent's extension objects out). */
  extensionsResult: { extensions: never[]; errors: never[] };
  modelFallbackMessage?: string;
}

/** How the session reaches Atomic's SDK (a dynamic import: the SDK boots the built-in plugins, this one included). */
export type AgentFactory = (options: CreateAgentOptions) => Promise<Agent>;

/** `createAgentSession` bound to how the SDK loads and the agent the extension runs in (its cwd and agent dir are the defaults). */
export function agentSessionFunctions(load: () => Promise<AgentFactory>, defaults: () => { cwd: string; agentDir: string }) {
  return {
    AgentSession,
    async createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
      const { create } = agentOptions(options, defaults());
      const agent = await (await load())(create);
      let session: AgentSession;
      try {
        session = await AgentSession.open(agent);
      } catch (error) {
        await agent.dispose();
        throw error;
      }
      const modelFallbackMessage = session.modelFallbackMessage;
      return { session, extensionsResult: { extensions: [], errors: [] }, ...(modelFallbackMessage ? { modelFallbackMessage } : {}) };
    },
  };
}
