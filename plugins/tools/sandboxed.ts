/**
 * The sandbox in the file tools: each tool's path is checked by the `sandbox` service's file
 * guard (the same policy bubblewrap enforces for commands, on the real path) before the tool
 * runs; a refusal is the tool's error result, "blocked by the sandbox: ...". find and grep also
 * leave the denied folders out of their walk and check where a symlinked file leads before
 * reading it (walk.ts, grep.ts). With the sandbox off the tools run unchanged.
 */
import type { ToolDefinition } from "../../kernel/index.js";
import type { FileGuard } from "../sandbox/api.js";
import { optionalPath, resolveToolPath } from "./paths.js";

/** The guard in force, asked at each call (undefined: the sandbox is off). */
export type GuardSource = () => FileGuard | undefined;

const ACCESS: Record<string, "read" | "write"> = { read: "read", ls: "read", find: "read", grep: "read", write: "write", edit: "write" };
/** Tools whose path may be left out (the working directory). */
const OPTIONAL_PATH = new Set(["ls", "find", "grep"]);

export function withPathGuard(tool: ToolDefinition<any>, guard: GuardSource): ToolDefinition<any> {
  const access = ACCESS[tool.name];
  if (!access) return tool;
  return {
    ...tool,
    async execute(args, ctx) {
      const files = guard();
      if (!files) return tool.execute(args, ctx);
      // From the check to the last use of the path, no confined command runs (it could swap a folder for a symlink).
      const release = await files.hold();
      try {
        const path = (args as { path?: unknown }).path;
        if (OPTIONAL_PATH.has(tool.name) || (typeof path === "string" && path.trim() !== "")) {
          const shown = OPTIONAL_PATH.has(tool.name) ? optionalPath(path as string | undefined) : (path as string);
          await files.check(resolveToolPath(ctx.cwd, shown), access);
        }
        return await tool.execute(args, ctx);
      } finally {
        release();
      }
    },
  };
}

/** What a walk under `root` (a folder) must leave out: the denied paths inside it, relative with `/`. */
export async function excludedWithin(guard: GuardSource, root: string): Promise<string[]> {
  const files = guard();
  if (!files) return [];
  const { realpath } = await import("node:fs/promises");
  return files.deniedWithin(await realpath(root));
}

/** Drops `paths` (relative, `/`, directories ending in `/`) that are an excluded path or inside one. */
export function withoutExcluded(paths: string[], excluded: readonly string[]): string[] {
  if (excluded.length === 0) return paths;
  return paths.filter((path) => {
    const clean = path.endsWith("/") ? path.slice(0, -1) : path;
    return !excluded.some((denied) => clean === denied || clean.startsWith(`${denied}/`));
  });
}
