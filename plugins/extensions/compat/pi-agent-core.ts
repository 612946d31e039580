/** Atomic's `@mariozechner/pi-agent-core` for extensions: the agent message types (types only). */
export type { AgentMessage, ThinkingLevel } from "../../../lib/llm/index.js";
export type { ToolResultContent as AgentToolResult, ToolUpdateCallback as AgentToolUpdateCallback } from "../types/api.js";
