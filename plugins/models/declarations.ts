/** The settings keys and command-line flags the models plugin owns. */
import { z } from "zod";
import { defineSetting, UsageError, type CliOptions, type FlagSpec } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../../lib/llm/index.js";

export const modelSettings = {
  defaultProvider: defineSetting(() => z.string(), { description: "Provider of the model a new session starts with (set_model and cycle_model change the session's model only)." }),
  defaultModel: defineSetting(() => z.string(), {
    description: "Model id a new session starts with, read only with defaultProvider (set_model and cycle_model change the session's model only).",
  }),
  enabledModels: defineSetting(() => z.array(z.string()), { description: "Model patterns cycle_model moves through (as --models; globs and :<thinking> suffixes allowed)." }),
  httpIdleTimeoutMs: defineSetting(() => z.union([z.number().int().min(0), z.literal("disabled")]), {
    description: 'How long a provider connection may send nothing before the request fails, in milliseconds (300000; 0 or "disabled": no limit, for slow local models).',
  }),
};

/** `httpIdleTimeoutMs` as the provider fetch takes it (0: no limit). */
export function httpIdleTimeoutMs(value: number | "disabled" | undefined): number | undefined {
  return value === "disabled" ? 0 : value;
}

export const modelFlags: FlagSpec[] = [
  { name: "--provider", key: "provider", value: "<name>", description: "LLM provider (anthropic, openai, google, replay, or one from models.json)." },
  { name: "--model", key: "model", value: "<pattern>", description: "Model: provider/id, a bare id or a fuzzy pattern, with optional :<thinking> suffix." },
  { name: "--thinking", key: "thinking", value: "<level>", description: `Thinking level at startup: ${THINKING_LEVELS.join(", ")} (clamped to the model; not saved).` },
  {
    name: "--models",
    key: "models",
    value: "<patterns>",
    description: "Comma-separated model patterns cycle_model moves through (globs such as anthropic/*, :<thinking> suffixes). Overrides enabledModels.",
  },
  { name: "--api-key", key: "apiKey", value: "<key>", description: "API key for the chosen model's provider, this process only (never stored or logged)." },
  {
    name: "--list-models",
    key: "listModels",
    value: "[pattern]",
    optionalValue: true,
    description: "Print the models (optionally those matching a pattern), whether their provider has credentials, and exit.",
  },
];

/** `--thinking` as a level; anything else is a usage error listing the levels. */
export function cliThinkingLevel(cli: CliOptions): ThinkingLevel | undefined {
  if (cli.thinking === undefined) return undefined;
  if ((THINKING_LEVELS as readonly string[]).includes(cli.thinking)) return cli.thinking as ThinkingLevel;
  throw new UsageError(`Invalid thinking level "${cli.thinking}" for ${optionName(cli, "--thinking")}. Valid levels: ${THINKING_LEVELS.join(", ")}`);
}

declare module "../../kernel/config.js" {
  interface Settings {
    defaultProvider?: string;
    defaultModel?: string;
    enabledModels?: string[];
    httpIdleTimeoutMs?: number | "disabled";
  }
  interface CliOptions {
    provider?: string;
    model?: string;
    thinking?: string;
    models?: string;
    apiKey?: string;
    /** `true` without a pattern. */
    listModels?: string | true;
  }
}
