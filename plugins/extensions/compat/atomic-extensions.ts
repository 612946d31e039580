/**
 * `atomic-agent/extensions`: the extension API under Atomic's own name, for authors who do not
 * install pi: the types, the helpers, `Type` and `StringEnum`. Inside an extension the loader
 * serves it with the agent-bound values filled in (`getAgentDir`, `createReadTool`, ...), as it
 * serves `@mariozechner/pi-coding-agent`; imported anywhere else it holds the types and pure helpers.
 */
export * from "./pi-coding-agent.js";
export { StringEnum } from "./pi-ai.js";
export { Type, type SchemaOptions, type Static, type TSchema } from "./typebox.js";
