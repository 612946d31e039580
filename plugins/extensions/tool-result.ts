/**
 * What an extension tool's `execute` resolved to, as the kernel's result. pi 1.6 reads
 * `result.content` as is: a string, `{text}`, `null` or `undefined` reach its model as an empty
 * result or a TypeError. Atomic says what was wrong instead, to the model (an error result) and to
 * the author (the caller reports it once per tool).
 */
import type { ToolResult } from "../../kernel/index.js";
import { misspelt } from "./misspelt.js";
import type { ToolResultContent } from "./types/api.js";

export const RESULT_SHAPE = '{ content: [{ type: "text", text }] }';

/** The kernel's result shape; a result without a content array is passed on (an update's, which the loop reports). */
export function toResult(result: ToolResultContent | undefined): ToolResult {
  if (!result || !Array.isArray(result.content)) return result as unknown as ToolResult;
  return {
    content: result.content,
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(result.isError === true ? { isError: true } : {}),
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(result.terminate === true ? { terminate: true } : {}),
  };
}

/** What is wrong with a final result (`a string ("done")`, `an object without "content"`), or undefined when it has a content array. */
export function invalidResult(result: unknown): string | undefined {
  if (result === undefined || result === null) return String(result);
  if (typeof result === "string") return `a string (${JSON.stringify(result.length > 40 ? `${result.slice(0, 40)}...` : result)})`;
  if (Array.isArray(result)) return "an array (wrap it: { content: [...] })";
  if (typeof result !== "object") return `a ${typeof result} (${String(result)})`;
  const { content } = result as { content?: unknown };
  if (content === undefined) {
    const keys = Object.keys(result);
    return `an object without "content"${misspelt(result, "content") || (keys.length > 0 ? ` (it has ${keys.slice(0, 5).join(", ")})` : "")}`;
  }
  if (!Array.isArray(content)) return `an object whose "content" is ${content === null ? "null" : `a ${typeof content}`}, not an array`;
  return undefined;
}
