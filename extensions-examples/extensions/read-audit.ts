/**
 * Example extension: override a built-in tool. It registers its own `read`, made from the
 * built-in one (`createReadTool`), which refuses `.env` files and records every path read in the
 * session (`appendEntry`, never sent to the model) before delegating to the built-in. A tool
 * registered under a built-in's name replaces it for the model.
 *
 * Install: copy into ~/.atomic/agent/extensions/.
 */
import { basename } from "node:path";
import { createReadTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const builtin = createReadTool(process.cwd());
  pi.registerTool({
    ...builtin,
    description: `${builtin.description} (.env files are refused.)`,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const path = String((params as { path?: unknown }).path ?? "");
      if (/^\.env(\.|$)/.test(basename(path))) throw new Error(`Reading ${path} is not allowed: it holds secrets.`);
      pi.appendEntry("read-audit", { path, at: new Date().toISOString() });
      return builtin.execute(toolCallId, params, signal, onUpdate, ctx);
    },
  });
}
