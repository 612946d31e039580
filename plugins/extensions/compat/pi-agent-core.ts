/**
 * Atomic's `@earendil-works/pi-agent-core` for extensions: the agent message types and `Agent`
 * (an extension's own small agent loop, agent.ts), whose default stream function is the running
 * agent's providers (bound per scope by the loader, modules.ts).
 */
export type { ThinkingLevel } from "../../../lib/llm/index.js";
export { Agent, defaultConvertToLlm } from "./agent.js";
export type * from "./agent-types.js";
