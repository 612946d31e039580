/** The bash plugin's public surface: its `user_bash` hook and payload types, and its event. */
import type { BashHooks } from "./hooks.js";

export type { BashHooks, UserBashEvent, UserBashResult, UserBashVerdict } from "./hooks.js";
export type {} from "./user-bash.js";

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends BashHooks {}
}

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { bashHookDeclarations } from "./hooks.js";
export { shellCandidates } from "./shell.js";
