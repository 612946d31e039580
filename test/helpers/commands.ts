/** get_commands entries other than pi's built-in `/llama` and `/mcp`, which every agent lists (plugins/mcp/slash-command.ts). */
export function withoutBuiltins<T extends { name: string; sourceInfo?: { source?: string } }>(commands: readonly T[]): T[] {
  return commands.filter((command) => command.sourceInfo?.source !== "builtin");
}
