/** A session whose history is one long chain: every command that walks it must still answer. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function chain(path: string, count: number): string {
  const lines = [JSON.stringify({ type: "session", version: 1, id: "deep", timestamp: new Date(0).toISOString(), cwd: "/tmp" })];
  let parent: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(8, "0");
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(i).toISOString(), message: { role: "user", content: `m${i}`, timestamp: i } }));
    parent = id;
  }
  writeFileSync(path, lines.join("\n") + "\n");
  return parent!;
}

describe("deep sessions", () => {
  it("get_tree answers for a 20,000-entry linear history (nesting deeper than JSON.stringify's stack)", async () => {
    const agentDir = tempDir();
    const file = join(agentDir, "deep.jsonl");
    const leaf = chain(file, 20_000);
    const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session-dir", join(agentDir, "sessions")] });
    clients.push(c);
    expect(await c.request({ type: "switch_session", sessionPath: file }, 30_000)).toMatchObject({ success: true, data: { cancelled: false } });
    const tree = await c.request({ type: "get_tree" }, 30_000);
    expect(tree.success).toBe(true);
    const data = tree.data as { tree: { entry: { id: string }; children: unknown[] }[]; leafId: string };
    expect(data.leafId).toBe(leaf);
    expect(data.tree).toHaveLength(1);
    let node = data.tree[0]!;
    let depth = 1;
    while (node.children.length > 0) {
      node = node.children[0] as typeof node;
      depth++;
    }
    expect(depth).toBe(20_000);
    expect(node.entry.id).toBe(leaf);
  }, 60_000);
});
