/** The zod schemas of the plugin's commands and setting (built on first use). */
import { z } from "zod";

const EXPOSURE = () => z.enum(["direct", "deferred", "hidden"]);

export const McpStatusSchema = () =>
  z
    .object({
      servers: z.array(
        z.object({
          name: z.string(),
          source: z.enum(["client", "project", "user", "extension"]).meta({ description: "client: added by the client (add_mcp_servers, ACP session/new); project/user: an mcp.json; extension: pi.registerMcpServer." }),
          origin: z.string().optional().meta({ description: "The file or extension it came from." }),
          transport: z.enum(["stdio", "http", "sse"]).meta({ description: "sse after a streamable-HTTP server fell back to the older transport." }),
          enabled: z.boolean(),
          state: z.enum(["disabled", "pending", "connecting", "connected", "disconnected", "failed"]).meta({ description: "disconnected: it dropped and reconnects on the next call; failed: the last attempt failed (see error), the next call tries again." }),
          error: z.string().optional(),
          exposure: EXPOSURE(),
          description: z.string().optional(),
          instructions: z.string().optional().meta({ description: "First line of the instructions the server sent." }),
          resources: z.boolean().meta({ description: "The server offers resources (list_mcp_resources, read_mcp_resource)." }),
          tools: z.array(
            z.object({
              name: z.string().meta({ description: "The tool's name on its server." }),
              toolName: z.string().meta({ description: "The name the model calls it by: mcp__<server>__<tool>." }),
              description: z.string().optional(),
              exposure: EXPOSURE(),
              loaded: z.boolean().meta({ description: "Registered with the agent (direct tools once listed, deferred ones once tool_search loaded them)." }),
            }),
          ),
        }),
      ),
      errors: z.array(z.string()).meta({ description: "Configuration problems, each naming its file and key path." }),
    })
    .meta({ description: "Every MCP server with its state and tools." });

export const AddServersInput = () =>
  z.object({
    servers: z.record(z.string(), z.unknown()).meta({ description: "Server name -> an mcpServers entry ({command, args, env, cwd} or {url, headers, type}), as in mcp.json." }),
  });

export const AddServersOutput = () => z.object({ servers: z.array(z.string()).meta({ description: "The names added (or replaced)." }) });

export const NoInput = () => z.object({});

export const mcpSettingSchema = () =>
  z
    .object({
      timeout: z.number().positive().meta({ description: "Seconds a request to a server (a tool call, a resource read) may take unless its entry sets `timeout`; progress notifications renew it. Default 60." }),
      connectTimeout: z.number().positive().meta({ description: "Seconds starting a server, its initialize and its tool listing may take before it counts as failed. Default 60." }),
      startupWait: z.number().min(0).meta({ description: "Seconds the first prompt waits for servers with direct tools that are still connecting. Default 10." }),
    })
    .partial();
