import { describe, expect, it } from "vitest";
import { rankTools, schemaWords, type SearchCandidate } from "./tool-search.js";

const tool = (name: string, description: string, parameters = "", server = ""): SearchCandidate => ({ name, description, parameters, server });
const tools = [
  tool("mcp__github__create_issue", "Create a new issue in a repository", "title body repo"),
  tool("mcp__github__search_code", "Search code across repositories", "query"),
  tool("mcp__jira__create_ticket", "Open a ticket in the tracker", "summary"),
  tool("mcp__db__run_query", "Run a SQL query against the database", "sql"),
];

describe("tool_search ranking", () => {
  it("words of the name count most; weak matches are left out", async () => {
    expect((await rankTools("create issue", tools, 8))[0]).toBe("mcp__github__create_issue");
    expect(await rankTools("sql database", tools, 8)).toEqual(["mcp__db__run_query"]);
    expect(await rankTools("nothing like it", tools, 8)).toEqual([]);
  });

  it("a tool's whole name, or the part after its server, comes first; the limit holds", async () => {
    expect(await rankTools("search_code", tools, 1)).toEqual(["mcp__github__search_code"]);
    expect((await rankTools("mcp__jira__create_ticket", tools, 8))[0]).toBe("mcp__jira__create_ticket");
    expect(await rankTools("create", tools, 1)).toHaveLength(1);
    expect(await rankTools("x", [], 5)).toEqual([]);
  });

  it("reads parameter names and descriptions", () => {
    expect(schemaWords({ properties: { path: { description: "Where to look" }, depth: {} } })).toBe("path Where to look depth ");
    expect(schemaWords(undefined)).toBe("");
  });
});
