/**
 * Example plugin: project rules in the system prompt, read from a settings key it declares
 * (`houseRules: string[]` in settings.json, validated like every built-in key). The
 * `system_prompt` hook is a waterfall: each tap receives the prompt so far and returns it.
 */
import { z } from "zod";
import { definePlugin, defineSetting } from "atomic-agent";

declare module "atomic-agent" {
  interface Settings {
    houseRules?: string[];
  }
}

export default definePlugin({
  name: "house-rules",
  settings: {
    houseRules: defineSetting(() => z.array(z.string()), { description: "Rules added to the system prompt, one bullet each." }),
  },
  apply(k) {
    const rules = k.config.settings.houseRules;
    if (!rules || rules.length === 0) return;
    const section = "# House rules\n" + rules.map((rule) => `- ${rule}`).join("\n");
    k.hooks.system_prompt.tap({ name: k.name, after: "context-files" }, (prompt) => `${prompt}\n\n${section}`);
  },
});
