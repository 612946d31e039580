/**
 * pi's `createReadTool(cwd)`, `createBashTool(cwd, { spawnHook })`, ...: Atomic's built-in tools
 * (as they were before any extension overrode them) as pi tool definitions, so an extension can
 * spread one into `registerTool` and wrap its `execute`. Custom `operations` (remote backends)
 * are not supported and fail clearly when such a tool is made.
 */
import type { z } from "zod";
import { formatValidationError, isZodSchema, parametersJsonSchema, resolveSchema, type ToolDefinition as KernelTool } from "../../../kernel/index.js";
import type { ToolDefinition } from "../types/api.js";
import type { BashToolOptions, BuiltinToolOptions } from "./pi-coding-agent.js";
import { shellWord } from "../../../lib/shell-words/index.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `builtins(what)`: the built-in tools of the agent that makes the tool (`what` names the call for an error). */
export function builtinToolFactories(builtins: (what: string) => ReadonlyMap<string, KernelTool>) {
  const make =
    <O extends BuiltinToolOptions>(name: string, factory: string, rewrite?: (args: Record<string, unknown>, cwd: string, options: O) => { command: string; cwd: string }) =>
    (cwd: string, options: O = {} as O): ToolDefinition<any> => {
      const builtin = builtins(`${factory}()`).get(name);
      if (!builtin) throw new Error(`${factory}: Atomic has no built-in "${name}" tool in this process`);
      if (options.operations !== undefined) throw new Error(`${factory}: custom operations (a remote or virtual backend) are not supported by Atomic`);
      const { validator, jsonSchema } = parametersOf(builtin);
      return {
        name,
        label: name,
        description: builtin.description,
        parameters: jsonSchema,
        async execute(toolCallId, params, signal, onUpdate) {
          const parsed = validator ? validator.safeParse(params ?? {}) : { success: true as const, data: params };
          if (!parsed.success) throw new Error(`Validation failed for tool "${name}": ${formatValidationError(parsed.error)}`);
          const args = { ...(parsed.data as Record<string, unknown>) };
          let workDir = options.cwd ?? cwd;
          if (rewrite) {
            const rewritten = rewrite(args, workDir, options);
            args.command = rewritten.command;
            workDir = rewritten.cwd;
          }
          return builtin.execute(args, { toolCallId, signal: signal ?? new AbortController().signal, cwd: workDir, onUpdate: (partial) => onUpdate?.(partial) });
        },
      };
    };
  const createBashTool = make<BashToolOptions>("bash", "createBashTool", bashRewrite);
  const createReadTool = make("read", "createReadTool");
  const createWriteTool = make("write", "createWriteTool");
  const createEditTool = make("edit", "createEditTool");
  const createGrepTool = make("grep", "createGrepTool");
  const createFindTool = make("find", "createFindTool");
  const createLsTool = make("ls", "createLsTool");
  return {
    createBashTool,
    createReadTool,
    createWriteTool,
    createEditTool,
    createGrepTool,
    createFindTool,
    createLsTool,
    // pi 1.x names the tool-definition form so (its createXTool gives an agent tool); here both are the same definition.
    createBashToolDefinition: createBashTool,
    createReadToolDefinition: createReadTool,
    createWriteToolDefinition: createWriteTool,
    createEditToolDefinition: createEditTool,
    createGrepToolDefinition: createGrepTool,
    createFindToolDefinition: createFindTool,
    createLsToolDefinition: createLsTool,
    createCodingTools: (cwd: string, options?: BuiltinToolOptions) => [
      createReadTool(cwd, options),
      createBashTool(cwd, options),
      createEditTool(cwd, options),
      createWriteTool(cwd, options),
    ],
    createReadOnlyTools: (cwd: string, options?: BuiltinToolOptions) => ["read", "grep", "find", "ls"].map((name) => make(name, "createReadOnlyTools")(cwd, options)),
  };
}

function parametersOf(tool: KernelTool): { validator: z.ZodType | undefined; jsonSchema: Record<string, unknown> } {
  const parameters = tool.parameters;
  const jsonSchema = parametersJsonSchema(parameters);
  if (typeof parameters === "object" && parameters !== null && "jsonSchema" in parameters && !isZodSchema(parameters)) return { validator: undefined, jsonSchema };
  return { validator: resolveSchema(parameters as z.ZodType | (() => z.ZodType)), jsonSchema };
}

/**
 * The bash command after `commandPrefix` and `spawnHook`: the hook's command and cwd are used;
 * its environment changes become `export`/`unset` lines ahead of the command (the built-in shell
 * takes no environment of its own).
 */
function bashRewrite(args: Record<string, unknown>, cwd: string, options: BashToolOptions): { command: string; cwd: string } {
  let command = String(args.command ?? "");
  if (options.commandPrefix) command = `${options.commandPrefix}\n${command}`;
  if (!options.spawnHook) return { command, cwd };
  const before: NodeJS.ProcessEnv = { ...process.env };
  const spawned = options.spawnHook({ command, cwd, env: { ...before } });
  const after = spawned?.env ?? before;
  const lines: string[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (ENV_NAME.test(key) && value !== undefined && before[key] !== value) lines.push(`export ${key}=${shellWord(value)}`);
  }
  for (const key of Object.keys(before)) if (ENV_NAME.test(key) && after[key] === undefined) lines.push(`unset ${key}`);
  return { command: [...lines, spawned?.command ?? command].join("\n"), cwd: spawned?.cwd ?? cwd };
}
