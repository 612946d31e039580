/**
 * Commands that replace the current session: new_session, switch_session, import_session, fork,
 * clone. Each asks its guard hook first; a `{cancel:true}` answer changes nothing.
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineCommand, ErrorCode, isKernelError, KernelError, type CommandDefinition } from "../../kernel/index.js";
import type { LoadedSession } from "./api.js";
import type { Session } from "./manager.js";
import { checkPath } from "./limits.js";
import type { SessionRuntime } from "./runtime.js";
import { messageText } from "./text.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** `cancelled: true` when a session_before_switch/fork tap vetoed it. */
const Cancelled = () => z.object({ cancelled: z.boolean().describe("An extension's session_before_* handler cancelled it: nothing changed.") });

/** A read that failed because nothing is written at the path (missing, or an empty file that is no session yet). */
function isUnwritten(error: unknown): boolean {
  return isKernelError(error) && (error.code === ErrorCode.NOT_FOUND || error.code === ErrorCode.INVALID_INPUT);
}

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
  async function resume(loaded: LoadedSession, open: (loaded: LoadedSession) => Promise<Session>) {
    return swapTo(loaded.file, async () => {
      // Re-read our own file after the flush, so entries written since the first read are kept.
      if (loaded.file === runtime.manager.current.storage.file) loaded = await runtime.manager.read(loaded.file);
      return open(loaded);
    });
  }

  async function swapTo(targetSessionFile: string | undefined, build: () => Promise<Session>) {
    const veto = await hooks.session_before_switch.promise({ reason: "resume", ...(targetSessionFile !== undefined ? { targetSessionFile } : {}) });
    if (veto?.cancel) return { cancelled: true };
    await runtime.replace("resume", build);
    return { cancelled: false };
  }

  const asIs = (loaded: LoadedSession) => runtime.manager.openLoaded(loaded);

  /**
   * switch_session: a session file, or an empty file, which opens a new session written there.
   * A path with no file is refused as `--session` refuses it (`Session file not found`), unless
   * the current session was about to write it (a session forked at its first message): pi 1.6
   * opens a new session at any path, so a mistyped path silently started an empty session.
   */
  async function switchTo(path: string) {
    checkPath("sessionPath", path);
    let loaded: LoadedSession;
    try {
      loaded = await runtime.manager.read(path);
    } catch (error) {
      if (!isUnwritten(error)) throw error;
      // The current session may be the one about to write that file: let it finish first.
      await runtime.manager.flush();
      if (isKernelError(error) && error.code === ErrorCode.NOT_FOUND && !(await exists(path))) {
        throw new KernelError(ErrorCode.NOT_FOUND, `Session file not found: ${path}`);
      }
      const fresh = await runtime.manager.startAt(path);
      if (fresh) return swapTo(fresh.storage.file, async () => fresh);
      // Something is written there (the flush wrote it, or it is no session): read it again, for that session or the reason.
      loaded = await runtime.manager.read(path);
    }
    return resume(loaded, asIs);
  }

  const switchSession = defineCommand({
    name: "switch_session",
    description:
      "Load a session file (cancellable by session_before_switch); an empty file starts a new session there. A path with no file is refused (`Session file not found`), as `--session` refuses it.",
    input: () =>
      z
        .object({ sessionPath: z.string().describe("The session file to open (as `list_sessions` lists it).") })
        .meta({ examples: [{ sessionPath: "/home/ada/.atomic/agent/sessions/--home-ada-app--/2026-12-01T09-00-00-000Z_0193.jsonl" }] }),
    output: Cancelled,
    run: ({ sessionPath }) => switchTo(sessionPath),
  });

  const importSession = defineCommand({
    name: "import_session",
    description: "Copy a session file into the session directory and switch to the copy.",
    input: () =>
      z.object({ inputPath: z.string().describe("A session file (Atomic's or pi's) to copy in and open.") }).meta({ examples: [{ inputPath: "/tmp/shared-session.jsonl" }] }),
    output: Cancelled,
    run: async ({ inputPath }) => resume(await runtime.manager.read(checkPath("inputPath", inputPath)), (loaded) => runtime.manager.importLoaded(loaded)),
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
