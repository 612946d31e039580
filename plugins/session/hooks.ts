/** The hooks the session plugin declares and calls. */
import { AsyncSeriesBailHook, AsyncSeriesHook } from "tapable";
import { guard, notify, type DeclaredHooks } from "../../kernel/index.js";

export type SessionStartReason = "startup" | "new" | "resume" | "fork";

/** A guard's answer that stops the switch or fork. */
export interface CancelVeto {
  cancel: true;
}

export function sessionHookDeclarations() {
  return {
    session_start: notify(
      new AsyncSeriesHook<[{ reason: SessionStartReason; previousSessionFile?: string }]>(["event"]),
      "A session is active: at startup, or after new, switch or fork.",
    ),
    session_before_switch: guard(
      new AsyncSeriesBailHook<[{ reason: "new" | "resume"; targetSessionFile?: string }], CancelVeto | undefined>(["event"]),
      () => ({ cancel: true as const }),
      "Before the session is replaced by a new or loaded one: a tap may cancel.",
    ),
    session_before_fork: guard(
      new AsyncSeriesBailHook<[{ entryId: string | null; position: "before" | "at" }], CancelVeto | undefined>(["event"]),
      () => ({ cancel: true as const }),
      "Before a fork or clone: a tap may cancel.",
    ),
    session_shutdown: notify(
      new AsyncSeriesHook<[{ reason: "quit" | "new" | "resume" | "fork"; targetSessionFile?: string }]>(["event"]),
      "The current session closes (replaced, or the process ends).",
    ),
    session_info_changed: notify(new AsyncSeriesHook<[{ name?: string }]>(["event"]), "The session was named."),
  };
}

export type SessionHooks = DeclaredHooks<ReturnType<typeof sessionHookDeclarations>>;
