/**
 * How a message about the model tells the user what to do, in the words of the mode serving: an
 * RPC client sends `set_model`, a print or JSON run passes `--model`, an ACP editor picks from the
 * session's model option, an SDK embedder passes `model` to `createAgent`. Atomic has no `/model`
 * command (that is pi's terminal UI).
 */
import type { KernelConfig } from "../../kernel/index.js";

export type ModeFamily = "rpc" | "command-line" | "editor" | "sdk";

/** The serving mode as these messages need it. */
export function modeFamily(config: Pick<KernelConfig, "cli" | "settings">): ModeFamily {
  if (config.cli.origin === "sdk") return "sdk";
  const mode = config.cli.mode || config.settings.mode || "rpc";
  if (mode === "print" || mode === "json") return "command-line";
  return mode === "acp" ? "editor" : "rpc";
}

/** "Use set_model, or start with --provider/--model." and its equivalents. */
export function chooseModelHint(family: ModeFamily): string {
  switch (family) {
    case "command-line":
      return "Pass --model <provider/id> (atomic --list-models shows them).";
    case "editor":
      return "Choose one in the session's model option, or start Atomic with --model <provider/id>.";
    case "sdk":
      return "Use set_model, or pass model (and provider) to createAgent.";
    default:
      return "Use set_model, or start with --provider/--model.";
  }
}

export function noModelSelected(family: ModeFamily): string {
  return `No model selected. ${chooseModelHint(family)}`;
}

/** Where a provider's key can come from, naming its environment variable when it has a known one. */
export function keyHowTo(provider: string, variable: string | undefined, login = false): string {
  // A subscription without an API key of its own (ChatGPT through Codex) has only the login.
  if (login && !variable) return `Log in with \`atomic login ${provider}\`.`;
  const ways = `Set ${variable ?? "its API key environment variable"}, add the key to models.json`;
  return login ? `${ways}, run \`atomic auth set ${provider}\`, or log in with \`atomic login ${provider}\`.` : `${ways}, or run \`atomic auth set ${provider}\`.`;
}

/** No provider has a key (the usual first run): every way to get one, and the offline demo. */
export function noKeysHint(variables: readonly string[], family?: ModeFamily): string {
  const demo = family === "sdk" ? '`{ provider: "replay", model: "demo" }`' : "`--provider replay --model demo`";
  return `No provider has an API key: set ${variables.join(", ")} or run \`atomic auth set <provider>\`; ${demo} runs the offline demo.`;
}

/** The unsupported-saved-default error outside RPC (in RPC it is the protocol's exact text). */
export function unsupportedDefaultHint(family: ModeFamily): string {
  return family === "command-line"
    ? "Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel in settings.json, or pass --model <provider/id>."
    : "Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel in settings.json, or choose one in the session's model option.";
}
