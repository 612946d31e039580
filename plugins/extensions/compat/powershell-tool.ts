/**
 * pi's `powershell` tool for extensions: the same definition shape as the other built-ins, run by
 * pi's local PowerShell backend (Windows only, as in pi) or the `operations` an extension passes.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail } from "../../../lib/truncate/index.js";
import type { ToolDefinition } from "../types/api.js";
import { type BashOperations, createLocalPowerShellOperations } from "./shell-ops.js";

export interface PowerShellToolOptions {
  operations?: BashOperations;
  /** Rewrites a command before it runs. */
  spawnHook?: (spawn: { command: string; cwd: string; env: NodeJS.ProcessEnv }) => { command: string; cwd: string; env: NodeJS.ProcessEnv };
}

const PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "PowerShell command to execute" },
    timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
  },
  required: ["command"],
  additionalProperties: false,
};

export function createPowerShellToolDefinition(cwd: string, options: PowerShellToolOptions = {}): ToolDefinition<any> {
  const operations = options.operations ?? createLocalPowerShellOperations();
  return {
    name: "powershell",
    label: "powershell",
    description: `Execute a PowerShell command in the current working directory. Output is truncated to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB.`,
    promptSnippet: "Execute PowerShell commands",
    parameters: PARAMETERS,
    async execute(_toolCallId, params, signal) {
      const { command, timeout } = params as { command: string; timeout?: number };
      const spawn = options.spawnHook ? options.spawnHook({ command, cwd, env: { ...process.env } }) : { command, cwd, env: process.env };
      const chunks: Buffer[] = [];
      const { exitCode } = await operations.exec(spawn.command, spawn.cwd, { onData: (data) => chunks.push(data), signal, timeout, env: spawn.env });
      const truncation = truncateTail(Buffer.concat(chunks).toString("utf8"));
      const output = truncation.content || "(no output)";
      if (exitCode !== 0) throw new Error(`${output}\n\nCommand exited with code ${exitCode}`);
      return { content: [{ type: "text", text: output }], details: truncation.truncated ? { truncation } : undefined };
    },
  };
}

/** pi's agent-tool form; here the same definition. */
export const createPowerShellTool = createPowerShellToolDefinition;
