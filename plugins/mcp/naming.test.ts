import { describe, expect, it } from "vitest";
import { assignToolNames, MAX_TOOL_NAME, plainToolName } from "./naming.js";

describe("MCP tool names", () => {
  it("mcp__<server>__<tool> with everything but [A-Za-z0-9_] as _", () => {
    expect(plainToolName("dev-radius", "get.file-info")).toBe("mcp__dev_radius__get_file_info");
    expect(assignToolNames("gh", ["search_code"], () => false)).toEqual(new Map([["search_code", "mcp__gh__search_code"]]));
  });

  it("tools of one server that sanitise alike all get a hash suffix, whatever their order", () => {
    const a = assignToolNames("s", ["a-b", "a_b", "c"], () => false);
    const b = assignToolNames("s", ["c", "a_b", "a-b"], () => false);
    expect(a).toEqual(b);
    expect(a.get("c")).toBe("mcp__s__c");
    expect(a.get("a-b")).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(a.get("a_b")).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(a.get("a-b")).not.toBe(a.get("a_b"));
  });

  it("a name that is too long, or held by something else, is shortened with the hash", () => {
    const long = assignToolNames("server", ["x".repeat(80)], () => false).get("x".repeat(80))!;
    expect(long).toHaveLength(MAX_TOOL_NAME);
    expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    const taken = assignToolNames("s", ["read"], (name) => name === "mcp__s__read").get("read")!;
    expect(taken).toMatch(/^mcp__s__read_[0-9a-f]{8}$/);
  });
});
