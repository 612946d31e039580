/**
 * Example extension: keep the model's file tools away from secrets and generated trees. A
 * `write` or `edit` whose path touches `.env`, `.git/` or `node_modules/` is blocked with a
 * reason, and the user sees a warning notification. (`read` is left alone; see read-audit.ts.)
 *
 * Install: copy into ~/.atomic/agent/extensions/ (or a project's .atomic/extensions/, which
 * loads only in a trusted project).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const PROTECTED = [/(^|\/)\.env(\.|$)/, /(^|\/)\.git(\/|$)/, /(^|\/)node_modules(\/|$)/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", (event, ctx) => {
    if (event.toolName !== "write" && event.toolName !== "edit") return undefined;
    const path = String(event.input.path ?? "").replace(/\\/g, "/");
    if (!PROTECTED.some((pattern) => pattern.test(path))) return undefined;
    ctx.ui.notify(`Blocked a ${event.toolName} of ${path}`, "warning");
    return { block: true, reason: `${path} is protected (secrets, .git and node_modules are off limits).` };
  });
}
