/** The settings keys the agent core owns, and their types for every plugin that reads them. */
import { z } from "zod";
import { defineSetting, THINKING_LEVELS } from "../../kernel/index.js";

const queueMode = () => z.enum(["all", "one-at-a-time"]);

export const agentSettings = {
  defaultThinkingLevel: defineSetting(() => z.enum(THINKING_LEVELS), { description: "Thinking level at startup (clamped to the model); default medium." }),
  steeringMode: defineSetting(queueMode, { description: "How steering messages are delivered: one-at-a-time (default) or all." }),
  followUpMode: defineSetting(queueMode, { description: "How follow-up messages are delivered: one-at-a-time (default) or all." }),
};

declare module "../../kernel/config.js" {
  interface Settings {
    defaultThinkingLevel?: z.output<ReturnType<(typeof agentSettings)["defaultThinkingLevel"]["schema"]>>;
    steeringMode?: "all" | "one-at-a-time";
    followUpMode?: "all" | "one-at-a-time";
  }
}

