import { describe, expect, it } from "vitest";
import { applyOverride, exposuresOf, isOverride, parseServerEntry, toolExposureOf, type ServerEntry } from "./config.js";

const ok = (name: string, raw: unknown) => {
  const result = parseServerEntry(name, raw, `mcpServers.${name}`);
  if (!result.ok) throw new Error(result.error);
  return result.config;
};
const error = (name: string, raw: unknown) => {
  const result = parseServerEntry(name, raw, `mcpServers.${name}`);
  return result.ok ? undefined : result.error;
};

describe("mcpServers entries", () => {
  it("reads stdio and HTTP entries with their defaults; type picks SSE; pi's codemode (and its old alias); Cline's disabled", () => {
    expect(ok("fs", { command: "npx", args: ["-y", "x"], env: { A: "1" }, cwd: "sub", timeout: 5 })).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "x"],
      env: { A: "1" },
      cwd: "sub",
      timeout: 5,
      enabled: true,
      toolExposure: {},
    });
    expect(ok("web", { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${T}" } })).toEqual({
      type: "http",
      url: "https://example.com/mcp",
      headers: { Authorization: "Bearer ${T}" },
      enabled: true,
      toolExposure: {},
    });
    expect(ok("old", { url: "http://127.0.0.1/sse", type: "sse" }).type).toBe("sse");
    expect(ok("new", { url: "http://127.0.0.1/mcp", type: "streamable-http" }).type).toBe("http");
    expect(ok("pi", { command: "x", exposure: "codemode", toolExposure: { "get_*": "codemode-deferred", del: "hidden" } })).toMatchObject({
      exposure: "codemode",
      toolExposure: { "get_*": "codemode", del: "hidden" },
    });
    expect(ok("cline", { command: "x", disabled: true }).enabled).toBe(false);
    expect(ok("both", { command: "x", disabled: true, enabled: true }).enabled).toBe(true);
    // Keys other clients add are ignored.
    expect(ok("extra", { command: "x", alwaysAllow: ["a"] })).not.toHaveProperty("alwaysAllow");
  });

  it("errors name the key path and what was expected", () => {
    expect(error("a", { command: "" })).toBe("Invalid mcpServers.a.command: expected a string of at least 1 characters");
    expect(error("a", { command: "x", args: ["ok", 3] })).toBe("Invalid mcpServers.a.args.1: expected string");
    expect(error("a", { url: "ws://x" })).toBe("Invalid mcpServers.a.url: expected an http:// or https:// URL");
    expect(error("a", { url: "http://x", headers: { A: 1 } })).toBe("Invalid mcpServers.a.headers.A: expected string");
    expect(error("a", { command: "x", exposure: "sometimes" })).toMatch(/^Invalid mcpServers\.a\.exposure: expected one of "direct", "deferred", "hidden"/);
    expect(error("a", { command: "x", timeout: 0 })).toBe("Invalid mcpServers.a.timeout: expected a value > 0");
    expect(error("a", "npx server")).toBe("Invalid mcpServers.a: expected an object");
    expect(error("a", {})).toBe('Invalid mcpServers.a: expected "command" (a stdio server) or "url" (an HTTP server)');
    expect(error("a b", { command: "x" })).toBe('Invalid mcpServers.a b: a server name may contain only letters, digits, "_" and "-"');
    expect(error("a", { url: "https://x", oauth: {} })).toMatch(/^Invalid mcpServers\.a\.oauth: OAuth sign-in is not supported by Atomic/);
  });

  it("a project override changes only enabled, exposure and toolExposure", () => {
    const base: ServerEntry = { name: "s", config: ok("s", { command: "x", env: { SECRET: "s" }, toolExposure: { a: "hidden" } }), source: "user", raw: {} };
    expect(isOverride({ enabled: false })).toBe(true);
    expect(isOverride({ command: "y" })).toBe(false);
    const result = applyOverride(base, { enabled: false, toolExposure: { b: "deferred" } }, "mcpServers.s");
    expect(result).toEqual({ ok: true, config: { ...base.config, enabled: false, toolExposure: { a: "hidden", b: "deferred" } } });
    expect(applyOverride(base, { enabled: false, env: { SECRET: "mine" } }, "mcpServers.s")).toEqual({
      ok: false,
      error: 'Invalid mcpServers.s: an override (an entry without "command" or "url") may set only enabled, exposure, toolExposure (found env)',
    });
  });

  it("a tool's exposure: exact name, then the first matching pattern, then the server's (default codemode, as pi 1.6)", () => {
    const config = ok("s", { command: "x", exposure: "deferred", toolExposure: { "get_*": "direct", get_secret: "hidden", "*_admin": "hidden" } });
    expect(toolExposureOf(config, "get_secret")).toBe("hidden");
    expect(toolExposureOf(config, "get_file")).toBe("direct");
    expect(toolExposureOf(config, "drop_admin")).toBe("hidden");
    expect(toolExposureOf(config, "other")).toBe("deferred");
    expect(toolExposureOf(ok("t", { command: "x" }), "any")).toBe("codemode");
    expect([...exposuresOf(ok("t", { command: "x" }))]).toEqual(["codemode"]);
    expect([...exposuresOf(config)].sort()).toEqual(["deferred", "direct", "hidden"]);
  });

  it("tools named like built-in object keys: configured only by their own entries, __proto__ included", () => {
    const plain = ok("s", { command: "x" });
    for (const tool of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) expect(toolExposureOf(plain, tool)).toBe("codemode");
    const configured = ok("s", JSON.parse('{"command":"x","toolExposure":{"__proto__":"hidden","constructor":"deferred"}}'));
    expect(toolExposureOf(configured, "__proto__")).toBe("hidden");
    expect(toolExposureOf(configured, "constructor")).toBe("deferred");
    expect(toolExposureOf(configured, "toString")).toBe("codemode");
    expect(error("s", JSON.parse('{"command":"x","toolExposure":{"__proto__":"sideways"}}'))).toMatch(/^Invalid mcpServers\.s\.toolExposure\.__proto__: /);
    const user: ServerEntry = { name: "s", config: plain, source: "user", raw: { command: "x" } };
    const overridden = applyOverride(user, JSON.parse('{"toolExposure":{"__proto__":"deferred"}}'), "mcpServers.s");
    if (!overridden.ok) throw new Error(overridden.error);
    expect(toolExposureOf(overridden.config, "__proto__")).toBe("deferred");
    expect(toolExposureOf(overridden.config, "valueOf")).toBe("codemode");
  });

  it("a key that is a slip of a known one is named with it; other clients' own keys are still accepted", () => {
    expect(error("a", { comand: "cat" })).toBe('Invalid mcpServers.a: expected "command" (a stdio server) or "url" (an HTTP server); found "comand": did you mean "command"?');
    expect(error("a", { URL: "https://x/mcp" })).toMatch(/found "URL": did you mean "url"\?$/);
    expect(error("a", { command: "x", arg: ["y"] })).toBe('Invalid mcpServers.a.arg: unknown key (did you mean "args"?)');
    expect(error("a", { url: "https://x/mcp", header: { A: "b" } })).toBe('Invalid mcpServers.a.header: unknown key (did you mean "headers"?)');
    expect(ok("cline", { command: "x", autoApprove: ["t"], alwaysAllow: [], envFile: ".env", transportType: "stdio" })).toMatchObject({ command: "x" });
  });
});
