/**
 * A handle on the session that is current now, still valid after it is replaced: what lets a
 * result that outlives its session (a user `bash` running across `new_session`) land in the
 * session where it started, and nowhere else.
 */
import type { SessionHandle } from "./api.js";
import type { SessionManager } from "./manager.js";

export function currentSessionHandle(manager: SessionManager): SessionHandle {
  const session = manager.current;
  const file = session.storage.file;
  // Switching back to the same file builds a new Session object: it is still "this" session.
  const isCurrent = () => manager.current === session || (file !== undefined && manager.current.storage.file === file);
  return {
    id: session.header.id,
    file,
    isCurrent,
    async appendMessage(message) {
      if (isCurrent()) {
        manager.append({ type: "message", message });
        await manager.flush();
      } else {
        await manager.appendToReplaced(session, { type: "message", message });
      }
    },
  };
}
