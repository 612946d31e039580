/**
 * Plugin `mcp`: Model Context Protocol servers (stdio and HTTP) on the official SDK, configured
 * in `<agent dir>/mcp.json` and a trusted project's `.atomic/mcp.json` (the `mcpServers` shape
 * other clients read), added by a client (`add_mcp_servers`, ACP `session/new`) or an extension
 * (`pi.registerMcpServer`). Their tools are `mcp__<server>__<tool>`: called from codemode scripts
 * (`codemode`, the default as in pi 1.6), declared to the model (`direct`), found through
 * `tool_search` (`deferred`) or not reachable (`hidden`); resources are read through tools.
 * Servers connect in the background after boot; the first prompt waits a bounded time only for
 * servers with direct tools. `get_mcp_servers` reports them. docs/mcp.md.
 */
import { defineCommand, definePlugin, defineSetting } from "../../kernel/index.js";
import type {} from "../agent/api.js";
import type {} from "./api.js";
import { DEFAULT_CONNECT_TIMEOUT_S } from "./config.js";
import { McpController } from "./controller.js";
import { DEFAULT_DIRECT_CAPS, type DirectCaps } from "./direct-cap.js";
import { mcpHookDeclarations } from "./hooks.js";
import { AddServersInput, AddServersOutput, McpStatusSchema, mcpSettingSchema, NoInput } from "./schemas.js";
import { mcpLogPath, openServerLog } from "./server-log.js";
import { builtinCommands } from "./slash-command.js";

const DEFAULT_TIMEOUT_S = 60;
const DEFAULT_STARTUP_WAIT_S = 10;

declare module "../../kernel/config.js" {
  interface Settings {
    mcp?: { timeout?: number; connectTimeout?: number; startupWait?: number; directTools?: Partial<DirectCaps> };
  }
  interface CliOptions {
    noMcp?: boolean;
  }
}

export default definePlugin({
  name: "mcp",
  description: "MCP servers (stdio, streamable HTTP, SSE): their tools and resources for the model.",
  requires: ["agent"],
  provides: ["mcp"],
  hooks: mcpHookDeclarations,
  settings: {
    mcp: defineSetting(mcpSettingSchema, {
      description:
        "MCP: timeouts of requests and of connecting, the first prompt's wait for connecting servers (seconds), and how many direct tools are offered (directTools). Servers are configured in mcp.json (docs/mcp.md).",
    }),
  },
  flags: [{ name: "--no-mcp", key: "noMcp", description: "Connect no MCP server for this run (mcp.json, extensions and clients alike)." }],
  apply(k) {
    const settings = k.config.settings.mcp ?? {};
    const controller = new McpController(k, {
      disabled: k.config.cli.noMcp === true,
      timeoutMs: (settings.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
      connectTimeoutMs: (settings.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_S) * 1000,
      startupWaitMs: (settings.startupWait ?? DEFAULT_STARTUP_WAIT_S) * 1000,
      directCaps: { ...DEFAULT_DIRECT_CAPS, ...settings.directTools },
      hooks: k.ownHooks(mcpHookDeclarations),
      serverLog: openServerLog(mcpLogPath(k.config.agentDir), { verbose: k.config.cli.verbose === true, log: k.log }),
    });
    k.provide("mcp", controller.api());

    // Boot never waits: the start is scheduled, and a prompt that comes first starts it itself.
    k.hooks.boot_start.tap(k.name, () => controller.booted());
    // pi's built-in /mcp and /llama (gone with --no-mcp, as pi's built-in MCP is).
    if (k.config.cli.noMcp !== true) k.hooks.boot_start.tap(k.name, () => void k.maybeService("slashCommands")?.addProvider(builtinCommands(k, () => controller.status())));
    k.hooks.prompt_preflight.tapPromise({ name: k.name, order: "post" }, async () => {
      await controller.beforePrompt();
      return undefined;
    });
    k.hooks.abort.tap(k.name, () => controller.abortWaits());
    k.hooks.closing.tap(k.name, () => controller.closing());
    k.hooks.shutdown.tapPromise(k.name, () => controller.shutdown());
    k.hooks.system_prompt.tap({ name: k.name, after: "skills" }, (prompt) => {
      const section = controller.promptSection();
      if (section === "") return prompt;
      return prompt.trim() === "" ? section : `${prompt.trimEnd()}\n\n${section}`;
    });

    k.registerCommand(
      defineCommand({
        name: "get_mcp_servers",
        description:
          "Every MCP server (from mcp.json, extensions and the client) with its source, transport, state, last error and tools, and the configuration problems found. Starts the servers if they have not started yet; it does not wait for them to connect.",
        input: NoInput,
        output: McpStatusSchema,
        run: () => controller.status(),
      }),
    );
    k.registerCommand(
      defineCommand({
        name: "add_mcp_servers",
        description:
          "Adds MCP servers for this process (not saved), in the mcpServers entry format of mcp.json: what an editor passes for a session (ACP session/new does the same). They take precedence over configured servers of the same name and connect in the background; the next prompt waits for those with direct tools. Every entry is checked first: one invalid entry adds none, and the error names it.",
        input: AddServersInput,
        output: AddServersOutput,
        run: async ({ servers }) => ({ servers: await controller.api().addClientServers(servers) }),
      }),
    );
  },
});
