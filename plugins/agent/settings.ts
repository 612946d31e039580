/** The settings keys and flags the agent core owns, and their types for every plugin that reads them. */
import { z } from "zod";
import { defineSetting, type FlagSpec } from "../../kernel/index.js";
import { THINKING_LEVELS } from "../../lib/llm/index.js";

const queueMode = () => z.enum(["all", "one-at-a-time"]);

export const agentSettings = {
  defaultThinkingLevel: defineSetting(() => z.enum(THINKING_LEVELS), {
    description: "Thinking level at startup (clamped to the model); default medium. set_thinking_level changes the session's level only.",
  }),
  steeringMode: defineSetting(queueMode, { description: "How steering messages are delivered: one-at-a-time (default) or all." }),
  followUpMode: defineSetting(queueMode, { description: "How follow-up messages are delivered: one-at-a-time (default) or all." }),
  assistantMessageMaxChars: defineSetting(() => z.number().int().min(1), {
    description: "The most characters one assistant message may stream (text, thinking and tool-call arguments); past it the stream is stopped with an error. Default 8388608.",
  }),
};

export const agentFlags: FlagSpec[] = [
  { name: "--system-prompt", key: "systemPrompt", value: "<text|file>", description: "Replace the built-in persona and tool list (a path to a file reads the file)." },
  { name: "--append-system-prompt", key: "appendSystemPrompt", value: "<text|file>", description: "Add text (or a file's text) after the persona and tools." },
];

declare module "../../kernel/config.js" {
  interface CliOptions {
    systemPrompt?: string;
    appendSystemPrompt?: string;
  }
  interface Settings {
    defaultThinkingLevel?: z.output<ReturnType<(typeof agentSettings)["defaultThinkingLevel"]["schema"]>>;
    steeringMode?: "all" | "one-at-a-time";
    followUpMode?: "all" | "one-at-a-time";
    assistantMessageMaxChars?: number;
  }
}
