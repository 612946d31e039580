/**
 * Plugin `export-html`: the `export_html` command writes the active branch of the current
 * session as one self-contained, escaped HTML file. The target must be a regular file other than
 * the live session file (target.ts). The page is streamed to it without blocking the event loop,
 * markdown rendered in a worker thread; marked and highlight.js load only there, on first use.
 */
import { basename, join, resolve, sep } from "node:path";
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
        input: () =>
          z
            .object({
              outputPath: z
                .string()
                .optional()
                .describe(
                  "Where to write the page, relative to the working folder; its missing folders are created (0700). Absent or empty: atomic-session-<session file name>.html in the working folder; ending in `/`: that name in that folder. Blank (only spaces) is refused.",
                ),
            })
            .meta({ examples: [{ outputPath: "session.html" }] }),
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
          const path = exportPath(k.config.cwd, outputPath, `atomic-session-${basename(sessionFile, ".jsonl")}.html`);
          const [{ writeSessionHtml }, { FileSink, openExportTarget }] = await Promise.all([import("./render.js"), import("./target.js")]);
          const handle = await openExportTarget(path, sessionFile, k.maybeService("sessionStore")?.isSessionFile);
          try {
            const sink = new FileSink(handle);
            await writeSessionHtml(
              {
                header: session.header(),
                sessionFile,
                sessionName: session.sessionName(),
                // Snapshots: a run may append entries while the page is written.
                branch: session.branch().slice(),
                entries: session.entries().slice(),
                leafId: session.leafId(),
              },
              sink.write,
            );
            await sink.flush();
          } finally {
            await handle.close();
          }
          return { path };
        },
      }),
    );
  },
});

/**
 * The file an export goes to. A path ending in a separator names a folder (the page gets its
 * default name there, not the folder's name as a file); a blank one is a client's bug, not a
 * file name, and is refused rather than written as a file named by spaces.
 */
function exportPath(cwd: string, outputPath: string | undefined, defaultName: string): string {
  if (!outputPath) return join(cwd, defaultName);
  if (outputPath.trim() === "") throw new KernelError(ErrorCode.INVALID_INPUT, `Invalid outputPath: expected a file path, got ${JSON.stringify(outputPath)}`);
  if (outputPath.endsWith("/") || outputPath.endsWith(sep)) return join(resolve(cwd, outputPath), defaultName);
  return resolve(cwd, outputPath);
}
