/**
 * Example plugin: refuse dangerous shell commands before they run. The `tool_call` hook is a
 * guard: the first tap that answers `{ block: true, reason }` wins, the model gets the reason
 * as an error result, and the run goes on. (A guard that throws also blocks: fail closed.)
 *
 * Enable: add this file's path to "plugins" in ~/.atomic/agent/settings.json.
 */
import { definePlugin } from "atomic-agent";

const DANGEROUS: { pattern: RegExp; why: string }[] = [
  { pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+\/(\s|$)/, why: "recursive delete of /" },
  { pattern: /\bsudo\b/, why: "privilege escalation (sudo)" },
  { pattern: /\bmkfs(\.\w+)?\b/, why: "formatting a filesystem" },
  { pattern: /\bchmod\s+(-R\s+)?777\b/, why: "world-writable permissions" },
  { pattern: /\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, why: "piping a download into a shell" },
];

export default definePlugin({
  name: "permission-gate",
  apply(k) {
    k.hooks.tool_call.tap(k.name, (call) => {
      if (call.toolName !== "bash") return undefined;
      const command = String(call.input.command ?? "");
      const hit = DANGEROUS.find(({ pattern }) => pattern.test(command));
      return hit ? { block: true, reason: `Blocked by permission-gate: ${hit.why}. Ask the user to run it themselves.` } : undefined;
    });
  },
});
