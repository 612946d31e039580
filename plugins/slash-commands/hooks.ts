/** The hook the slash-commands plugin declares: where extensions add skill and prompt folders. */
import { AsyncSeriesWaterfallHook } from "tapable";
import { transform, type DeclaredHooks } from "../../kernel/index.js";

export interface ResourcesDiscoverEvent {
  cwd: string;
  reason: "startup" | "reload";
  /** Accumulated across taps. */
  skillPaths: string[];
  promptPaths: string[];
  themePaths: string[];
}

export function slashCommandsHookDeclarations() {
  return {
    resources_discover: transform(new AsyncSeriesWaterfallHook<[ResourcesDiscoverEvent]>(["event"]), "Asked once, on first use: taps add skill, prompt and theme folders."),
  };
}

export type SlashCommandsHooks = DeclaredHooks<ReturnType<typeof slashCommandsHookDeclarations>>;
