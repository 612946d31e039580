/**
 * Example plugin: keep the model's file tools away from secrets and generated trees.
 * `write` and `edit` calls whose path touches a protected location are blocked with a reason.
 */
import { definePlugin } from "atomic-agent";

const PROTECTED = [/(^|\/)\.env(\.|$)/, /(^|\/)\.git(\/|$)/, /(^|\/)node_modules(\/|$)/];

export default definePlugin({
  name: "protected-paths",
  apply(k) {
    k.hooks.tool_call.tap(k.name, (call) => {
      if (call.toolName !== "write" && call.toolName !== "edit") return undefined;
      const path = String(call.input.path ?? "").replace(/\\/g, "/");
      return PROTECTED.some((pattern) => pattern.test(path))
        ? { block: true, reason: `Blocked by protected-paths: ${path} is protected (secrets, .git, node_modules).` }
        : undefined;
    });
  },
});
