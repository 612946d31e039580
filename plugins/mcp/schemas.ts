/** The zod schemas of the plugin's commands and setting (built on first use). */
import { z } from "zod";

const EXPOSURE = (what: string) =>
  z
    .enum(["direct", "codemode", "deferred", "hidden"])
    .meta({ description: `${what}: direct (offered to the model), codemode (called from codemode scripts), deferred (found with tool_search) or hidden.` });

export const McpStatusSchema = () =>
  z
    .object({
      servers: z
        .array(
          z.object({
            name: z.string().meta({ description: "The server's name (the <server> of its tools' names)." }),
            source: z
              .enum(["client", "project", "user", "extension"])
              .meta({ description: "client: added by the client (add_mcp_servers, ACP session/new); project/user: an mcp.json; extension: pi.registerMcpServer." }),
            origin: z.string().optional().meta({ description: "The file or extension it came from." }),
            transport: z.enum(["stdio", "http", "sse"]).meta({ description: "sse after a streamable-HTTP server fell back to the older transport." }),
            enabled: z.boolean().meta({ description: "False: configured with enabled false (or switched off by a project override); it is not started." }),
            state: z
              .enum(["disabled", "pending", "connecting", "connected", "disconnected", "failed"])
              .meta({ description: "disconnected: it dropped and reconnects on the next call; failed: the last attempt failed (see error), the next call tries again." }),
            error: z.string().optional().meta({ description: "Why the last connection failed or dropped." }),
            exposure: EXPOSURE("The server's exposure (tools may differ: toolExposure)"),
            description: z.string().optional().meta({ description: "The description its entry gives." }),
            instructions: z.string().optional().meta({ description: "First line of the instructions the server sent." }),
            resources: z.boolean().meta({ description: "The server offers resources (list_mcp_resources, read_mcp_resource)." }),
            tools: z
              .array(
                z.object({
                  name: z.string().meta({ description: "The tool's name on its server." }),
                  toolName: z.string().meta({ description: "The name the model calls it by: mcp__<server>__<tool>." }),
                  description: z.string().optional().meta({ description: "The first line of the tool's description." }),
                  exposure: EXPOSURE("How the model reaches the tool now (deferred for a direct tool past the caps of settings mcp.directTools)"),
                  capped: z
                    .boolean()
                    .optional()
                    .meta({ description: "True for a direct tool past the caps of settings mcp.directTools: the model finds it with tool_search (and codemode scripts call it)." }),
                  loaded: z
                    .boolean()
                    .meta({ description: "Offered to the model: direct tools once listed, codemode and deferred ones (and capped direct ones) once tool_search loaded them." }),
                }),
              )
              .meta({ description: "The tools it offers (empty until it connected)." }),
          }),
        )
        .meta({ description: "Every server, configured, added or registered." }),
      errors: z.array(z.string()).meta({ description: "Configuration problems, each naming its file and key path." }),
    })
    .meta({ description: "Every MCP server with its state and tools." });

export const AddServersInput = () =>
  z
    .object({
      servers: z.record(z.string(), z.unknown()).meta({ description: "Server name -> an mcpServers entry ({command, args, env, cwd} or {url, headers, type}), as in mcp.json." }),
    })
    .meta({
      examples: [
        {
          servers: {
            files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/work"] },
            docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } },
          },
        },
      ],
    });

export const AddServersOutput = () => z.object({ servers: z.array(z.string()).meta({ description: "The names added (or replaced)." }) });

export const NoInput = () => z.object({}).meta({ examples: [{}] });

export const mcpSettingSchema = () =>
  z
    .object({
      timeout: z.number().positive().meta({
        description: "Seconds a request to a server (a tool call, a resource read) may take unless its entry sets `timeout`; progress notifications renew it. Default 60.",
      }),
      connectTimeout: z
        .number()
        .positive()
        .meta({ description: "Seconds starting a server, its initialize and its tool listing may take before it counts as failed. Default 60." }),
      startupWait: z.number().min(0).meta({ description: "Seconds the first prompt waits for servers with direct tools that are still connecting. Default 10." }),
      directTools: z
        .object({
          perServer: z.number().int().min(0).meta({ description: "Direct tools of one server offered to the model; the rest are found with tool_search. Default 64." }),
          total: z.number().int().min(0).meta({ description: "Direct MCP tools offered in all (servers in configuration order). Default 100." }),
          descriptionChars: z
            .number()
            .int()
            .min(1)
            .meta({ description: "Characters of one MCP tool's description sent to the model; a longer one is cut, saying so. Default 2048." }),
          perServerChars: z
            .number()
            .int()
            .min(0)
            .meta({ description: "Characters (descriptions and JSON Schemas) of one server's direct tools offered to the model. Default 65536." }),
          totalChars: z.number().int().min(0).meta({ description: "Characters (descriptions and JSON Schemas) of all direct MCP tools offered. Default 131072." }),
        })
        .partial()
        .meta({ description: "How much of the servers' direct tools is offered in every request; past these, tools are reached through tool_search (docs/mcp.md, Exposure)." }),
    })
    .partial();
