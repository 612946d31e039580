/**
 * The frame of every system prompt: who the agent is and its tools (first), where and when it
 * runs (last). Other plugins (context files, skills) add their sections in between.
 */
import { stat, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { SystemPromptContext } from "./api.js";

/** `--system-prompt` / `--append-system-prompt`, read once at startup. */
export interface CustomPrompt {
  /** Replaces the persona and the tool list (context files, skills, date and cwd still follow). */
  systemPrompt?: string;
  /** Added after the persona and tools (or the replacement). */
  append?: string;
}

const PERSONA = `You are Atomic, an expert coding agent working in the user's project through tools.
Read before you change, make the smallest change that solves the task, and verify your work
(run the tests or the code) when you can. Be concise in what you write to the user.`;

/**
 * Persona (unless a custom prompt is already there) and the tool list, or `--system-prompt`
 * instead of both (as pi does); then `--append-system-prompt`. Tapped first (group `pre`).
 */
export function baseSystemPrompt(current: string, context: SystemPromptContext, custom: CustomPrompt = {}): string {
  const parts: string[] = [];
  if (custom.systemPrompt?.trim()) parts.push(custom.systemPrompt.trim());
  else {
    parts.push(current.trim() === "" ? PERSONA : current.trim());
    if (context.tools.length > 0) {
      parts.push("Available tools:\n" + context.tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n"));
    }
  }
  if (custom.append?.trim()) parts.push(custom.append.trim());
  return parts.join("\n\n");
}

/** A flag value naming a readable file is that file's text; anything else is the text itself (pi's rule). */
export async function promptText(value: string | undefined, cwd: string, env: NodeJS.ProcessEnv, warn?: (message: string) => void): Promise<string | undefined> {
  if (value === undefined || value.trim() === "") return undefined;
  const path = resolve(cwd, expandHome(value, env));
  try {
    if ((await stat(path)).isFile()) return await readFile(path, "utf8");
  } catch {
    // Not a file (or not a valid path at all): the value is the text.
  }
  // A value that reads as a path but names no file is most likely a slip: it is still the text, but said.
  if (LOOKS_LIKE_PATH.test(value)) warn?.(`"${value}" names no file (${path}): it is used as the text itself`);
  return value;
}

/** One word starting with ./, ../, ~/ or /, or ending in a text file's extension. */
const LOOKS_LIKE_PATH = /^(?:(?:\.{1,2}|~)?[\\/]\S*|\S+\.(?:md|txt|markdown|prompt))$/i;

/** Date and working directory, closing the prompt. Tapped last (group `post`). */
export function environmentFooter(current: string, context: SystemPromptContext, now = new Date()): string {
  const footer = `Current date: ${now.toISOString().slice(0, 10)}\nCurrent working directory: ${context.cwd}`;
  return current.trim() === "" ? footer : `${current.trimEnd()}\n\n${footer}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
