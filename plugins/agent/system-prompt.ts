/**
 * The frame of every system prompt: who the agent is and its tools (first), where and when it
 * runs (last). Other plugins (context files, skills) add their sections in between.
 */
import type { SystemPromptContext } from "../../kernel/index.js";

const PERSONA = `You are Atomic, an expert coding agent working in the user's project through tools.
Read before you change, make the smallest change that solves the task, and verify your work
(run the tests or the code) when you can. Be concise in what you write to the user.`;

/** Persona (unless a custom prompt is already there) and the tool list. Tapped at STAGE.FIRST. */
export function baseSystemPrompt(current: string, context: SystemPromptContext): string {
  const parts = [current.trim() === "" ? PERSONA : current.trim()];
  if (context.tools.length > 0) {
    parts.push("Available tools:\n" + context.tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n"));
  }
  return parts.join("\n\n");
}

/** Date and working directory, closing the prompt. Tapped at STAGE.LAST. */
export function environmentFooter(current: string, context: SystemPromptContext, now = new Date()): string {
  const footer = `Current date: ${now.toISOString().slice(0, 10)}\nCurrent working directory: ${context.cwd}`;
  return current.trim() === "" ? footer : `${current.trimEnd()}\n\n${footer}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
