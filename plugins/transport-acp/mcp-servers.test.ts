import { describe, expect, it } from "vitest";
import { mcpEntries } from "./mcp-servers.js";

describe("ACP mcpServers as mcp.json entries", () => {
  it("maps stdio, http and sse servers; names tools cannot use become _ and stay unique", () => {
    expect(
      mcpEntries([
        { name: "files", command: "/usr/bin/mcp-files", args: ["/work"], env: [{ name: "TOKEN", value: "t" }] },
        { type: "http", name: "my docs", url: "http://127.0.0.1:9/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] },
        { type: "sse", name: "my docs", url: "http://127.0.0.1:9/sse", headers: [] },
        { type: "http", name: "", url: "http://127.0.0.1:9/x", headers: [] },
      ]),
    ).toEqual({
      files: { command: "/usr/bin/mcp-files", args: ["/work"], env: { TOKEN: "t" } },
      my_docs: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer x" } },
      my_docs_3: { type: "sse", url: "http://127.0.0.1:9/sse", headers: {} },
      server_4: { type: "http", url: "http://127.0.0.1:9/x", headers: {} },
    });
  });
});
