/**
 * A Claude Pro/Max login's token (`sk-ant-oat...`, from `atomic login anthropic`, pi's auth.json
 * or ANTHROPIC_OAUTH_TOKEN-style keys) is accepted only in requests that present themselves as
 * Claude Code, as pi sends them: the token as a bearer token (no `x-api-key`), Claude Code's
 * user agent and `x-app`, API version 2023-06-01, the `claude-code` and `oauth` betas first, Claude Code's identity as
 * the first system block, and tool names in Claude Code's casing (`Read`, `Bash`, ...), mapped
 * back to the session's own names in the answer.
 */
import type { Model, ToolSpec } from "../../lib/llm/index.js";

const CLAUDE_CODE_VERSION = "2.1.322";
const IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
const OAUTH_BETAS = ["claude-code-20250219", "oauth-2025-04-20"];
/** Claude Code's own tools, in its casing. */
const CLAUDE_CODE_TOOLS = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Grep",
  "Glob",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "KillShell",
  "NotebookEdit",
  "Skill",
  "Task",
  "TaskOutput",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
];
const BY_LOWER = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

/** The key is a subscription token sent to Anthropic's own Messages API (GitHub Copilot's Claude models are not). */
export function isSubscriptionToken(model: Pick<Model, "api" | "provider">, key: string): boolean {
  return model.api === "anthropic-messages" && model.provider !== "github-copilot" && key.includes("sk-ant-oat");
}

/** The headers Claude Code sends (the SDK adds the bearer token itself), with the API version it (and pi) sends. */
export function subscriptionHeaders(): Record<string, string> {
  return {
    accept: "application/json",
    "anthropic-dangerous-direct-browser-access": "true",
    "user-agent": `claude-cli/${CLAUDE_CODE_VERSION}`,
    "x-app": "cli",
    "anthropic-version": "2023-06-01",
  };
}

/** Rewrites a built request as Claude Code's: betas, identity, tool names. */
export function asClaudeCode(params: Record<string, unknown>, betas: string[]): void {
  betas.unshift(...OAUTH_BETAS.filter((beta) => !betas.includes(beta)));
  const system = (params.system as Record<string, unknown>[] | undefined) ?? [];
  const cache = system[0]?.cache_control;
  params.system = [{ type: "text", text: IDENTITY, ...(cache ? { cache_control: cache } : {}) }, ...system];
  for (const tool of (params.tools as { name: string }[] | undefined) ?? []) tool.name = toClaudeCodeName(tool.name);
  for (const message of (params.messages as { content: unknown }[] | undefined) ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; name?: string }[]) if (block.type === "tool_use" && block.name) block.name = toClaudeCodeName(block.name);
  }
}

export function toClaudeCodeName(name: string): string {
  return BY_LOWER.get(name.toLowerCase()) ?? name;
}

/** A tool name in the answer as the session knows it (`Read` -> `read`). */
export function fromClaudeCodeName(name: string, tools: readonly Pick<ToolSpec, "name">[]): string {
  const lower = name.toLowerCase();
  return tools.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}
