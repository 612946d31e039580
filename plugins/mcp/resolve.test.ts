import { describe, expect, it } from "vitest";
import { parseServerEntry } from "./config.js";
import { expandVariables, launchOf } from "./resolve.js";

const config = (raw: unknown) => {
  const result = parseServerEntry("s", raw, "mcpServers.s");
  if (!result.ok) throw new Error(result.error);
  return result.config;
};

describe("resolving an entry to start it", () => {
  it("${VAR} and ${VAR:-default}; an unset variable names the server, key and variable", () => {
    expect(expandVariables("Bearer ${T}", { T: "abc" }, "x")).toBe("Bearer abc");
    expect(expandVariables("${MISSING:-fallback}/${T}", { T: "t" }, "x")).toBe("fallback/t");
    expect(() => expandVariables("${MISSING}", {}, 'MCP server "s" headers.A')).toThrow('MCP server "s" headers.A: environment variable MISSING is not set');
    expect(expandVariables("$HOME stays", {}, "x")).toBe("$HOME stays");
  });

  it("stdio: ~ as home, a relative folder under the agent's; the environment is the SDK's defaults plus what the entry names", () => {
    const env = { HOME: "/home/u", TOKEN: "t", PATH: "/bin", OPENAI_API_KEY: "sk-secret", OTHER: "o", FN: "() { :; }" };
    expect(
      launchOf("s", config({ command: "~/bin/server", args: ["--key=${TOKEN}", "~/data"], env: { API: "${TOKEN}", MODE: "fast" }, cwd: "sub" }), env, "/work", [
        "HOME",
        "PATH",
        "FN",
        "USER",
      ]),
    ).toEqual({
      type: "stdio",
      command: "/home/u/bin/server",
      args: ["--key=t", "/home/u/data"],
      env: { HOME: "/home/u", PATH: "/bin", TOKEN: "t", API: "t", MODE: "fast" },
      cwd: "/work/sub",
    });
    expect(launchOf("s", config({ command: "x" }), env, "/work", [])).toMatchObject({ cwd: "/work", env: {} });
  });

  it("HTTP: URL and headers resolved", () => {
    expect(launchOf("s", config({ url: "http://127.0.0.1:${PORT}/mcp", headers: { Authorization: "Bearer ${T}" } }), { PORT: "9", T: "x" }, "/w", [])).toEqual({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer x" },
    });
  });
});
