/**
 * Plugin `context-files`: project instructions (AGENTS.md, CLAUDE.md) in the system prompt,
 * under `# Project Context`. Files are re-read for every prompt, so edits apply to the next one.
 * Project data, not code: it loads without the trust check that project extensions need, but a
 * project file is read only when it is a regular file inside the project (see discover.ts);
 * a skipped file is named once on stderr.
 */
import { definePlugin } from "../../kernel/index.js";
import { discoverContextFiles, renderProjectContext } from "./discover.js";

declare module "../../kernel/config.js" {
  interface CliOptions {
    noContextFiles?: boolean;
  }
}

export { discoverContextFiles, renderProjectContext, ancestry, MAX_CONTEXT_FILE_BYTES, type ContextFile } from "./discover.js";

export default definePlugin({
  name: "context-files",
  description: "Adds AGENTS.md / CLAUDE.md files (agent dir, then root down to the cwd) to the system prompt.",
  flags: [{ name: "--no-context-files", alias: "-nc", key: "noContextFiles", description: "Do not add AGENTS.md / CLAUDE.md files to the system prompt." }],
  apply(k) {
    const enabled = !k.config.cli.noContextFiles;
    // Files are re-read for every prompt; a note about the same file and reason is written once.
    const noted = new Set<string>();
    const onSkip = (path: string, reason: string) => {
      const key = `${path}\0${reason}`;
      if (noted.has(key)) return;
      noted.add(key);
      k.log.warn(`Skipped context file ${path}: ${reason}`);
    };
    // After the agent's persona and tools (its `pre` tap), before its date/cwd footer (`post`).
    // Tapped even when off: the skills section is placed after this tap by name.
    k.hooks.system_prompt.tapPromise(k.name, async (prompt, context) => {
      if (!enabled) return prompt;
      const section = renderProjectContext(await discoverContextFiles(k.config.agentDir, context.cwd, { onSkip }));
      if (section === "") return prompt;
      return prompt.trim() === "" ? section : `${prompt.trimEnd()}\n\n${section}`;
    });
  },
});
