/** The settings keys and command-line flags the models plugin owns. */
import { z } from "zod";
import { defineSetting, type FlagSpec } from "../../kernel/index.js";

export const modelSettings = {
  defaultProvider: defineSetting(() => z.string(), { description: "Provider of the model a new session starts with (saved by set_model)." }),
  defaultModel: defineSetting(() => z.string(), { description: "Model id a new session starts with (saved by set_model)." }),
};

export const modelFlags: FlagSpec[] = [
  { name: "--provider", key: "provider", value: "<name>", description: "LLM provider (anthropic, openai, google, replay, or one from models.json)." },
  { name: "--model", key: "model", value: "<pattern>", description: "Model: provider/id, a bare id or a fuzzy pattern, with optional :<thinking> suffix." },
];

declare module "../../kernel/config.js" {
  interface Settings {
    defaultProvider?: string;
    defaultModel?: string;
  }
  interface CliOptions {
    provider?: string;
    model?: string;
  }
}
