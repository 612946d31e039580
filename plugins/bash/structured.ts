/**
 * The bash tool's machine-readable result (pi 1.x's `outputSchema`), what a tool calling bash
 * (a codemode script) receives instead of the model's text: the output up to 1 MiB (longer output
 * keeps its first and last 512 KiB around a marker, `truncated` set, the whole in
 * `full_output_path`), the exit code and the wall time. A non-zero exit is still an error for the
 * model, but a caller gets this value.
 */
import { open } from "node:fs/promises";
import type { RunShellResult } from "./run.js";

const MAX_BYTES = 1024 * 1024;
const HALF = MAX_BYTES / 2;

export const BASH_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    output: { type: "string", description: "Combined stdout and stderr, possibly truncated" },
    truncated: { type: "boolean" },
    full_output_path: { type: "string", description: "Full output, when truncated" },
    exit_code: { type: "number" },
    wall_time_seconds: { type: "number" },
  },
  required: ["output", "truncated", "exit_code", "wall_time_seconds"],
} as const;

export interface BashStructured {
  output: string;
  truncated: boolean;
  full_output_path?: string;
  exit_code: number;
  wall_time_seconds: number;
}

export async function structuredResult(result: RunShellResult, exitCode: number, wallMs: number): Promise<BashStructured> {
  const common = { exit_code: exitCode, wall_time_seconds: Math.round(wallMs / 100) / 10 };
  if (!result.fullOutputPath) return { output: result.output, truncated: false, ...common };
  const path = result.fullOutputPath;
  try {
    const file = await open(path, "r");
    try {
      const { size } = await file.stat();
      if (size <= MAX_BYTES) return { output: (await file.readFile()).toString("utf8"), truncated: false, ...common };
      const head = Buffer.alloc(HALF);
      const tail = Buffer.alloc(HALF);
      await file.read(head, 0, HALF, 0);
      await file.read(tail, 0, HALF, size - HALF);
      const omitted = size - MAX_BYTES;
      return { output: `${head.toString("utf8")}\n[... ${omitted} bytes omitted ...]\n${tail.toString("utf8")}`, truncated: true, full_output_path: path, ...common };
    } finally {
      await file.close();
    }
  } catch {
    // The file is gone: the tail the model sees is what there is.
    return { output: result.output, truncated: true, full_output_path: path, ...common };
  }
}
