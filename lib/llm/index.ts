/**
 * The vocabulary of talking to an LLM, shared by the agent, the providers, sessions and tools:
 * content blocks, messages, usage, models and thinking levels, the unified stream events, and
 * the provider stream contract. Each wire type derives from its zod schema (`schemas.ts`).
 */
export * from "./schemas.js";
export * from "./types.js";
export * from "./thinking.js";
export * from "./assistant-stream.js";
