/**
 * The web page's files (`--web`): `web/` of the installed package (plain HTML, CSS and ES modules;
 * no build step), read once at start and answered with their content types and a strict
 * Content-Security-Policy: scripts, styles and connections from this origin only, nothing inline,
 * no frames, no forms. The page holds the token in its URL's fragment, which the browser never
 * sends: these requests need none.
 */
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { ErrorCode, KernelError } from "../../kernel/index.js";

const JAVASCRIPT = "text/javascript; charset=utf-8";

/** Every file of the page: a module app.js imports must be listed here, or the browser gets a 404 and runs none of them. */
const FILES: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: JAVASCRIPT },
  "/page-state.js": { file: "page-state.js", type: JAVASCRIPT },
  "/connection.js": { file: "connection.js", type: JAVASCRIPT },
  "/agent-session.js": { file: "agent-session.js", type: JAVASCRIPT },
  "/agent-list.js": { file: "agent-list.js", type: JAVASCRIPT },
  "/conversation.js": { file: "conversation.js", type: JAVASCRIPT },
  "/transcript.js": { file: "transcript.js", type: JAVASCRIPT },
  "/dialogs.js": { file: "dialogs.js", type: JAVASCRIPT },
  "/composer.js": { file: "composer.js", type: JAVASCRIPT },
  "/dom.js": { file: "dom.js", type: JAVASCRIPT },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
};

export function webRoot(installDir: string | undefined): string | undefined {
  return installDir ? join(installDir, "plugins", "transport-server", "web") : undefined;
}

export class WebFiles {
  readonly #files = new Map<string, { body: Buffer; type: string }>();

  static async load(root: string | undefined): Promise<WebFiles> {
    if (!root) throw new KernelError(ErrorCode.UNAVAILABLE, "Cannot serve the web page: the package's install folder is unknown");
    const files = new WebFiles();
    for (const [path, { file, type }] of Object.entries(FILES)) {
      const body = await readFile(join(root, file)).catch((error: Error) => {
        throw new KernelError(ErrorCode.UNAVAILABLE, `Cannot serve the web page: ${join(root, file)}: ${error.message}`);
      });
      files.#files.set(path, { body, type });
    }
    return files;
  }

  /** Answers `path` when it is one of the page's files; false when it is not. */
  answer(path: string, method: string, host: string, response: ServerResponse): boolean {
    const file = this.#files.get(path === "/index.html" ? "/" : path);
    if (!file) return false;
    response.writeHead(200, {
      "Content-Type": file.type,
      "Content-Length": file.body.length,
      "Content-Security-Policy": contentSecurityPolicy(host),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Frame-Options": "DENY",
      // Small files, and a new version must show at once after an upgrade.
      "Cache-Control": "no-store",
    });
    response.end(method === "HEAD" ? undefined : file.body);
    return true;
  }
}

/** `connect-src` names the WebSocket of this very host: older browsers do not count ws: under 'self'. */
function contentSecurityPolicy(host: string): string {
  const safeHost = /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : undefined;
  const sockets = safeHost ? ` ws://${safeHost} wss://${safeHost}` : "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self'${sockets}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
