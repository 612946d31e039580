/**
 * Folders that can never exist (procfs answers ENOENT for a child of /proc, whose parent is
 * there) fail at once: Node's recursive mkdir read that ENOENT as "parent missing" and retried
 * forever in C++, so the model's `write` or a client's `export_html` to such a path hung the
 * agent for good (aborts unanswered, SIGKILL needed). A file where a folder goes is named.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, textTurn, toolTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

type End = Record_ & { toolCallId: string; isError: boolean; result: { content: { type: string; text?: string }[] } };

describe.runIf(process.platform === "linux")("folders procfs refuses", () => {
  it("the model's write under /proc/nope is a tool error, the run ends, export_html there answers success:false", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "proc", [toolTurn("w1", "write", { path: "/proc/nope/x.txt", content: "x" }), textTurn("done")]);
    // A persistent session: export_html needs a session file to export.
    const c = (client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "proc"] }));
    const from = c.records.length;
    expect(await c.request({ type: "prompt", message: "go" })).toMatchObject({ success: true });
    await c.waitForEvent("agent_end", 20_000, from);
    const end = c.records.slice(from).find((r) => r.type === "tool_execution_end") as End;
    expect(end).toMatchObject({ toolCallId: "w1", isError: true });
    expect(end.result.content[0]?.text).toBe("Cannot write /proc/nope/x.txt: Cannot create folder /proc/nope: the file system refuses it (ENOENT).");

    expect(await c.request({ type: "export_html", outputPath: "/proc/nope/out.html" })).toMatchObject({
      success: false,
      error: "Cannot export to /proc/nope/out.html: Cannot create folder /proc/nope: the file system refuses it (ENOENT)",
    });
    expect(await c.request({ type: "export_html", outputPath: "/etc/passwd/x.html" })).toMatchObject({
      success: false,
      error: "Cannot export to /etc/passwd/x.html: /etc/passwd is not a folder",
    });
    // Still serving, and it ends on EOF.
    expect(await c.request({ type: "get_state" })).toMatchObject({ success: true });
    expect(await c.close()).toMatchObject({ code: 0 });
  });

  it("--session-dir under /proc/nope fails the session's writes instead of hanging the agent", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "proc", [textTurn("hi")]);
    const c = (client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "proc", "--session-dir", "/proc/nope/sessions"] }));
    const from = c.records.length;
    expect(await c.request({ type: "prompt", message: "go" })).toMatchObject({ success: true });
    expect(await c.waitForEvent("session_write_error", 20_000, from)).toMatchObject({ error: "Cannot create folder /proc/nope: the file system refuses it (ENOENT)" });
    await c.waitForEvent("agent_settled", 20_000, from);
    expect(await c.request({ type: "get_state" })).toMatchObject({ success: true });
    expect(await c.close()).toMatchObject({ code: 0 });
  });
});
