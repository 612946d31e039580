/**
 * Example extension: ask before dangerous shell commands. The `tool_call` event is a guard: a
 * handler answering `{ block: true, reason }` stops the call and the model gets the reason as an
 * error result. Over RPC `ctx.ui.confirm` is an `extension_ui_request` (method "confirm") that
 * waits for the client's `extension_ui_response`; after 30 s without an answer it resolves
 * false, so the command is blocked. Without a UI (another transport) it blocks at once.
 *
 * Install: copy into ~/.atomic/agent/extensions/.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const DANGEROUS: { pattern: RegExp; why: string }[] = [
  { pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+/, why: "recursive or forced delete" },
  { pattern: /\bsudo\b/, why: "privilege escalation" },
  { pattern: /\b(chmod|chown)\b.*\b777\b/, why: "world-writable permissions" },
  { pattern: /\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, why: "piping a download into a shell" },
];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return undefined;
    const command = String(event.input.command ?? "");
    const hit = DANGEROUS.find(({ pattern }) => pattern.test(command));
    if (!hit) return undefined;
    if (!ctx.hasUI) return { block: true, reason: `Blocked (${hit.why}); no one could be asked.` };
    const allowed = await ctx.ui.confirm(`Allow a dangerous command? (${hit.why})`, command, { timeout: 30_000 });
    return allowed ? undefined : { block: true, reason: `The user did not allow this command (${hit.why}).` };
  });
}
