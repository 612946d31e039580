/**
 * The file tools' side of the sandbox: the same policy bubblewrap enforces for commands, checked
 * in-process on the real path (symlinks, `..` and `/proc/self/root` resolved first). Reads are
 * refused under a denied folder; writes outside the workspace, the writable roots or inside a
 * protected path (git's config, hooks and `.git` files, `.atomic`, the agent dir), through another
 * hard link, or at all in read-only mode.
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { SandboxBlockedError, type FileGuard } from "./api.js";
import { gitPlumbing } from "./git-dirs.js";
import type { SandboxPolicy } from "./policy.js";
import { isWithin, realPathOf, relativeWithin } from "./real-path.js";
import { Turns } from "./turns.js";

/** Inside a writable folder, these stay read-only: what would run code outside the sandbox later. */
export const PROTECTED_IN_ROOTS = [".git/hooks", ".git/config", ".atomic"];

export interface GuardContext {
  policy: SandboxPolicy;
  /** The workspace (the agent's working folder). */
  cwd: string;
  agentDir: string;
}

/** The writable roots, the protected paths and the denied paths, each real (resolved now: folders may appear later). */
export interface RealLayout {
  workspace: string;
  writable: string[];
  /** Git dirs in the writable roots: writable, but not to be moved or replaced (see git-dirs.ts). */
  pinned: string[];
  protectedPaths: string[];
  denied: string[];
}

export async function realLayout(context: GuardContext): Promise<RealLayout> {
  const { policy } = context;
  const roots = policy.mode === "workspace-write" ? [context.cwd, ...policy.writableRoots] : [];
  const [workspace, writable, denied, agentDir] = await Promise.all([
    realPathOf(context.cwd),
    Promise.all(roots.map((root) => realPathOf(root))),
    Promise.all(policy.denyRead.map((path) => realPathOf(path))),
    realPathOf(context.agentDir),
  ]);
  const git = await Promise.all(writable.map((root) => gitPlumbing(root)));
  const protectedPaths = [agentDir, ...writable.flatMap((root) => PROTECTED_IN_ROOTS.map((path) => join(root, path))), ...git.flatMap((found) => found.protectedPaths)];
  const pinned = [...new Set(git.flatMap((found) => found.pinned))].sort((a, b) => a.length - b.length);
  return { workspace, writable, pinned, protectedPaths: [...new Set(protectedPaths)], denied };
}

/**
 * The layout is resolved once (the folders the policy names are the user's; a path created later
 * still resolves the same, and whether it exists is checked where that matters, per command).
 */
export function memoizedLayout(context: GuardContext): () => Promise<RealLayout> {
  let layout: Promise<RealLayout> | undefined;
  return () => {
    const pending = (layout ??= realLayout(context));
    pending.catch(() => (layout = undefined));
    return pending;
  };
}

export function createFileGuard(context: GuardContext, layoutOf: () => Promise<RealLayout> = memoizedLayout(context), turns = new Turns()): FileGuard {
  const shownAs = (path: string, real: string) => (path === real ? path : `${path} (which leads to ${real})`);
  return {
    async check(path, access) {
      const [real, layout] = await Promise.all([realPathOf(path), layoutOf()]);
      const deniedBy = layout.denied.find((denied) => isWithin(real, denied));
      if (deniedBy)
        throw new SandboxBlockedError(
          `blocked by the sandbox: ${access === "read" ? "reading" : "writing"} ${shownAs(path, real)} is not allowed (${deniedBy} holds secrets the sandbox keeps from commands and tools)`,
        );
      if (access === "read") return real;
      if (context.policy.mode === "read-only") throw new SandboxBlockedError(`blocked by the sandbox: it is read-only, so no file may be written (${shownAs(path, real)})`);
      if (!layout.writable.some((root) => isWithin(real, root))) {
        const places = [context.cwd, ...context.policy.writableRoots].join(", ");
        throw new SandboxBlockedError(`blocked by the sandbox: write outside the workspace (${shownAs(path, real)} is not inside ${places})`);
      }
      const guarded = layout.protectedPaths.find((protectedPath) => isWithin(real, protectedPath));
      if (guarded)
        throw new SandboxBlockedError(
          `blocked by the sandbox: ${shownAs(path, real)} is protected (git's hooks, config and .git files, .atomic and the agent's folder stay read-only: writing them could run code outside the sandbox later)`,
        );
      const existing = await lstat(real).catch(() => undefined);
      if (existing?.isFile() && existing.nlink > 1)
        throw new SandboxBlockedError(`blocked by the sandbox: ${shownAs(path, real)} has other hard links, so writing it could change a file outside the workspace`);
      return real;
    },
    async deniedWithin(realRoot) {
      const { denied } = await layoutOf();
      return denied.filter((path) => isWithin(path, realRoot) && path !== realRoot).map((path) => relativeWithin(path, realRoot));
    },
    hold: () => turns.take("files"),
    async mayFollow(path) {
      const [real, { denied }] = await Promise.all([realPathOf(path).catch(() => undefined), layoutOf()]);
      return real !== undefined && !denied.some((root) => isWithin(real, root));
    },
  };
}
