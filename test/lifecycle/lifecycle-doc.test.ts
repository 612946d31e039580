/**
 * docs/lifecycle.md is what a running host does: regenerated from a trace and compared.
 * `npm run docs:lifecycle` rewrites it after a change to hooks, owners, policies or taps.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../fake-llm/harness.js";
import { renderLifecycle } from "./render.js";
import { traceLifecycle } from "./trace-host.js";

const DOC = join(REPO_ROOT, "docs", "lifecycle.md");

describe("docs/lifecycle.md", () => {
  it("matches the hooks a running host calls, their owners, policies and built-in taps", async () => {
    const trace = await traceLifecycle();
    // The scenarios did run: a tool call and a compaction went through their hooks.
    const all = trace.scenarios.flatMap((scenario) => scenario.calls);
    expect(all).toEqual(expect.arrayContaining(["tool_call", "tool_result", "session_before_compact"]));
    const rendered = renderLifecycle(trace);
    if (process.env.UPDATE_DOCS === "1") writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, "utf8"), "docs/lifecycle.md is stale: run `npm run docs:lifecycle`").toBe(rendered);
  }, 60_000);
});
