/**
 * Errors nothing caught: a rejection no one handled, an exception thrown from a timer or an event
 * listener. Node's default ends the process with a raw stack, mid-run, the session's last entries
 * unwritten. When one comes from code an owner can name (an extension's file in the stack), the
 * owner reports it and the process goes on; anything else still ends the process, as Node would,
 * with its stack. Only a process's owner installs the handlers (the CLI, not an embedder's app).
 */

/** Whether the owner took `error` (reported it); `kind` says how it escaped. */
export type StrayErrorClaim = (error: unknown, kind: StrayErrorKind) => boolean;
export type StrayErrorKind = "unhandled_rejection" | "uncaught_exception";

const claims = new Set<StrayErrorClaim>();

/** Registers `claim` (an extension host, say); the returned function unregisters it. */
export function claimStrayErrors(claim: StrayErrorClaim): () => void {
  claims.add(claim);
  return () => claims.delete(claim);
}

function claimed(error: unknown, kind: StrayErrorKind): boolean {
  for (const claim of claims) {
    try {
      if (claim(error, kind)) return true;
    } catch {
      // A claim that fails claims nothing.
    }
  }
  return false;
}

/** Installs the process handlers (once); `fatal` ends the process for an error nobody claimed. */
export function handleStrayErrors(fatal: (error: unknown, kind: StrayErrorKind) => void): void {
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    if (!claimed(reason, "unhandled_rejection")) fatal(reason, "unhandled_rejection");
  });
  process.on("uncaughtException", (error) => {
    if (!claimed(error, "uncaught_exception")) fatal(error, "uncaught_exception");
  });
}
let installed = false;
