/**
 * MCP results as the model sees them: text and images pass through; an embedded resource's
 * text is its text, an embedded image an image; audio, binary resources and resource links
 * become one-line notes (a link names `read_mcp_resource`); a result with only
 * `structuredContent` is that JSON. Text is cut like the built-in tools cut file output
 * (lib/truncate: the first 2,000 lines or 50 KB), and the whole text is kept in a temp file the
 * note names. `isError` results stay errors, with a sentence when the server sent no text.
 */
import type { ToolContent, ToolResult } from "../../kernel/index.js";
import { formatSize, truncateHead } from "../../lib/truncate/index.js";
import { saveToTempFile } from "./save-text.js";

/** The content blocks of an MCP result (the SDK's types, loosely: servers send what they send). */
type Block = { type: string; [key: string]: unknown };

export interface McpResultLike {
  content?: Block[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface ConvertOptions {
  server: string;
  tool: string;
  /** Whether `read_mcp_resource` can read this server's resources (named in resource-link notes). */
  readableResources: boolean;
  /** Where the full text of a cut result goes (default: a file in the temp folder). */
  saveFullText?: (text: string) => Promise<string>;
}

export async function toToolResult(result: McpResultLike, options: ConvertOptions): Promise<ToolResult> {
  const blocks = Array.isArray(result.content) ? result.content : [];
  let content: ToolContent[] = blocks.flatMap((block) => blockContent(block, options));
  if (blocks.length === 0 && result.structuredContent !== undefined) content = [{ type: "text", text: JSON.stringify(result.structuredContent, null, 2) }];
  if (result.isError && !content.some((block) => block.type === "text" && block.text.trim() !== "")) {
    content.push({ type: "text", text: `MCP tool ${options.tool} of server "${options.server}" returned an error` });
  }
  const limited = await limitText(content, options.saveFullText ?? saveToTempFile);
  return {
    content: limited.content,
    details: { server: options.server, tool: options.tool, ...(limited.fullOutputPath ? { fullOutputPath: limited.fullOutputPath } : {}) },
    ...(result.isError ? { isError: true } : {}),
    // A caller (a codemode script) gets the whole CallToolResult, uncut.
    structuredContent: {
      content: blocks,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      ...(result.isError ? { isError: true } : {}),
    },
  };
}

function blockContent(block: Block, options: ConvertOptions): ToolContent[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: String(block.text ?? "") }];
    case "image":
      return typeof block.data === "string" && typeof block.mimeType === "string" ? [{ type: "image", data: block.data, mimeType: block.mimeType }] : [];
    case "audio":
      return [{ type: "text", text: `[Audio (${String(block.mimeType ?? "unknown type")}), not shown]` }];
    case "resource_link": {
      const read = options.readableResources ? `; read it with read_mcp_resource (server "${options.server}")` : "";
      const about = typeof block.description === "string" && block.description ? `: ${block.description}` : "";
      return [{ type: "text", text: `[Resource ${String(block.uri)} "${String(block.title ?? block.name ?? "")}"${about}${read}]` }];
    }
    case "resource":
      return resourceContent(block.resource as Record<string, unknown> | undefined);
    default:
      return [{ type: "text", text: `[Content of type ${JSON.stringify(block.type)}, not shown]` }];
  }
}

/** One `contents` item of a resource (embedded in a result, or read with read_mcp_resource). */
export function resourceContent(resource: Record<string, unknown> | undefined): ToolContent[] {
  if (!resource) return [];
  const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
  if (typeof resource.text === "string") return [{ type: "text", text: resource.text }];
  if (typeof resource.blob === "string") {
    if (mimeType?.startsWith("image/")) return [{ type: "image", data: resource.blob, mimeType }];
    const bytes = Buffer.byteLength(resource.blob, "base64");
    if (isTextual(mimeType)) return [{ type: "text", text: Buffer.from(resource.blob, "base64").toString("utf8") }];
    return [{ type: "text", text: `[Binary resource ${String(resource.uri)} (${mimeType ?? "unknown type"}, ${formatSize(bytes)}), not shown]` }];
  }
  return [];
}

function isTextual(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  const type = mimeType.split(";", 1)[0]!.trim().toLowerCase();
  return type.startsWith("text/") || type === "application/json" || type.endsWith("+json") || type.endsWith("+xml");
}

/** The text blocks together fit the built-in tools' limits; images are kept as they are. */
async function limitText(content: ToolContent[], save: (text: string) => Promise<string>): Promise<{ content: ToolContent[]; fullOutputPath?: string }> {
  const texts = content.filter((block): block is Extract<ToolContent, { type: "text" }> => block.type === "text");
  const text = texts.map((block) => block.text).join("\n");
  const cut = truncateHead(text);
  if (!cut.truncated) return { content };
  let where: string;
  let fullOutputPath: string | undefined;
  try {
    fullOutputPath = await save(text);
    where = `Full output: ${fullOutputPath}`;
  } catch (error) {
    where = `The full output could not be saved: ${(error as Error).message}`;
  }
  const shown =
    cut.truncatedBy === "lines" ? `the first ${cut.outputLines} of ${cut.totalLines} lines` : `the first ${formatSize(cut.outputBytes)} of ${formatSize(cut.totalBytes)}`;
  const images = content.filter((block) => block.type === "image");
  return { content: [{ type: "text", text: `${cut.content}\n\n[Output truncated: showing ${shown}. ${where}]` }, ...images], ...(fullOutputPath ? { fullOutputPath } : {}) };
}
