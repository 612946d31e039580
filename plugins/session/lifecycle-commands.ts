/**
 * Commands that replace the current session: new_session, switch_session, import_session, fork,
 * clone. Each asks its guard hook first; a `{cancel:true}` answer changes nothing.
 */
import { z } from "zod";
import { defineCommand, ErrorCode, KernelError, type CommandDefinition, } from "../../kernel/index.js";
import type { LoadedSession } from "./api.js";
import type { Session } from "./manager.js";
import { checkPath } from "./limits.js";
import type { SessionRuntime } from "./runtime.js";
import { messageText } from "./text.js";

/** `cancelled: true` when a session_before_switch/fork tap vetoed it. */
const Cancelled = () => z.object({ cancelled: z.boolean().describe("An extension's session_before_* handler cancelled it: nothing changed.") });

export function lifecycleCommands(runtime: SessionRuntime): CommandDefinition<any, any>[] {
  const { hooks } = runtime;

  const newSession = defineCommand({
    name: "new_session",
    description: "Start a fresh session (cancellable by session_before_switch).",
    input: () => z.object({ parentSession: z.string().optional().describe("A session file the new session records as its parent.") }).meta({ examples: [{}] }),
    output: Cancelled,
    async run({ parentSession }) {
      if (parentSession !== undefined) checkPath("parentSession", parentSession);
      const veto = await hooks.session_before_switch.promise({ reason: "new" });
      if (veto?.cancel) return { cancelled: true };
      await runtime.replace("new", () => runtime.manager.newSession(parentSession === undefined ? {} : { parentSession }));
      return { cancelled: false };
    },
  });

  /** Shared by switch_session and import_session: validate, ask, then swap. */
  async function resume(path: string, open: (loaded: LoadedSession) => Promise<Session>) {
    let loaded = await runtime.manager.read(path);
    const veto = await hooks.session_before_switch.promise({ reason: "resume", targetSessionFile: loaded.file });
    if (veto?.cancel) return { cancelled: true };
    await runtime.replace("resume", async () => {
      // Re-read our own file after the flush, so entries written since the first read are kept.
      if (loaded.file === runtime.manager.current.storage.file) loaded = await runtime.manager.read(loaded.file);
      return open(loaded);
    });
    return { cancelled: false };
  }

  const switchSession = defineCommand({
    name: "switch_session",
    description: "Load a session file (cancellable by session_before_switch).",
    input: () =>
      z.object({ sessionPath: z.string().describe("The session file to open (as `list_sessions` lists it).") }).meta({ examples: [{ sessionPath: "/home/ada/.atomic/agent/sessions/--home-ada-app--/2026-12-01T09-00-00-000Z_0193.jsonl" }] }),
    output: Cancelled,
    run: ({ sessionPath }) => resume(sessionPath, async (loaded) => runtime.manager.fromLoaded(loaded)),
  });

  const importSession = defineCommand({
    name: "import_session",
    description: "Copy a session file into the session directory and switch to the copy.",
    input: () => z.object({ inputPath: z.string().describe("A session file (Atomic's or pi's) to copy in and open.") }).meta({ examples: [{ inputPath: "/tmp/shared-session.jsonl" }] }),
    output: Cancelled,
    run: ({ inputPath }) => resume(inputPath, (loaded) => runtime.manager.importLoaded(loaded)),
  });

  const fork = defineCommand({
    name: "fork",
    description: "New session from the branch before a user message; returns that message's text.",
    input: () => z.object({ entryId: z.string().describe("The user message entry to fork before (from `get_fork_messages`).") }).meta({ examples: [{ entryId: "a1b2c3d4" }] }),
    output: () => z.object({ text: z.string().meta({ description: "The text of the message forked from." }), cancelled: Cancelled().shape.cancelled }),
    async run({ entryId }) {
      const entry = runtime.manager.current.tree.get(entryId);
      if (entry?.type !== "message" || entry.message.role !== "user") {
        throw new KernelError(ErrorCode.INVALID_INPUT, "Invalid entry ID for forking");
      }
      const text = messageText(entry.message);
      const veto = await hooks.session_before_fork.promise({ entryId, position: "before" });
      if (veto?.cancel) return { text, cancelled: true };
      await runtime.replace("fork", () => runtime.manager.forkFrom(entryId));
      return { text, cancelled: false };
    },
  });

  const clone = defineCommand({
    name: "clone",
    description: "Duplicate the active branch into a new session.",
    input: () => z.object({}),
    output: Cancelled,
    async run() {
      const { tree } = runtime.manager.current;
      if (tree.leafId === null || tree.messageCount === 0) {
        throw new KernelError(ErrorCode.CONFLICT, "Cannot clone session: no current entry selected");
      }
      const veto = await hooks.session_before_fork.promise({ entryId: tree.leafId, position: "at" });
      if (veto?.cancel) return { cancelled: true };
      await runtime.replace("fork", () => runtime.manager.clone());
      return { cancelled: false };
    },
  });

  return [newSession, switchSession, importSession, fork, clone];
}
