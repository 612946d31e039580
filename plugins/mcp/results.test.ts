import { describe, expect, it } from "vitest";
import { toToolResult } from "./results.js";

const options = { server: "s", tool: "t", readableResources: true, saveFullText: async () => "/tmp/full.txt" };

describe("MCP results for the model", () => {
  it("text and images pass, embedded resources unwrap, links and audio become notes", async () => {
    const result = await toToolResult(
      {
        content: [
          { type: "text", text: "hello" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "embedded" } },
          { type: "resource", resource: { uri: "file:///b.png", mimeType: "image/png", blob: "BBBB" } },
          { type: "resource", resource: { uri: "file:///c.json", mimeType: "application/json", blob: Buffer.from('{"a":1}').toString("base64") } },
          { type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/octet-stream", blob: "AAAA" } },
          { type: "resource_link", uri: "file:///e.md", name: "e.md", description: "notes" },
          { type: "audio", data: "x", mimeType: "audio/wav" },
        ],
      },
      options,
    );
    expect(result.content).toEqual([
      { type: "text", text: "hello" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "embedded" },
      { type: "image", data: "BBBB", mimeType: "image/png" },
      { type: "text", text: '{"a":1}' },
      { type: "text", text: "[Binary resource file:///d.bin (application/octet-stream, 3B), not shown]" },
      { type: "text", text: '[Resource file:///e.md "e.md": notes; read it with read_mcp_resource (server "s")]' },
      { type: "text", text: "[Audio (audio/wav), not shown]" },
    ]);
    expect(result).toMatchObject({ details: { server: "s", tool: "t" } });
    expect(result.isError).toBeUndefined();
  });

  it("structured content alone is its JSON; an error without text says which tool failed", async () => {
    expect((await toToolResult({ content: [], structuredContent: { a: 1 } }, options)).content).toEqual([{ type: "text", text: '{\n  "a": 1\n}' }]);
    expect(await toToolResult({ content: [], isError: true }, options)).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'MCP tool t of server "s" returned an error' }],
    });
  });

  it("long text is cut like the file tools cut it, the note names the file with all of it", async () => {
    let saved = "";
    const text = Array.from({ length: 2500 }, (_, i) => `row ${i}`).join("\n");
    const result = await toToolResult(
      {
        content: [
          { type: "text", text },
          { type: "image", data: "I", mimeType: "image/png" },
        ],
      },
      { ...options, saveFullText: async (full) => ((saved = full), "/tmp/all.txt") },
    );
    expect(saved).toBe(text);
    const cut = result.content[0] as { text: string };
    expect(cut.text.endsWith("row 1999\n\n[Output truncated: showing the first 2000 of 2500 lines. Full output: /tmp/all.txt]")).toBe(true);
    expect(result.content[1]).toEqual({ type: "image", data: "I", mimeType: "image/png" });
    expect(result.details).toEqual({ server: "s", tool: "t", fullOutputPath: "/tmp/all.txt" });
  });
});
