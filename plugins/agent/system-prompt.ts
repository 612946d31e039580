/** The base of every system prompt: who the agent is, its tools, and where and when it runs. */
import type { SystemPromptContext } from "../../kernel/index.js";

const PERSONA = `You are Atomic, an expert coding agent working in the user's project through tools.
Read before you change, make the smallest change that solves the task, and verify your work
(run the tests or the code) when you can. Be concise in what you write to the user.`;

export function baseSystemPrompt(current: string, context: SystemPromptContext, now = new Date()): string {
  const parts = [current.trim() === "" ? PERSONA : current.trim()];
  if (context.tools.length > 0) {
    parts.push("Available tools:\n" + context.tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n"));
  }
  parts.push(`Current date: ${now.toISOString().slice(0, 10)}\nCurrent working directory: ${context.cwd}`);
  return parts.join("\n\n");
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
