/**
 * ACP session config options where Atomic has a natural match: the model (every model with
 * credentials, as `get_available_models` lists them) and the thinking level (the levels the
 * current model accepts). Setting one sends `set_model` / `set_thinking_level`; the answer is
 * every option again, since a new model may change the levels.
 */
import type { EmbeddedHost } from "../../kernel/index.js";
import type { ThinkingLevel } from "../../lib/llm/index.js";
import { call } from "./call.js";

export interface ConfigOption {
  type: "select";
  id: string;
  name: string;
  category: "model" | "thought_level";
  currentValue: string;
  options: { value: string; name: string; description?: string }[];
}

export const MODEL_OPTION = "model";
export const THINKING_OPTION = "thinking_level";

export async function configOptions(host: EmbeddedHost): Promise<ConfigOption[]> {
  const [state, models, levels] = await Promise.all([
    call<"get_state">(host, { type: "get_state" }),
    call<"get_available_models">(host, { type: "get_available_models" }),
    call<"get_available_thinking_levels">(host, { type: "get_available_thinking_levels" }),
  ]);
  const options: ConfigOption[] = [];
  const current = state.model ? `${state.model.provider}/${state.model.id}` : undefined;
  if (current && models.models.length > 0) {
    options.push({
      type: "select",
      id: MODEL_OPTION,
      name: "Model",
      category: "model",
      currentValue: current,
      options: models.models.map((model) => ({ value: `${model.provider}/${model.id}`, name: model.name, description: model.provider })),
    });
  }
  if (levels.levels.length > 1) {
    options.push({
      type: "select",
      id: THINKING_OPTION,
      name: "Thinking",
      category: "thought_level",
      currentValue: state.thinkingLevel,
      options: levels.levels.map((level) => ({ value: level, name: level })),
    });
  }
  return options;
}

/** Applies one option; an unknown option or value is the client's mistake (the caller says so). */
export async function setConfigOption(host: EmbeddedHost, configId: string, value: unknown): Promise<ConfigOption[]> {
  const option = (await configOptions(host)).find((entry) => entry.id === configId);
  if (!option) throw new InvalidConfig(`Unknown config option: ${configId}`);
  if (typeof value !== "string" || !option.options.some((entry) => entry.value === value)) throw new InvalidConfig(`Invalid value for ${configId}: ${JSON.stringify(value)}`);
  if (configId === MODEL_OPTION) {
    const slash = value.indexOf("/");
    await call<"set_model">(host, { type: "set_model", provider: value.slice(0, slash), modelId: value.slice(slash + 1) });
  } else {
    // Checked above against the levels the model accepts.
    await call<"set_thinking_level">(host, { type: "set_thinking_level", level: value as ThinkingLevel });
  }
  return configOptions(host);
}

export class InvalidConfig extends Error {}
