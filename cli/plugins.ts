/** The built-in plugins every process loads, in a stable order (dependencies are re-ordered by the kernel). */
export const BUILTIN_PLUGINS = [
  "agent",
  "models",
  "provider-replay",
  "provider-anthropic",
  "provider-openai",
  "provider-google",
  "tools",
  "bash",
  "retry",
  "context-files",
  "session",
  "session-jsonl",
  "export-html",
] as const;
