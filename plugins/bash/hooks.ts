/** The hook the bash plugin declares and calls: a user's shell command, before it runs. */
import { AsyncSeriesBailHook } from "tapable";
import { guard, type DeclaredHooks } from "../../kernel/index.js";

export interface UserBashEvent {
  /** Mutable: a tap may rewrite the command. */
  command: string;
  cwd: string;
  excludeFromContext: boolean;
}

export interface UserBashResult {
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

export type UserBashVerdict = { block: true; reason?: string } | { result: UserBashResult };

export function bashHookDeclarations() {
  return {
    user_bash: guard(
      new AsyncSeriesBailHook<[UserBashEvent], UserBashVerdict | undefined>(["event"]),
      (message) => ({ block: true as const, reason: `Command blocked: ${message}` }),
      "A user's `bash` command is about to run: a tap may rewrite it, refuse it, or answer it itself.",
    ),
  };
}

export type BashHooks = DeclaredHooks<ReturnType<typeof bashHookDeclarations>>;
