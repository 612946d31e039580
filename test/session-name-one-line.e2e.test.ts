/**
 * A session name is one line of text, over the built CLI: set_session_name, --name and an
 * extension's pi.setSessionName refuse control characters (naming the field, the character and
 * where it is), because a name is shown in one-line lists; a name already stored with them (pi,
 * an older Atomic, a hand edit) still loads, shown on one line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";
import { promptSettled, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";

const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

function start(args: string[] = []): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("An answer.")]);
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...args] });
  clients.push(c);
  return c;
}

describe("a session name is one line", () => {
  it("set_session_name refuses a newline, a tab, DEL, C0 and C1 controls and line separators, saying which and where", async () => {
    const c = start();
    const cases: [string, string][] = [
      ["fix the flaky\ntest", "found a newline at index 13"],
      ["a\r\nb", "found a carriage return at index 1"],
      ["col\tumn", "found a tab at index 3"],
      ["bell\u0007", "found control character U+0007 at index 4"],
      ["\u001b[31mred", "found control character U+001B at index 0"],
      ["nul\u0000", "found control character U+0000 at index 3"],
      ["del\u007f", "found control character U+007F at index 3"],
      ["next\u0085line", "found control character U+0085 at index 4"],
      ["  two\u2028lines", "found a line separator (U+2028) at index 5"],
      ["para\u2029graph", "found a paragraph separator (U+2029) at index 4"],
    ];
    for (const [name, found] of cases) {
      expect(await c.request({ type: "set_session_name", name })).toMatchObject({ success: false, error: `Invalid name: expected one line of text, ${found}` });
    }
    expect((await c.ok({ type: "get_state" })).sessionName).toBeUndefined();
    // Whitespace around the name is trimmed, newlines included (as pi): only what stays counts.
    await c.ok({ type: "set_session_name", name: "\n  Parser refactor ü 日本\n" });
    expect((await c.ok({ type: "get_state" })).sessionName).toBe("Parser refactor ü 日本");
  });

  it("--name with a newline stops startup, naming the flag", async () => {
    const c = start(["--name", "one\ntwo"]);
    expect((await c.exited).code).toBe(1);
    expect(c.stderr).toContain("Invalid --name: expected one line of text, found a newline at index 3");
  });

  it("an extension's pi.setSessionName with a newline is reported as its error and names nothing", async () => {
    const dir = tempDir("atomic-ext-");
    const extension = join(dir, "namer.ts");
    writeFileSync(
      extension,
      `export default function (pi: any) {
  pi.on("agent_end", () => pi.setSessionName("first\\nsecond"));
}
`,
    );
    fake.setDefault({ text: "ok" });
    const c = await startExtensionAgent(fake, { extensions: [extension] });
    clients.push(c);
    const from = await promptSettled(c, "hi");
    const error = await c.waitFor((r) => r.type === "extension_error" && String(r.error).includes("Invalid name"), undefined, from);
    expect(String(error.error)).toContain("Invalid name: expected one line of text, found a newline at index 5");
    expect((await c.ok({ type: "get_state" })).sessionName).toBeUndefined();
  });

  it("a name stored with control characters still loads, and is shown on one line by get_state and list_sessions", async () => {
    const sessionDir = tempDir("atomic-sessions-");
    const c = start(["--session-dir", sessionDir]);
    const file = join(sessionDir, "stored.jsonl");
    const header = { type: "session", version: 3, id: "0193a000-0000-7000-8000-000000000001", timestamp: "2026-01-01T00:00:00.000Z", cwd: c.cwd };
    const user = { type: "message", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hello", timestamp: 1767225601000 } };
    const info = { type: "session_info", id: "i1", parentId: "m1", timestamp: "2026-01-01T00:00:02.000Z", name: "line one\r\nline two\u0007\tend" };
    writeFileSync(file, [header, user, info].map((entry) => JSON.stringify(entry)).join("\n") + "\n");
    await c.ok({ type: "switch_session", sessionPath: file });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ sessionFile: file, sessionName: "line one line two end", messageCount: 1 });
    // The entry itself is kept as stored.
    const { entries } = await c.ok({ type: "get_entries" });
    expect(entries.at(-1)).toMatchObject({ type: "session_info", name: info.name });
    const { sessions } = await c.ok({ type: "list_sessions" });
    expect(sessions.find((s: { path: string }) => s.path === file)).toMatchObject({ name: "line one line two end" });
  });
});
