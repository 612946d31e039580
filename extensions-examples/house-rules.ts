/**
 * Example plugin: project rules in the system prompt, read from a settings key of its own
 * (`houseRules: string[]` in settings.json; unknown keys are kept for plugins). The
 * `system_prompt` hook is a waterfall: each tap receives the prompt so far and returns it.
 */
import { definePlugin, STAGE } from "atomic-agent";

export default definePlugin({
  name: "house-rules",
  apply(k) {
    const rules = k.config.settings.houseRules;
    if (!Array.isArray(rules) || rules.length === 0) return;
    const section = "# House rules\n" + rules.map((rule) => `- ${String(rule)}`).join("\n");
    k.hooks.system_prompt.tap({ name: k.name, stage: STAGE.OBSERVE }, (prompt) => `${prompt}\n\n${section}`);
  },
});
