/**
 * Plugin `export-html`: the `export_html` command writes the active branch of the current
 * session as one self-contained, escaped HTML file. marked and highlight.js are imported only
 * when the command runs, so they cost nothing at startup.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { z } from "zod";
import { defineCommand, definePlugin, ErrorCode, KernelError } from "../../kernel/index.js";
// Type-only: brings the `session` service into `Services`.
import type {} from "../session/api.js";

export default definePlugin({
  name: "export-html",
  description: "Export the current session to a self-contained HTML file",
  requires: ["session"],
  apply(k) {
    k.registerCommand(
      defineCommand({
        name: "export_html",
        description: "Export the session to HTML (the active branch shown, all branches embedded); returns the file path.",
        input: () => z.object({ outputPath: z.string().optional() }),
        output: () => z.object({ path: z.string().meta({ description: "The file written." }) }),
        async run({ outputPath }) {
          const session = k.service("session");
          const sessionFile = session.sessionFile();
          if (sessionFile === undefined) throw new KernelError(ErrorCode.UNAVAILABLE, "Cannot export in-memory session to HTML");
          if (session.entries().length === 0) {
            throw new KernelError(ErrorCode.CONFLICT, "Nothing to export yet - start a conversation first");
          }
          // The file on disk should hold what the page shows.
          await session.flush();
          const { cwd } = k.config;
          const path = outputPath
            ? resolve(cwd, outputPath)
            : join(cwd, `atomic-session-${basename(sessionFile, ".jsonl")}.html`);
          const { renderSessionHtml } = await import("./render.js");
          const html = await renderSessionHtml({
            header: session.header(),
            sessionFile,
            sessionName: session.sessionName(),
            branch: session.branch(),
            entries: session.entries(),
            leafId: session.leafId(),
          });
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, html, "utf8");
          return { path };
        },
      }),
    );
  },
});
